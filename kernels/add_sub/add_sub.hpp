// Launcher of the batched signed addition/subtraction kernel.
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// r[i] = a[i] + b[i] (subtract == false) or a[i] - b[i], for i < a.count, with fmpz semantics.
// Contract: all three views are in device memory and have the same count; every stride is a
// size class; r.stride > max(|a.sizes[i]|, |b.sizes[i]|) for every i (the carry fits); r does
// not overlap a or b. Every limb of r up to its stride and every size of r is written.
// Only enqueues work on `stream`; launch errors are thrown as zgpu::Error.
void add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract, cudaStream_t stream);

}  // namespace zgpu::kernels
