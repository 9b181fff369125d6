// One word-size modulus 2 <= n < 2^64 (any n, not only primes) and its arithmetic on residues
// in [0, n), host and device. Reductions divide by the normalised modulus d = n 2^s (top bit
// set) through its Möller–Granlund reciprocal (kernels/common/word_division.hpp): two-word
// values below n B reduce with two products and at most two corrections. B = 2^64 throughout.
#pragma once

#include <cstdint>

#include "kernels/common/word_division.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// A three-word value (w2 B^2 + w1 B + w0) that sums products of two words exactly: k products
// fit while k < B.
struct ThreeWords {
    limb_t w0 = 0, w1 = 0, w2 = 0;

    // += x y. On the device one multiply-add chain with carries (mad.lo.cc, madc.hi.cc, addc).
    ZGPU_HOST_DEVICE void add_product(limb_t x, limb_t y)
    {
#ifdef __CUDA_ARCH__
        asm("mad.lo.cc.u64 %0, %3, %4, %0;\n\t"
            "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
            "addc.u64 %2, %2, 0;"
            : "+l"(w0), "+l"(w1), "+l"(w2)
            : "l"(x), "l"(y));
#else
        const unsigned __int128 p = (unsigned __int128)x * y;
        const limb_t low = limb_t(p), high = limb_t(p >> 64);
        w0 += low;
        const limb_t carry = w0 < low;
        const limb_t h = high + carry;  // high <= B - 2: no wrap
        w1 += h;
        w2 += w1 < h;
#endif
    }
};

// The quotient and remainder of a word division.
struct QuotientRemainder {
    limb_t quotient, remainder;
};

struct Modulus {
    limb_t n;              // the modulus, >= 2
    limb_t normalised;     // n 2^shift, top bit set
    limb_t reciprocal;     // reciprocal_word(normalised)
    std::uint32_t shift;   // leading zeros of n

    // (high B + low) = q n + r for high < n (so q < B), by algorithm 4 of Möller–Granlund on
    // the value shifted by `shift`, whose high word stays below the normalised modulus.
    ZGPU_HOST_DEVICE QuotientRemainder divide(limb_t high, limb_t low) const
    {
        const limb_t u1 = shift == 0 ? high : (high << shift) | (low >> (64 - shift));
        const limb_t u0 = low << shift;
        TwoWords q = mul_wide(reciprocal, u1) + TwoWords{u1, u0};
        limb_t q1 = q.high + 1;
        limb_t r = u0 - q1 * normalised;
        if (r > q.low) {
            --q1;
            r += normalised;
        }
        if (r >= normalised) {
            ++q1;
            r -= normalised;
        }
        return {q1, r >> shift};
    }
    // (high B + low) mod n for high < n.
    ZGPU_HOST_DEVICE limb_t reduce(limb_t high, limb_t low) const { return divide(high, low).remainder; }
    // Any word mod n.
    ZGPU_HOST_DEVICE limb_t reduce(limb_t x) const { return x < n ? x : divide(0, x).remainder; }
    // Any three-word value mod n: the top word first, then two reductions of two words.
    ZGPU_HOST_DEVICE limb_t reduce(const ThreeWords& x) const { return reduce(reduce(reduce(x.w2), x.w1), x.w0); }

    // Residues in [0, n) to residues in [0, n). a + b may wrap past B when n > B/2: then the
    // true sum exceeds n, and the wrapped difference a + b - n is right.
    ZGPU_HOST_DEVICE limb_t add(limb_t a, limb_t b) const
    {
        const limb_t s = a + b;
        return s < a || s >= n ? s - n : s;
    }
    ZGPU_HOST_DEVICE limb_t sub(limb_t a, limb_t b) const { return a >= b ? a - b : a - b + n; }
    ZGPU_HOST_DEVICE limb_t neg(limb_t a) const { return a == 0 ? 0 : n - a; }
    // a b mod n: the product's high word is below n as a, b < n.
    ZGPU_HOST_DEVICE limb_t mul(limb_t a, limb_t b) const { return reduce(mul_high(a, b), a * b); }
    // c + a b mod n, as FLINT's scalar_addmul.
    ZGPU_HOST_DEVICE limb_t addmul(limb_t c, limb_t a, limb_t b) const { return add(c, mul(a, b)); }
};

// The constants of modulus n >= 2.
ZGPU_HOST_DEVICE inline Modulus make_modulus(limb_t n)
{
    std::uint32_t shift = 0;
    while (!((n << shift) >> 63)) ++shift;
    const limb_t normalised = n << shift;
    return {n, normalised, reciprocal_word(normalised), shift};
}

}  // namespace zgpu::kernels
