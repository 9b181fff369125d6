// The elementwise steps of a remainder by a precomputed inverse (Newton division) on word
// polynomials mod n: the reversals it reads its operands through and the last subtraction.
// Contract: device memory, the output overlapping no input; only enqueue work on `stream`;
// launch errors are thrown as zgpu::Error.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// out[i] = in[count - 1 - i] for i < count.
void reverse_words(const limb_t* in, std::size_t count, limb_t* out, cudaStream_t stream);

// out[i] = a[i] - b[i] mod n for i < count; every a[i], b[i] below n.
void sub_mod_words(const limb_t* a, const limb_t* b, std::size_t count, limb_t n, limb_t* out, cudaStream_t stream);

}  // namespace zgpu::kernels
