// Division on the GPU with the runtime: the exact division of kernels/div/divexact.hpp with the
// method asked for and the runtime's products, and what reads a result back to the host;
// division with remainder is kernels/div/divrem.hpp's. Only built with the GPU backend; the
// caller holds a Lease.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/div/division_summary.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Reads what a division needs of its operands (waits for the GPU).
kernels::DivisionSummary summarize_division(Runtime& runtime, ConstBatchView a, ConstBatchView b, cudaStream_t stream);

// kernels::divexact (its contract) on `stream`. Checked, returns the first i whose division is
// not exact (waiting for the GPU); otherwise, and when all are exact, a.count.
// ZGPU_DIV_ALGORITHM=hensel|block|newton|auto (default auto) forces an exact division method
// where it applies, to compare them; other values are rejected.
std::size_t divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked,
                     cudaStream_t stream);

}  // namespace zgpu::gpu
