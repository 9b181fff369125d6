// The threads that share a loop's iterations and meet at its barrier: the whole block, or a range
// of its warps with a named barrier of its own, so that two ranges can run different work at once.
#pragma once

#include <cstdint>

namespace zgpu::kernels {

// All the block's threads; barrier 0 (__syncthreads).
struct BlockTeam {
    __device__ std::uint32_t rank() const { return threadIdx.x; }
    __device__ std::uint32_t size() const { return blockDim.x; }
    __device__ void sync() const { __syncthreads(); }
};

// Threads first .. first + count - 1 (whole warps), with named barrier `barrier` (1 to 15, one a
// team that runs at the same time as others).
struct WarpTeam {
    std::uint32_t first, count, barrier;

    __device__ std::uint32_t rank() const { return threadIdx.x - first; }
    __device__ std::uint32_t size() const { return count; }
    __device__ bool contains_this_thread() const { return threadIdx.x - first < count; }
    __device__ void sync() const { asm volatile("bar.sync %0, %1;" : : "r"(barrier), "r"(count) : "memory"); }
};

}  // namespace zgpu::kernels
