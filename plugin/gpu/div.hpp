// Division on the GPU: 2-adic exact division built from kernels::mul and the elementwise steps
// of kernels/div_steps.hpp; division with remainder is kernels/divrem.hpp's. Only built with
// the GPU backend; the caller holds a Lease.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/div/div_steps.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Reads what a division needs of its operands (waits for the GPU).
kernels::DivisionSummary summarize_division(Runtime& runtime, ConstBatchView a, ConstBatchView b, cudaStream_t stream);

// q[i] = a[i] / b[i] (b[0] if broadcast) for nonzero divisors that divide exactly, as
// fmpz_divexact; for a pair that does not, q[i] is some element within the stride. Every
// quotient must fit q.stride limbs, and q.stride + max(q.stride, b.stride) <= kMaxLimbs.
// Checked, returns the first i whose division is not exact (waiting for the GPU); otherwise,
// and when all are exact, a.count.
std::size_t divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked,
                     cudaStream_t stream);

}  // namespace zgpu::gpu
