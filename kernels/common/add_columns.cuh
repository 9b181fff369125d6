// v += shifted across a thread group, each thread holding L consecutive limbs of both: the
// carries between threads come from one lookahead of the group (thread_group.cuh).
#pragma once

#include "kernels/common/thread_group.cuh"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// Adds `shifted` into `v` limb by limb with carries across the group, plus the group's
// carry-in; returns the group's carry-out (the same in every thread).
template <int L, class Group>
__device__ bool add_columns(const Group& group, limb_t (&v)[L], const limb_t (&shifted)[L], bool carry_in = false)
{
    bool generate = false, propagate = true;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const limb_t s = v[j] + shifted[j];
        const bool p = s == ~limb_t(0);
        generate = (s < v[j]) || (p && generate);
        propagate = propagate && p;
    }
    const Carries carries = group.carries(generate, propagate);
    bool carry = carries.into[carry_in];
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const limb_t s = v[j] + shifted[j];
        const limb_t sum = s + carry;
        carry = (s < v[j]) || (carry && s == ~limb_t(0));
        v[j] = sum;
    }
    return carries.carry_out(carry_in);
}

}  // namespace zgpu::kernels
