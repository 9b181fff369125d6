// Launcher of the batched signed multiplication kernel (full products).
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// Largest operand stride the GPU multiplies (limbs); larger products are not on the GPU yet.
inline constexpr std::uint32_t kMulMaxOperandLimbs = 256;

// r[i] = a[i] * b[i] for i < a.count, the full signed product; with b.count == 1 and
// broadcast_b, r[i] = a[i] * b[0] (a scalar times a vector).
// Contract: views in device memory; every stride a size class; a.stride and b.stride at most
// kMulMaxOperandLimbs; r.stride >= a.stride + b.stride; r does not overlap a or b. Every limb
// of r up to its stride and every size of r is written. Only enqueues work on `stream`.
void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::kernels
