// What a rank takes: its share of a prime set, and of its machine's GPUs; and how the shares
// follow the ranks' measured times. Pure functions, tested without MPI.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
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

// Rank `rank`'s primes where rank r takes weights[r] / (their sum) of the k, rounded down at
// each boundary: consecutive, disjoint, covering all; equal weights give prime_share's. Weights
// at least 1, their sum below 2^63.
inline std::span<const limb_t> weighted_share(std::span<const limb_t> primes, std::span<const std::uint64_t> weights, int rank)
{
    using Wide = unsigned __int128;
    const std::uint64_t total = std::accumulate(weights.begin(), weights.end(), std::uint64_t(0));
    const std::uint64_t before = std::accumulate(weights.begin(), weights.begin() + rank, std::uint64_t(0));
    const auto boundary = [&](std::uint64_t w) { return std::size_t(Wide(primes.size()) * w / total); };
    const std::size_t first = boundary(before), last = boundary(before + weights[std::size_t(rank)]);
    return primes.subspan(first, last - first);
}

// The largest weight rebalanced() gives.
inline constexpr std::uint64_t kFullWeight = std::uint64_t(1) << 30;

// Times within this fraction of their mean leave the weights as they are: the shares, and the
// prime sets and tables kept for them, stay from call to call where the ranks are even.
inline constexpr double kEvenTimes = 0.05;

// The next call's weights from this call's and each rank's seconds for its share: a rank's weight
// times the mean seconds over its own, so that ranks that finished early take more and the
// ranks' times even out (a fixed cost a call pulls the shares back together, where weighting by
// primes a second would push them apart); the factor kept within [1/2, 2] against one call's
// noise. Ranks without primes (0 seconds) keep their weight, and all keep theirs where every
// time is within kEvenTimes of the mean. Scaled so that the largest is kFullWeight, each at
// least 1.
inline std::vector<std::uint64_t> rebalanced(std::span<const std::uint64_t> weights, std::span<const double> seconds)
{
    double sum = 0;
    std::size_t timed = 0;
    for (const double s : seconds)
        if (s > 0) sum += s, ++timed;
    const double mean = timed ? sum / double(timed) : 0;
    if (std::all_of(seconds.begin(), seconds.end(), [&](double s) { return s == 0 || std::abs(s - mean) <= kEvenTimes * mean; }))
        return {weights.begin(), weights.end()};
    std::vector<double> next(weights.size());
    for (std::size_t r = 0; r < weights.size(); ++r)
        next[r] = double(weights[r]) * (seconds[r] > 0 ? std::clamp(mean / seconds[r], 0.5, 2.0) : 1.0);
    const double largest = *std::max_element(next.begin(), next.end());
    std::vector<std::uint64_t> scaled(weights.size());
    for (std::size_t r = 0; r < weights.size(); ++r)
        scaled[r] = std::max<std::uint64_t>(1, std::uint64_t(next[r] / largest * double(kFullWeight)));
    return scaled;
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
