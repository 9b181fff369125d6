// Launcher of division with remainder: schoolbook (Knuth's algorithm D), one warp an element
// (divrem_warp.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The longest divisor stride the one-warp kernel takes: 16 limbs a lane.
inline constexpr std::uint32_t kDivremWarpMaxDivisorLimbs = 512;

// q[i] and r[i] from a[i] and b[i] (b[0] if broadcast), quotient rounded toward -infinity
// (floor) or zero, as fmpz_fdiv_qr and fmpz_tdiv_qr. With q.limbs null only r is written.
// Contract: device memory; nonzero divisors; b.stride <= kDivremWarpMaxDivisorLimbs;
// r.stride >= b.stride; q.stride holds every quotient and is at least |a[i]| - |b[i]| + 1;
// outputs overlap no input. Only enqueues work on `stream`.
void divrem_warp(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r,
                 cudaStream_t stream);

}  // namespace zgpu::kernels
