// The resultant of two polynomials modulo one prime by their remainder sequence, host and
// device, written once for a group of lanes that share the polynomials: the GPU runs it a warp a
// prime (resultant_mod.cu), the host's tests run it with one lane (SingleLane).
//
// A group of lanes provides rank() and size(), sync() (the polynomials' words written before it
// are seen by every lane after it), product(x, p) (the product mod p of every lane's x, on every
// lane) and highest_nonzero(x, d) (the highest i <= d with x[i] != 0, or -1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/modular/power_mod.hpp"
#include "kernels/modular/shoup_product.hpp"

namespace zgpu::kernels {

// The host's group: one lane.
struct SingleLane {
    unsigned rank() const { return 0; }
    unsigned size() const { return 1; }
    void sync() const {}
    limb_t product(limb_t x, const Modulus&) const { return x; }
    long highest_nonzero(const limb_t* x, std::size_t d) const
    {
        long k = long(d);
        while (k >= 0 && x[std::size_t(k)] == 0) --k;
        return k;
    }
};

namespace detail {

// A product of powers b^e mod p, pushed one a step and held a lane a step in turn, so that the
// lanes raise size() of them at once: the group pays one power a size() of steps.
template <class Lanes>
struct DeferredPowers {
    limb_t done = 1, base = 1;
    std::uint64_t exponent = 0;
    unsigned next = 0;

    ZGPU_HOST_DEVICE void push(const Lanes& lanes, const Modulus& p, limb_t b, std::uint64_t e)
    {
        if (lanes.rank() == next) base = b, exponent = e;
        if (++next == lanes.size()) flush(p);
    }
    ZGPU_HOST_DEVICE void flush(const Modulus& p)
    {
        done = p.mul(done, pow_mod(p, base, exponent));
        base = 1, exponent = 0, next = 0;
    }
    // The whole product, on every lane.
    ZGPU_HOST_DEVICE limb_t total(const Lanes& lanes, const Modulus& p)
    {
        flush(p);
        return lanes.product(done, p);
    }
};

// a <- b_m^(n - m + 1) a - q b, the pseudo-remainder of a (formal degree n >= m) by b (formal
// degree m >= 1, b_m != 0), left in a's first m words. Division-free: no inverse a step. Each
// elimination of a_i multiplies a by b_m; a coefficient below i - m, which b does not reach yet,
// takes all the powers it missed at its first touch, so that each elimination costs m products,
// not i.
template <class Lanes>
ZGPU_HOST_DEVICE void pseudo_remainder(const Lanes& lanes, limb_t* a, std::size_t n, const limb_t* b, std::size_t m,
                                       const Modulus& p)
{
    const limb_t beta = b[m];
    const bool lazy = p.n < kShoupPrimeBound;
    const limb_t beta_shoup = lazy ? shoup_companion(p, beta) : 0;
    limb_t missed = 1 % p.n;  // beta^(n - i): the powers a coefficient first touched at step i missed
    for (std::size_t i = n + 1; i-- > m;) {
        const limb_t c = p.neg(a[i]);
        const std::size_t shift = i - m;
        // Coefficient `shift` is touched for the first time (at i = n, first = beta).
        const limb_t first = p.mul(beta, missed);
        if (lazy) {
            const limb_t c_shoup = shoup_companion(p, c), first_shoup = shoup_companion(p, first);
            for (std::size_t j = shift + lanes.rank(); j < i; j += lanes.size()) {
                const bool at_first = j == shift;
                a[j] = reduce_below_4p(mul_shoup_lazy(a[j], at_first ? first : beta, at_first ? first_shoup : beta_shoup, p.n) +
                                           mul_shoup_lazy(b[j - shift], c, c_shoup, p.n),
                                       p.n);
            }
        } else {
            for (std::size_t j = shift + lanes.rank(); j < i; j += lanes.size())
                a[j] = p.add(p.mul(a[j], j == shift ? first : beta), p.mul(b[j - shift], c));
        }
        missed = p.mul(missed, beta);
        lanes.sync();
    }
}

}  // namespace detail

// Res_{da,db}(a, b) mod p: the Sylvester determinant of a and b taken with the formal degrees
// da and db (leading coefficients that vanish mod p included), for entries in [0, p), p prime.
// a and b (da + 1 and db + 1 words) are overwritten; every lane returns the value. With the
// formal degrees of the polynomials over Z, this is the resultant over Z reduced mod p for every
// prime: none is unlucky.
//
// The rules, each a property of the Sylvester determinant:
//   Res_{0,m}(a, b) = a_0^m and Res_{n,0}(a, b) = b_0^n;
//   a_n = 0 (a of actual degree k < n): Res_{n,m} = (-1)^(m (n - k)) b_m^(n - k) Res_{k,m}, and 0
//   where b_m = 0 too (the first column is zero);
//   b_m = 0 (b of actual degree k < m): Res_{n,m} = a_n^(m - k) Res_{n,k};
//   Res_{n,m}(a, b) = (-1)^(n m) Res_{m,n}(b, a);
//   n >= m, r the pseudo-remainder b_m^e a mod b, e = n - m + 1: as Res_{m,m-1}(b, c r) =
//   c^m Res_{m,m-1}(b, r), Res_{n,m}(a, b) = (-1)^(n m) b_m^(-e (m - 1)) Res_{m,m-1}(b, r).
// The powers of the last rule are gathered apart and inverted once, at the end.
template <class Lanes>
ZGPU_HOST_DEVICE limb_t resultant_mod(const Lanes& lanes, limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                                      const Modulus& p)
{
    limb_t acc = 1 % p.n;
    bool negative = false;
    detail::DeferredPowers<Lanes> denominator;
    for (;;) {
        if (da == 0) {
            acc = p.mul(acc, pow_mod(p, a[0], db));
            break;
        }
        if (db == 0) {
            acc = p.mul(acc, pow_mod(p, b[0], da));
            break;
        }
        if (a[da] == 0) {
            const long k = lanes.highest_nonzero(a, da);
            if (k < 0 || b[db] == 0) return 0;
            negative ^= (db * (da - std::size_t(k))) & 1;
            acc = p.mul(acc, pow_mod(p, b[db], da - std::size_t(k)));
            da = std::size_t(k);
            continue;
        }
        if (b[db] == 0) {
            const long k = lanes.highest_nonzero(b, db);
            if (k < 0) return 0;
            acc = p.mul(acc, pow_mod(p, a[da], db - std::size_t(k)));
            db = std::size_t(k);
            continue;
        }
        if (da < db) {
            limb_t* const t = a;
            a = b, b = t;
            const std::size_t d = da;
            da = db, db = d;
            negative ^= (da * db) & 1;
            continue;
        }
        negative ^= (da * db) & 1;
        denominator.push(lanes, p, b[db], std::uint64_t(da - db + 1) * (db - 1));
        detail::pseudo_remainder(lanes, a, da, b, db, p);
        limb_t* const r = a;
        a = b, da = db;
        b = r, db = db - 1;
    }
    acc = p.mul(acc, inverse_mod(p, denominator.total(lanes, p)));
    return negative ? p.neg(acc) : acc;
}

}  // namespace zgpu::kernels
