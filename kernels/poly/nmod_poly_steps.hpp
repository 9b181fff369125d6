// The elementwise steps of a remainder by a precomputed inverse (Newton division) on word
// polynomials mod n, for a batch of polynomials laid out at fixed strides: the reversals it reads
// its operands through, the last subtraction, and the sums of groups of products that a
// composition mod f reduces once.
// Contract: device memory, the output overlapping no input; only enqueue work on `stream`;
// launch errors are thrown as zgpu::Error.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// A batch of polynomials: polynomial j starts at words + j stride.
struct WordsBatch {
    limb_t* words;
    std::size_t stride;
};
struct ConstWordsBatch {
    const limb_t* words;
    std::size_t stride;
};

// out_j[i] = in_j[count - 1 - i] for i < count and j < batch.
void reverse_words(ConstWordsBatch in, std::size_t count, std::size_t batch, WordsBatch out, cudaStream_t stream);

// out_j[i] = a_j[i] - b_j[i] mod n for i < count and j < batch; every a_j[i], b_j[i] below n.
void sub_mod_words(ConstWordsBatch a, ConstWordsBatch b, std::size_t count, std::size_t batch, limb_t n, WordsBatch out,
                   cudaStream_t stream);

// out_g[i] = in_(g group)[i] + ... + in_(g group + group - 1)[i] mod n for i < count and
// g < groups; every in_j[i] below n.
void sum_groups_mod(ConstWordsBatch in, std::size_t count, std::size_t group, std::size_t groups, limb_t n, WordsBatch out,
                    cudaStream_t stream);

}  // namespace zgpu::kernels
