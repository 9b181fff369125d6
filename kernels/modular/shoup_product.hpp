// Products by a fixed factor w modulo p < 2^62 by Shoup's companion floor(w B / p): three
// 64-bit multiplications and no division, where Modulus::mul divides a two-word product. For
// loops that multiply many words by the same w (a remainder sequence's step, an elimination's
// pivot row, an NTT's twiddles), and the corrections of their lazy results.
#pragma once

#include <cstdint>

#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// Primes below this take Shoup's products: two of them, each below 2p, sum below 2^64.
constexpr limb_t kShoupPrimeBound = limb_t(1) << 62;

// floor(w B / p) for w < p.
ZGPU_HOST_DEVICE inline limb_t shoup_companion(const Modulus& p, limb_t w) { return p.divide(w, 0).quotient; }

// x w mod p up to one p (in [0, 2p)) for any word x and w < p < 2^63.
ZGPU_HOST_DEVICE inline limb_t mul_shoup_lazy(limb_t x, limb_t w, limb_t w_shoup, limb_t p)
{
    return x * w - mul_high(x, w_shoup) * p;
}

// x - m where x >= m, else x, for x < 2m and m < 2^63: x - m wraps to 2^63 or more exactly
// where x is below m, so the sign bit of one subtraction is the comparison.
ZGPU_HOST_DEVICE inline limb_t subtract_if_above(limb_t x, limb_t m)
{
    const limb_t y = x - m;
    return std::int64_t(y) < 0 ? x : y;
}

// A sum below 4p into [0, p).
ZGPU_HOST_DEVICE inline limb_t reduce_below_4p(limb_t t, limb_t p) { return subtract_if_above(subtract_if_above(t, 2 * p), p); }

// The step of an elimination without division, x <- d x - m u mod p, for a pivot d and an entry
// u of its row, fixed while x and m (x's row's entry in the pivot's column) run down the rows:
// Shoup's products where p < 2^62, else two divisions. x, m, d, u < p.
class EliminationStep {
public:
    ZGPU_HOST_DEVICE EliminationStep(const Modulus& p, limb_t d, limb_t u)
        : p_(p), d_(d), minus_u_(p.neg(u)), shoup_(p.n < kShoupPrimeBound), d_shoup_(shoup_ ? shoup_companion(p, d) : 0),
          minus_u_shoup_(shoup_ ? shoup_companion(p, minus_u_) : 0)
    {
    }
    ZGPU_HOST_DEVICE limb_t operator()(limb_t x, limb_t m) const
    {
        return shoup_ ? reduce_below_4p(mul_shoup_lazy(x, d_, d_shoup_, p_.n) + mul_shoup_lazy(m, minus_u_, minus_u_shoup_, p_.n), p_.n)
                      : p_.add(p_.mul(d_, x), p_.mul(m, minus_u_));
    }

private:
    Modulus p_;
    limb_t d_, minus_u_;
    bool shoup_;
    limb_t d_shoup_, minus_u_shoup_;
};

}  // namespace zgpu::kernels
