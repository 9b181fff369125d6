// The classical product kernel (mul_classical.cu); kernels::mul (mul.hpp) chooses it by size.
#pragma once

#include "kernels/mul/mul.hpp"

namespace zgpu::kernels {

// kernels::mul's contract, for a.stride and b.stride at most kMulClassicalMaxLimbs.
void mul_classical(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::kernels
