// Views of a ResidueBatch for the backends: the kernels' prime-major view and one pointer a
// modulus, for the CPU backend.
#pragma once

#include <vector>

#include "kernels/modular/residue_view.hpp"
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

}  // namespace zgpu
