// The one-thread product kernel (mul_thread.cu); mul_classical chooses it by size.
#pragma once

#include "kernels/mul/mul.hpp"

namespace zgpu::kernels {

// Largest operand stride of the one-thread kernel, and largest result stride (results wait in
// shared memory).
inline constexpr std::uint32_t kMulThreadMaxLimbs = 16, kMulThreadMaxResultLimbs = 2 * kMulThreadMaxLimbs;

// kernels::mul's contract, for a.stride and b.stride at most kMulThreadMaxLimbs and r.stride at
// most kMulThreadMaxResultLimbs.
void mul_thread(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::kernels
