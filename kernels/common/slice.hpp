// Cutting limbs out of each element of a batch, with a shift by a divisor's low zero bits and a
// choice of sign: a step of 2-adic division (div_steps.hpp) and of low products (mul_context).
// Only enqueues work on `stream`; views in device memory, out overlaps no input, and every limb
// of out up to its stride is written.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// out[i] = floor(|in[i]| / 2^s) mod B^out.stride (B = 2^64), with s = 64 first_limb, plus the
// number of low zero bits of twos_of[i] (of twos_of[0] if broadcast) when twos_of has elements.
// The result is nonnegative unless keep_sign: then it has the sign of in[i], times that of
// sign_of[i] (sign_of[0] if broadcast) when sign_of has elements. twos_of's elements are nonzero.
struct SliceArgs {
    ConstBatchView in;
    std::uint32_t first_limb = 0;
    ConstBatchView twos_of{};
    bool keep_sign = false;
    ConstBatchView sign_of{};
    bool broadcast = false;
    BatchView out;
};
void slice(const SliceArgs& args, cudaStream_t stream);

}  // namespace zgpu::kernels
