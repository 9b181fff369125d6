// Products on the GPU with everything the kernels need: the algorithm, the NTT's tables and a
// workspace that fits the free device memory. Only built with the GPU backend.
#pragma once

#include "plugin/gpu/runtime.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Enqueues kernels::mul (kernels/mul.hpp) on `stream`; the caller holds a Lease. The NTT's
// workspace is the runtime's: work on it is ordered only if every product uses one stream.
// ZGPU_MUL_ALGORITHM=classical|tensor|ntt|auto (default auto) forces an algorithm where it
// applies, to compare them; other values are rejected.
void mul(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

// The low product r[i] = sign(a[i] b[i]) (|a[i] b[i]| mod B^r.stride), for r.stride <= a.stride +
// b.stride: computed alone where the kernel can (the tensor-core one), else cut from a full
// product in temporary memory.
void mul_low(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::gpu
