// Products on the GPU with everything the kernels need: the algorithm, the NTT's tables and a
// workspace that fits the free device memory. Only built with the GPU backend.
#pragma once

#include "kernels/mul/mul_context.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// The context of products on `runtime` (kernels/mul/mul_context.hpp): the algorithm asked for,
// the NTT's tables and the runtime's workspace, which orders work on it only if every product
// uses one stream. Products run with it while the caller holds a Lease.
// ZGPU_MUL_ALGORITHM=classical|tensor|ntt|auto (default auto) forces an algorithm where it
// applies, to compare them; other values are rejected.
kernels::MulContext mul_context(Runtime& runtime);

// Enqueues kernels::mul (kernels/mul/mul.hpp) on `stream` with mul_context(runtime); the caller
// holds a Lease.
void mul(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream);

}  // namespace zgpu::gpu
