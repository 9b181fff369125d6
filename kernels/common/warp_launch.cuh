// Launch shapes of the elementwise kernels that take one warp (or one thread) an element in
// blocks of kWarpsPerBlock warps: the division steps and the slice.
#pragma once

#include <cstddef>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::kernels {

inline constexpr int kWarpsPerBlock = 8;

// The element of the calling warp.
__device__ inline std::size_t warp_element() { return std::size_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32; }

// Blocks for one warp an element, and for one thread an element.
inline unsigned warp_blocks(std::size_t elements)
{
    const std::size_t blocks = (elements + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > 0x7fffffffu) throw Error("elementwise step: " + std::to_string(elements) + " elements exceed one launch");
    return unsigned(blocks);
}
inline unsigned thread_blocks(std::size_t elements) { return warp_blocks((elements + 31) / 32); }

}  // namespace zgpu::kernels
