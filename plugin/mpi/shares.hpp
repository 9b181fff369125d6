// What a rank takes: its share of a prime set, and of its machine's GPUs. Pure functions, tested
// without MPI.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

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

// The GPUs (indices into a machine's `devices`) that local rank `local_rank` of `local_ranks`
// on it takes: local_rank, local_rank + local_ranks, ... where there are at least as many GPUs as
// ranks, else GPU local_rank mod devices (devices >= 1).
inline std::vector<int> device_share(int local_rank, int local_ranks, int devices)
{
    if (devices < local_ranks) return {local_rank % devices};
    std::vector<int> mine;
    for (int d = local_rank; d < devices; d += local_ranks) mine.push_back(d);
    return mine;
}

}  // namespace zgpu::mpi
