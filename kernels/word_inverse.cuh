// The inverse of an odd limb modulo 2^64, the seed of every 2-adic division.
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

}  // namespace zgpu::kernels
