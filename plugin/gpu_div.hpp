// Division on the GPU: 2-adic exact division built from kernels::mul and the elementwise steps
// of kernels/div_steps.hpp. Only built with the GPU backend; the caller holds a Lease.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu_runtime.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

struct DivisorSummary {
    std::size_t first_zero;            // the first zero divisor's index, or b.count if none
    std::uint32_t min_size, max_size;  // of |b[i]|, in limbs
};

// Reads what a division needs of its divisors (waits for the GPU).
DivisorSummary summarize_divisors(Runtime& runtime, ConstBatchView b, cudaStream_t stream);

// q[i] = a[i] / b[i] (b[0] if broadcast) for nonzero divisors that divide exactly, as
// fmpz_divexact; for a pair that does not, q[i] is some element within the stride. Every
// quotient must fit q.stride limbs, and 2 q.stride <= kMaxLimbs. Enqueues on `stream`.
void divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, cudaStream_t stream);

// The first i with q[i] b[i] != a[i] (b[0] if broadcast), or a.count (waits for the GPU).
std::size_t first_inexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, ConstBatchView q, bool broadcast,
                          cudaStream_t stream);

}  // namespace zgpu::gpu
