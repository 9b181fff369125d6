// The resultant of two polynomials modulo one prime by their remainder sequence, host and
// device: the GPU runs it a thread a prime (resultant_mod.hpp), the host's tests run it as is.
#pragma once

#include <cstddef>

#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// Words of one polynomial, coefficient i at data[i * stride] (stride: the primes of an
// interleaved batch, so that a warp's threads read neighbouring words).
struct StridedWords {
    limb_t* data;
    std::size_t stride;
    ZGPU_HOST_DEVICE limb_t& operator[](std::size_t i) const { return data[i * stride]; }
};

namespace detail {

ZGPU_HOST_DEVICE inline limb_t pow_mod(const Modulus& p, limb_t x, std::size_t e)
{
    limb_t r = 1 % p.n;
    for (; e; e >>= 1) {
        if (e & 1) r = p.mul(r, x);
        x = p.mul(x, x);
    }
    return r;
}

// The actual degree of the first d + 1 coefficients: the highest nonzero one (-1 for none).
ZGPU_HOST_DEVICE inline long actual_degree(const StridedWords& x, std::size_t d)
{
    long k = long(d);
    while (k >= 0 && x[std::size_t(k)] == 0) --k;
    return k;
}

}  // namespace detail

// Res_{da,db}(a, b) mod p: the Sylvester determinant of a and b taken with the formal degrees
// da and db (leading coefficients that vanish mod p included), for entries in [0, p), p prime.
// a and b are overwritten. With the formal degrees of the polynomials over Z, this is the
// resultant over Z reduced mod p for every prime: none is unlucky.
//
// The rules, each a property of the Sylvester determinant:
//   Res_{0,m}(a, b) = a_0^m and Res_{n,0}(a, b) = b_0^n;
//   a_n = 0 (a of actual degree k < n): Res_{n,m} = (-1)^(m (n - k)) b_m^(n - k) Res_{k,m}, and 0
//   where b_m = 0 too (the first column is zero);
//   b_m = 0 (b of actual degree k < m): Res_{n,m} = a_n^(m - k) Res_{n,k};
//   Res_{n,m}(a, b) = (-1)^(n m) Res_{m,n}(b, a);
//   n >= m, r = a mod b: Res_{n,m}(a, b) = (-1)^(n m) b_m^(n - m + 1) Res_{m,m-1}(b, r).
ZGPU_HOST_DEVICE inline limb_t resultant_mod(StridedWords a, std::size_t da, StridedWords b, std::size_t db, const Modulus& p)
{
    using detail::actual_degree;
    using detail::pow_mod;
    limb_t acc = 1 % p.n;
    bool negative = false;
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
            const long k = actual_degree(a, da);
            if (k < 0 || b[db] == 0) return 0;
            negative ^= (db * (da - std::size_t(k))) & 1;
            acc = p.mul(acc, pow_mod(p, b[db], da - std::size_t(k)));
            da = std::size_t(k);
            continue;
        }
        if (b[db] == 0) {
            const long k = actual_degree(b, db);
            if (k < 0) return 0;
            acc = p.mul(acc, pow_mod(p, a[da], db - std::size_t(k)));
            db = std::size_t(k);
            continue;
        }
        if (da < db) {
            const StridedWords t = a;
            a = b, b = t;
            const std::size_t d = da;
            da = db, db = d;
            negative ^= (da * db) & 1;
            continue;
        }
        // a = q b + r, r in a's first db words; then (b, r) with formal degrees (db, db - 1).
        negative ^= (da * db) & 1;
        const limb_t lead = b[db];
        acc = p.mul(acc, pow_mod(p, lead, da - db + 1));
        const limb_t inverse = pow_mod(p, lead, p.n - 2);
        for (std::size_t i = da + 1; i-- > db;) {
            const limb_t q = p.mul(a[i], inverse);
            if (q == 0) continue;
            for (std::size_t j = 0; j <= db; ++j) a[i - db + j] = p.sub(a[i - db + j], p.mul(q, b[j]));
        }
        const StridedWords r = a;
        a = b, da = db;
        b = r, db = db - 1;
    }
    return negative ? p.neg(acc) : acc;
}

}  // namespace zgpu::kernels
