// Products and powers modulo a word on the host, by a 128-bit division: for tables built once
// (prime tests, CRT constants), not for the kernels, which use Modulus (modulus.hpp).
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// a b mod n, for n >= 1.
inline limb_t mul_mod(limb_t a, limb_t b, limb_t n) { return limb_t((unsigned __int128)a * b % n); }

// a^e mod n, for n >= 1 (1 mod n for e = 0).
inline limb_t pow_mod(limb_t a, limb_t e, limb_t n)
{
    limb_t result = 1 % n;
    for (a %= n; e; e >>= 1, a = mul_mod(a, a, n))
        if (e & 1) result = mul_mod(result, a, n);
    return result;
}

}  // namespace zgpu::kernels
