// Which primes of a set a rank takes: equal shares by count, the first ranks one more where the
// count does not divide. A pure function, tested without MPI.
#pragma once

#include <cstddef>
#include <span>

#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// Rank `rank` of `size` takes primes [k rank / size, k (rank + 1) / size) of the k: consecutive,
// disjoint, covering all; empty for some ranks where there are more ranks than primes.
inline std::span<const limb_t> prime_share(std::span<const limb_t> primes, int rank, int size)
{
    const std::size_t k = primes.size(), first = k * std::size_t(rank) / std::size_t(size),
                      last = k * std::size_t(rank + 1) / std::size_t(size);
    return primes.subspan(first, last - first);
}

}  // namespace zgpu::mpi
