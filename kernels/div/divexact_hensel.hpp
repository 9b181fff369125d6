// Launchers of exact division by Hensel's method: one thread an element for short quotients
// (divexact_hensel.cu) and R quotient limbs a step on T lanes for divisors up to 279 limbs
// (divexact_block.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The longest quotient stride (unchecked) or dividend stride (checked) the one-thread kernel
// takes (64 spill its registers); the divisor may be of any length.
inline constexpr std::uint32_t kDivexactHenselMaxLimbs = 48;

// q[i] = a[i] / b[i] (b[0] if broadcast) for nonzero divisors, as fmpz_divexact; a pair that
// does not divide exactly gives some element within q's stride. With first_inexact (device
// memory) given, lowers *first_inexact to the first i whose division is not exact.
// Contract: device memory; q.stride (a.stride if checked) <= kDivexactHenselMaxLimbs; q.stride
// holds every exact quotient and is at most a.stride. Only enqueues work on `stream`.
void divexact_hensel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                     cudaStream_t stream);

// The longest divisor stride the block kernel takes: a window of 32 lanes of 9 limbs, less 9.
inline constexpr std::uint32_t kDivexactBlockMaxDivisorLimbs = 279;

// The same contract as divexact_hensel, for b.stride <= kDivexactBlockMaxDivisorLimbs and any
// dividend length.
void divexact_hensel_block(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                           cudaStream_t stream);

}  // namespace zgpu::kernels
