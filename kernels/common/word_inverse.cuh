// The inverse of an odd limb modulo 2^64, the seed of every 2-adic division, and the step of
// Hensel's schoolbook division built on it.
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// x = b is right to 3 bits (b b = 1 mod 8); each Newton step x *= 2 - b x doubles that, so
// five give 96 >= 64.
__device__ inline limb_t inverse_mod_word(limb_t odd)
{
    limb_t x = odd;
    for (int step = 0; step < 5; ++step) x *= 2 - odd * x;
    return x;
}

// One step of Hensel's division of r (N limbs in registers) by an odd divisor, at limb j:
// q_j = r_j divisor^-1 mod B, then r -= q_j divisor B^j over the positions below `kept` (those
// still needed), and r_j = q_j (r_j itself became 0). divisor_limb(l) gives the divisor's limb
// l. Returns the borrow out of position kept - 1: nonzero when q_j divisor B^j exceeds r there.
template <int N, class DivisorLimb>
__device__ __forceinline__ limb_t hensel_step(limb_t (&r)[N], int j, std::uint32_t kept, limb_t inverse, DivisorLimb divisor_limb)
{
    const limb_t qj = r[j] * inverse;
    limb_t carry = 0;
#pragma unroll
    for (int l = 0; j + l < N; ++l) {
        if (j + l >= kept) break;
        const limb_t dl = divisor_limb(l), low = qj * dl, t = low + carry;
        const limb_t high = __umul64hi(qj, dl) + (t < low);
        const limb_t x = r[j + l];
        r[j + l] = x - t;
        carry = high + (x < t);
    }
    r[j] = qj;
    return carry;
}

}  // namespace zgpu::kernels
