// Launcher of the one-warp-an-element exact division (divexact_hensel_warp.cu); called by
// kernels::divexact_hensel, which has the contract.
#pragma once

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The longest divisor stride the one-warp kernel takes: 16 limbs a lane.
inline constexpr std::uint32_t kDivexactWarpMaxDivisorLimbs = 512;

void divexact_hensel_warp(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                          cudaStream_t stream);

}  // namespace zgpu::kernels
