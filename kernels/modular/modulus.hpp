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

// The same kind of sum kept in 32-bit digits, for the kernels' inner products. With 32-bit
// halves x = x1 2^32 + x0, y = y1 2^32 + y0: x y = (x0 y0 + x1 y1 2^64) + (x0 y1 + x1 y0) 2^32.
// The even part goes into E = e4..e0 (digit j of weight 2^(32 j)), the odd part into O = o2..o0
// at weight 2^32. On the device each 32 x 32 -> 64-bit product is one multiply-add into a digit
// pair with carry in and out (ptxas fuses mad.lo.cc and madc.hi.cc into one IMAD.WIDE.U32), so a
// term is 4 IMAD.WIDE.U32 and about 1.5 IADD3.X for the top digits, where ThreeWords::add_product
// takes 4 IMAD.WIDE.U32, about 3 IMAD and 6.5 IADD3. Exact while k < 2^31 products: each adds
// below 2^128 to E and below 2^65 to O, so e4 < k and o2 < 2k never wrap.
struct DigitSum {
    std::uint32_t e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, o0 = 0, o1 = 0, o2 = 0;

    // += x y.
    ZGPU_HOST_DEVICE void add_product(limb_t x, limb_t y)
    {
        const std::uint32_t x0 = std::uint32_t(x), x1 = std::uint32_t(x >> 32);
        const std::uint32_t y0 = std::uint32_t(y), y1 = std::uint32_t(y >> 32);
#ifdef __CUDA_ARCH__
        asm("mad.lo.cc.u32 %0, %8, %10, %0;\n\t"  // E += x0 y0 + x1 y1 2^64
            "madc.hi.cc.u32 %1, %8, %10, %1;\n\t"
            "madc.lo.cc.u32 %2, %9, %11, %2;\n\t"
            "madc.hi.cc.u32 %3, %9, %11, %3;\n\t"
            "addc.u32 %4, %4, 0;\n\t"
            "mad.lo.cc.u32 %5, %8, %11, %5;\n\t"  // O += x0 y1
            "madc.hi.cc.u32 %6, %8, %11, %6;\n\t"
            "addc.u32 %7, %7, 0;\n\t"
            "mad.lo.cc.u32 %5, %9, %10, %5;\n\t"  // O += x1 y0
            "madc.hi.cc.u32 %6, %9, %10, %6;\n\t"
            "addc.u32 %7, %7, 0;"
            : "+r"(e0), "+r"(e1), "+r"(e2), "+r"(e3), "+r"(e4), "+r"(o0), "+r"(o1), "+r"(o2)
            : "r"(x0), "r"(x1), "r"(y0), "r"(y1));
#else
        add(e0, e1, e2, e3, e4, limb_t(x0) * y0, limb_t(x1) * y1);
        add(o0, o1, o2, limb_t(x0) * y1);
        add(o0, o1, o2, limb_t(x1) * y0);
#endif
    }

    // The sum as three words: E + O 2^32 < k 2^128 + 2k 2^96 < B^3.
    ZGPU_HOST_DEVICE ThreeWords words() const
    {
        const limb_t low = limb_t(e1) << 32 | e0, odd_low = limb_t(o0) << 32;
        const limb_t mid = limb_t(e3) << 32 | e2, odd_mid = limb_t(o2) << 32 | o1;
        ThreeWords s;
        s.w0 = low + odd_low;
        const limb_t c0 = s.w0 < low;
        s.w1 = mid + odd_mid;
        const limb_t c1 = s.w1 < mid;
        s.w1 += c0;
        s.w2 = e4 + c1 + (s.w1 < c0);
        return s;
    }

private:
    // The host's version of the device's carry chains (digit pairs as words).
    static void add(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, std::uint32_t& d3, std::uint32_t& d4, limb_t p, limb_t q)
    {
        const limb_t low = (limb_t(d1) << 32 | d0) + p, carry = low < p;
        const limb_t high = (limb_t(d3) << 32 | d2) + q + carry, carry2 = high < q || (high == q && carry);
        d0 = std::uint32_t(low), d1 = std::uint32_t(low >> 32), d2 = std::uint32_t(high), d3 = std::uint32_t(high >> 32);
        d4 += std::uint32_t(carry2);
    }
    static void add(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, limb_t p)
    {
        const limb_t low = (limb_t(d1) << 32 | d0) + p;
        d0 = std::uint32_t(low), d1 = std::uint32_t(low >> 32);
        d2 += low < p;
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
