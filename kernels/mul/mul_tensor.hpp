// The tensor-core product kernel (mul_tensor.cu); kernels::mul (mul.hpp) chooses it by size.
#pragma once

#include "kernels/mul/mul.hpp"

namespace zgpu::kernels {

// Operand strides it takes: both at least kMulTensorMinLimbs (shorter ones waste most of each
// tile) and at most kMulTensorMaxLimbs (a product's tiles fill one block of at most 16 warps).
inline constexpr std::uint32_t kMulTensorMinLimbs = 8, kMulTensorMaxLimbs = 512;

bool mul_tensor_applies(ConstBatchView a, ConstBatchView b);

// kernels::mul's contract, where mul_tensor_applies(a, b).
void mul_tensor(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::kernels
