// Views of a ResidueBatch for the backends: the kernels' prime-major view and one pointer a
// modulus, for the CPU backend; and the record of the backend an operation on them ran on.
#pragma once

#include <vector>

#include "kernels/modular/residue_view.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu {

inline kernels::ResidueView residue_view(ResidueBatch& r)
{
    return {r.data(), r.count(), r.prime_set().size(), r.prime_stride()};
}

inline kernels::ConstResidueView residue_view(const ResidueBatch& r)
{
    return {r.data(), r.count(), r.prime_set().size(), r.prime_stride()};
}

template <class Word>
std::vector<Word*> modulus_arrays(kernels::BasicResidueView<Word> view)
{
    std::vector<Word*> arrays(view.primes);
    for (std::size_t i = 0; i < view.primes; ++i) arrays[i] = view.prime(i);
    return arrays;
}

// Runs an operation on residue batches of the backend `where`, then records that backend for
// zgpu_last_backend(), as every other operation of zgpu does.
template <class Op>
void run_recorded(Backend where, Op op)
{
    op();
    set_last_backend(where);
}

}  // namespace zgpu
