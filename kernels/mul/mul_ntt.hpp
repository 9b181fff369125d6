// Products by the number-theoretic transform (mul_ntt.cu); kernels::mul chooses it by size.
#pragma once

#include "kernels/mul/mul.hpp"

namespace zgpu::kernels {

// Workspace words of mul_ntt for these operands (see MulWorkspace in mul.hpp).
MulWorkspace mul_ntt_workspace(ConstBatchView a, ConstBatchView b, bool broadcast_b);

// kernels::mul's contract, any strides with a.stride + b.stride <= kMaxLimbs.
void mul_ntt(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const NttTables& tables,
             std::span<std::uint32_t> workspace, cudaStream_t stream);

}  // namespace zgpu::kernels
