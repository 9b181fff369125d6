// Arithmetic modulo one word-size NTT prime p < 2^62 (such as kernels/modular/ntt_primes.hpp's),
// host and device: what the polynomial products' transforms (kernels/poly/) compute in.
//
// Residues inside the transforms are lazy (Harvey): any value in [0, 2p) stands for its class;
// as 4p < 2^64 a butterfly needs no carries and one correction an output (lazy_butterflies.hpp).
// A twiddle factor w comes with Shoup's companion floor(w B / p) (B = 2^64), so that a product by
// it is three 64-bit multiplications and a subtraction: x w - floor(x w_shoup / B) p, in [0, 2p)
// for any word x.
// Products of two variables (the pointwise step) are Montgomery's, R = 2^64:
//   mul(x, y) = x y / R mod p in [0, 2p) for x < 4p and y < p, or both below 2p: the
//   Montgomery quotient (x y + m p) / R < 4p^2 / R + p < 2p as 4p < R.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/common/word_division.hpp"
#include "kernels/modular/shoup_product.hpp"
#include "zgpu/error.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// A twiddle factor w in [0, p) and its companion floor(w B / p), loaded together.
struct alignas(16) Twiddle64 {
    limb_t w, w_shoup;
};

struct Field64 {
    using Word = limb_t;
    using Twiddle = Twiddle64;
    // Words hold lazy residues up to 4p (butterfly_bounds.hpp): p < 2^62.
    static constexpr int kHeadroom = 4;

    limb_t p;
    limb_t montgomery;  // -p^-1 mod R
    limb_t one_shoup;   // floor(R / p): reduces any word into [0, 2p)
    limb_t r2;          // R^2 mod p: converts into Montgomery form
    // 2p, loaded rather than computed: the corrections then add a register (ALU instructions)
    // where they multiplied p by 2 (IMADs, on the pipe that the products need).
    limb_t two_p;

    // x < 2p to [0, p), and x < 4p to [0, 2p) (2p < 2^63); `exact` x < 4p to [0, p).
    ZGPU_HOST_DEVICE limb_t normal(limb_t x) const { return subtract_if_above(x, p); }
    ZGPU_HOST_DEVICE limb_t lazy(limb_t x) const { return below(x, 2); }
    ZGPU_HOST_DEVICE limb_t exact(limb_t x) const { return normal(lazy(x)); }
    // 2p, the constant of the butterflies' differences and corrections (c = 2: the headroom
    // allows no other); and x < 2c p to [0, c p).
    ZGPU_HOST_DEVICE limb_t multiple(int) const { return two_p; }
    ZGPU_HOST_DEVICE limb_t below(limb_t x, int c) const { return subtract_if_above(x, multiple(c)); }
    // Any word into [0, 2p): the quotient estimate mul_high(x, floor(R / p)) is low by at most one.
    ZGPU_HOST_DEVICE limb_t reduce_word(limb_t x) const { return x - mul_high(x, one_shoup) * p; }

    // x y / R mod p in [0, 2p) (bounds above). The low words of x y and m p cancel, carrying
    // one exactly when x y's low word is not zero.
    ZGPU_HOST_DEVICE limb_t mul(limb_t x, limb_t y) const
    {
        const limb_t low = x * y, m = low * montgomery;
        return mul_high(x, y) + mul_high(m, p) + (low != 0);
    }
    // Into and out of Montgomery form, in [0, p).
    ZGPU_HOST_DEVICE limb_t to_montgomery(limb_t x) const { return normal(mul(normal(reduce_word(x)), r2)); }
    ZGPU_HOST_DEVICE limb_t from_montgomery(limb_t x) const { return normal(mul(x, 1)); }

    // x w mod p in [0, 2p) for any word x, by the twiddle's companion.
    ZGPU_HOST_DEVICE limb_t mul_twiddle(limb_t x, const Twiddle64& t) const { return mul_shoup_lazy(x, t.w, t.w_shoup, p); }

    // The twiddle of w R mod p (Montgomery form, as pow and root_of_unity64 give it).
    ZGPU_HOST_DEVICE Twiddle64 twiddle(limb_t w_montgomery) const
    {
        const limb_t w = from_montgomery(w_montgomery);
        return {w, limb_t(((unsigned __int128)w << 64) / p)};
    }

    // x^e for x in Montgomery form, in Montgomery form, in [0, p).
    ZGPU_HOST_DEVICE limb_t pow(limb_t x, std::uint64_t e) const
    {
        limb_t result = to_montgomery(1), base = x;
        for (; e; e >>= 1, base = normal(mul(base, base)))
            if (e & 1) result = normal(mul(result, base));
        return result;
    }
};

// -p^-1 mod 2^64 for odd p: Newton's iteration doubles the correct bits a step, from 1 of them.
ZGPU_HOST_DEVICE constexpr limb_t negated_inverse(limb_t p)
{
    limb_t inverse = 1;
    for (int i = 0; i < 6; ++i) inverse *= 2 - p * inverse;
    return -inverse;
}

// The field of an odd p < 2^62 (host: R^2 mod p by one 128-bit division).
inline Field64 make_field64(limb_t p)
{
    const unsigned __int128 r_mod_p = ((unsigned __int128)1 << 64) % p;
    return {p, negated_inverse(p), limb_t(((unsigned __int128)1 << 64) / p), limb_t(r_mod_p * r_mod_p % p), 2 * p};
}

// A primitive root of unity of order `length` (a power of two) modulo the prime f.p, in
// Montgomery form; zgpu::Error unless `length` divides p - 1. Host code.
inline limb_t root_of_unity64(const Field64& f, std::uint64_t length)
{
    if ((f.p - 1) % length != 0)
        throw Error("NTT: the transform length " + std::to_string(length) + " does not divide p - 1 for p = " + std::to_string(f.p));
    const limb_t one = f.to_montgomery(1);
    limb_t g = 2;
    while (f.pow(f.to_montgomery(g), (f.p - 1) / 2) == one) ++g;  // a non-residue generates the 2-part
    return f.pow(f.to_montgomery(g), (f.p - 1) / length);
}

}  // namespace zgpu::kernels
