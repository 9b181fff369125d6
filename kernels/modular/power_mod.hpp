// Powers and inverses modulo one word-size modulus (Modulus), host and device, for the kernels
// that run one modulus a thread group: the remainder sequences' powers, the pivots' inverses.
#pragma once

#include <cstdint>

#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// x^e mod p (1 mod p for e = 0), for x < p.
ZGPU_HOST_DEVICE inline limb_t pow_mod(const Modulus& p, limb_t x, std::uint64_t e)
{
    limb_t r = 1 % p.n;
    for (; e; e >>= 1) {
        if (e & 1) r = p.mul(r, x);
        x = p.mul(x, x);
    }
    return r;
}

// x^-1 mod p for 0 < x < p coprime to p, p odd or p = 2, by the binary extended Euclidean
// algorithm: about 2 log2 p steps of shifts and subtractions, where Fermat's power takes about
// 1.5 log2 p products mod p in a row, each several times as long.
ZGPU_HOST_DEVICE inline limb_t inverse_mod(const Modulus& p, limb_t x)
{
    const limb_t n = p.n;
    // Invariants: s x = u and t x = v (mod n), gcd(u, v) = 1.
    limb_t u = x, v = n, s = 1, t = 0;
    // y / 2 mod n for odd n, without overflow where n >= 2^63.
    const auto half = [n](limb_t y) { return (y & 1) ? (y >> 1) + (n >> 1) + 1 : y >> 1; };
    while (u != 1 && v != 1) {
        if (u == 0 || v == 0) return 0;  // gcd(x, n) > 1, against the contract: no endless loop
        while (!(u & 1)) u >>= 1, s = half(s);
        while (!(v & 1)) v >>= 1, t = half(t);
        if (u >= v) {
            u -= v;
            s = p.sub(s, t);
        } else {
            v -= u;
            t = p.sub(t, s);
        }
    }
    return u == 1 ? s : t;
}

}  // namespace zgpu::kernels
