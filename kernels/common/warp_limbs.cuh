// Small helpers of the division kernels, which give each element one warp or one thread:
// sizes as limb counts, shifted limbs, and scans of an element's limbs by ballot.
#pragma once

#include <cstdint>

#include "kernels/common/thread_group.cuh"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

__device__ inline std::uint32_t magnitude(std::int32_t size) { return size < 0 ? std::uint32_t(-size) : std::uint32_t(size); }

__device__ inline int warp_lane() { return threadIdx.x % 32; }

// Limb l of floor(x / 2^(64 z + bits)) for the n-limb magnitude x, bits < 64.
__device__ inline limb_t shifted_limb(const limb_t* x, std::uint32_t n, std::uint32_t z, int bits, std::uint32_t l)
{
    const std::uint64_t from = std::uint64_t(z) + l;
    const limb_t low = from < n ? x[from] : 0, high = from + 1 < n ? x[from + 1] : 0;
    return bits ? low >> bits | high << (64 - bits) : low;
}

// The index of the lowest nonzero limb among x[0..n), or n; the same in every lane.
__device__ inline std::uint32_t lowest_nonzero(const limb_t* x, std::uint32_t n)
{
    for (std::uint32_t base = 0; base < n; base += 32) {
        const std::uint32_t k = base + warp_lane();
        if (const unsigned found = __ballot_sync(kFullWarp, k < n && x[k] != 0)) return base + __ffs(found) - 1;
    }
    return n;
}

// The largest of the lanes' values: an element's size from each lane's one-past-highest
// nonzero limb.
__device__ inline std::uint32_t warp_max(std::uint32_t value)
{
    for (int offset = 16; offset > 0; offset /= 2) value = ::max(value, __shfl_xor_sync(kFullWarp, value, offset));
    return value;
}

// The element of a batch that a group of T lanes divides, in a kernel of `per_block` groups a
// block, and its divisor's index (0 if broadcast). Groups past the batch's end are inactive:
// they still take part in the warp's collectives, with divisor 0, and write nothing.
struct GroupElement {
    std::size_t index, divisor;
    bool active;
};

template <int T>
__device__ GroupElement group_element(int per_block, std::size_t count, bool broadcast)
{
    const std::size_t i = std::size_t(blockIdx.x) * per_block + threadIdx.x / T;
    const bool active = i < count;
    return {i, broadcast || !active ? 0 : i, active};
}

}  // namespace zgpu::kernels
