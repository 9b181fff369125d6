// The elementwise steps of 2-adic exact division on the GPU; the products between them are
// kernels::mul's. divexact_newton.cu puts them together (the method and its cost are there).
// Every launcher only enqueues work on `stream`; views are in device memory, strides are size
// classes, outputs overlap no input, and every limb of an output up to its stride is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/common/slice.hpp"
#include "kernels/div/division_summary.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// Summarizes the divisors b and the quotients a / b (b[0] for all when b has one element) into
// *summary (device memory).
void summarize_division(ConstBatchView a, ConstBatchView b, DivisionSummary* summary, cudaStream_t stream);

// x[i] = odd[i]^-1 mod B^x.stride for odd odd[i], x.stride <= kInverseStartMaxLimbs: one
// thread an element, x.stride^2 / 2 limb products, where Newton steps would take a few launches
// for each doubling.
inline constexpr std::uint32_t kInverseStartMaxLimbs = 16;
void inverse_start(ConstBatchView odd, BatchView x, cudaStream_t stream);

// One Newton step of the 2-adic inverse, its last part: with x[i] the inverse mod B^p
// (p = x.stride) and w[i] = x[i] h[i] where b x = 1 + B^p h, out[i] = x[i] - B^p w[i] mod B^q,
// the inverse mod B^q (q = out.stride <= 2p).
void newton_lift(ConstBatchView x, ConstBatchView w, BatchView out, cudaStream_t stream);

// Lowers *first (device memory) to the first i < x.count where x[i] != y[i].
void first_difference(ConstBatchView x, ConstBatchView y, unsigned long long* first, cudaStream_t stream);

}  // namespace zgpu::kernels
