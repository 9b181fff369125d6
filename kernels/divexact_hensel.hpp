// Exact division of short operands, one thread an element (launcher).
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The longest a and b strides the one-thread kernel takes.
inline constexpr std::uint32_t kDivexactHenselMaxLimbs = 32;

// q[i] = a[i] / b[i] (b[0] if broadcast) for nonzero divisors, as fmpz_divexact; a pair that
// does not divide exactly gives some element within q's stride. With first_inexact (device
// memory) given, lowers *first_inexact to the first i whose division is not exact.
// Contract: device memory; a.stride, b.stride <= kDivexactHenselMaxLimbs; q.stride holds every
// exact quotient and is at most a.stride. Only enqueues work on `stream`.
void divexact_hensel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                     cudaStream_t stream);

}  // namespace zgpu::kernels
