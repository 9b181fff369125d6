// Residues of `count` values modulo each of `primes` moduli, prime-major: the residue of value e
// modulo modulus i is prime(i)[e]. One modulus's residues are contiguous, as an NTT and FLINT's
// arrays of one ulong vector a prime want them. prime_stride >= count (device batches round it up
// so that each modulus's residues start aligned).
#pragma once

#include <cstddef>
#include <type_traits>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

template <class Word>
struct BasicResidueView {
    Word* data = nullptr;
    std::size_t count = 0;
    std::size_t primes = 0;
    std::size_t prime_stride = 0;

    ZGPU_HOST_DEVICE Word* prime(std::size_t i) const { return data + i * prime_stride; }

    // A mutable view converts to a read-only one.
    template <class W = Word>
        requires(!std::is_const_v<W>)
    ZGPU_HOST_DEVICE operator BasicResidueView<const W>() const
    {
        return {data, count, primes, prime_stride};
    }
};
using ResidueView = BasicResidueView<limb_t>;
using ConstResidueView = BasicResidueView<const limb_t>;

}  // namespace zgpu::kernels
