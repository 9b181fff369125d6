// Five primes below 2^30 for short polynomial products modulo any word modulus n
// (poly_mul_mod_n.hpp), and the step from a value's five residues to the value mod n.
//
// The primes are the five largest below 2^30 that are 1 mod 2^16: their residues are lazy 32-bit
// words (4p < 2^32, ntt_field.hpp), and they have roots of unity of every transform length up
// to 2^16. Their product P is above 2^149.98.
// Exactness: the product over Z of two polynomials with coefficients below n <= 2^64, by a
// transform of length N <= 2^16, has coefficients at most min(la, lb) (n - 1)^2, with
// la + lb - 1 <= N so min(la, lb) <= N / 2 <= 2^15: below 2^143 < P, so their residues fix them.
// Where the primes' 32-bit products cost about 3 IMADs and the 64-bit primes' about 10, five of
// the first do the work of three of the second in half the instructions.
#pragma once

#include <cstdint>

#include "kernels/modular/modulus.hpp"
#include "kernels/ntt/ntt_field.hpp"

namespace zgpu::kernels {

inline constexpr int kFivePrimeCount = 5;
inline constexpr std::uint32_t kFivePrimesMaxLength = 1u << 16;

// Any word x mod p in [0, 2p), given word_base = 2^32 mod p: x = x1 2^32 + x0 as
// x1 (2^32 mod p) + x0, each part below 2p, the sum below 4p.
ZGPU_HOST_DEVICE inline std::uint32_t reduce_word64(const PrimeField& f, const ShoupFactor& word_base, limb_t x)
{
    return f.lazy(f.mul_lazy(std::uint32_t(x >> 32), word_base.w, word_base.w_shoup) + f.reduce_word(std::uint32_t(x)));
}

// A sum of products y c with y < 2^32 and c < 2^64, as E = sum y c0 and O = sum y c1 (c = c1 2^32 +
// c0) in three 32-bit digits each. On the device each half product is one multiply-add with
// carries into a digit pair (as DigitSum's in modulus.hpp, whose 64 x 64-bit terms take twice the
// products). Exact for fewer than 2^32 terms: E and O stay below 2^96.
struct WordProductSum {
    std::uint32_t e0 = 0, e1 = 0, e2 = 0, o0 = 0, o1 = 0, o2 = 0;

    // += y c.
    ZGPU_HOST_DEVICE void add_product(std::uint32_t y, limb_t c)
    {
        const std::uint32_t c0 = std::uint32_t(c), c1 = std::uint32_t(c >> 32);
#ifdef __CUDA_ARCH__
        asm("mad.lo.cc.u32 %0, %6, %7, %0;\n\t"
            "madc.hi.cc.u32 %1, %6, %7, %1;\n\t"
            "addc.u32 %2, %2, 0;\n\t"
            "mad.lo.cc.u32 %3, %6, %8, %3;\n\t"
            "madc.hi.cc.u32 %4, %6, %8, %4;\n\t"
            "addc.u32 %5, %5, 0;"
            : "+r"(e0), "+r"(e1), "+r"(e2), "+r"(o0), "+r"(o1), "+r"(o2)
            : "r"(y), "r"(c0), "r"(c1));
#else
        add(e0, e1, e2, limb_t(y) * c0);
        add(o0, o1, o2, limb_t(y) * c1);
#endif
    }

    // E + O 2^32 as two words (high, low), exact below 2^128 (fewer than 2^32 terms).
    ZGPU_HOST_DEVICE TwoWords words() const
    {
        const limb_t even = limb_t(e1) << 32 | e0, odd_low = limb_t(o0) << 32;
        const limb_t low = even + odd_low;
        return {(limb_t(o2) << 32 | o1) + e2 + (low < even), low};
    }

private:
    static void add(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, limb_t p)
    {
        const limb_t low = (limb_t(d1) << 32 | d0) + p;
        d0 = std::uint32_t(low), d1 = std::uint32_t(low >> 32);
        d2 += low < p;
    }
};

// A product's constants for the CRT to its modulus n, every one scaled by 2^shift so that the sum
// reduces modulo the normalised modulus d = n 2^shift (Modulus) with no shifts before the
// division: term[i] = (P / p_i mod n) 2^shift for i < 5, term[5] = (-P mod n) 2^shift.
struct CrtModN {
    limb_t term[kFivePrimeCount + 1];
    limb_t normalised, reciprocal;
    std::uint32_t shift;
};

// The primes' fields and constants: to reduce a word modulo each prime, and the explicit CRT.
struct FivePrimes {
    PrimeField field[kFivePrimeCount];
    ShoupFactor word_base[kFivePrimeCount];        // 2^32 mod p_i
    ShoupFactor cofactor_inverse[kFivePrimeCount];  // (P / p_i)^-1 mod p_i
    std::uint32_t quotient_scale[kFivePrimeCount];  // floor(2^61 / p_i)

    // x mod n from words r_i = x s_i^-1 mod p_i (any 32-bit words) given factor_i = s_i (P /
    // p_i)^-1 mod p_i, for x < P / 4 (the products' coefficients are below 2^143 < P / 2^6): the
    // kernel's residues carry a scale s_i of its transforms, which the factor takes out.
    // With y_i = r_i factor_i mod p_i, x = sum y_i (P / p_i) - k P for k = floor(sum y_i / p_i),
    // so x = sum y_i (P / p_i mod n) + k (-P mod n) mod n. sum y_i / p_i is k + x / P, within 1/4
    // of k, and sum y_i floor(2^61 / p_i) is 2^61 sum y_i / p_i less at most 5 2^30: rounding it
    // to a multiple of 2^61 gives 2^61 k (k <= 4). The sum, times 2^shift, is below 6 2^30 d <
    // 2^97: its high word is below d, and one division by d leaves (x mod n) 2^shift.
    ZGPU_HOST_DEVICE limb_t to_modulus(const std::uint32_t (&r)[kFivePrimeCount], const ShoupFactor (&factor)[kFivePrimeCount],
                                       const CrtModN& c) const
    {
        std::uint64_t scaled = 0;
        WordProductSum sum;
        for (int i = 0; i < kFivePrimeCount; ++i) {
            const std::uint32_t y = field[i].mul(r[i], factor[i].w, factor[i].w_shoup);
            scaled += std::uint64_t(y) * quotient_scale[i];
            sum.add_product(y, c.term[i]);
        }
        sum.add_product(std::uint32_t((scaled + (std::uint64_t(1) << 60)) >> 61), c.term[kFivePrimeCount]);
        const TwoWords s = sum.words();
        const Modulus d{c.normalised, c.normalised, c.reciprocal, 0};
        return d.reduce(s.high, s.low) >> c.shift;
    }

    // CrtModN's term[part] for the modulus m: the product of the primes but p_part mod n (part
    // = kFivePrimeCount: of them all, negated), times 2^shift.
    ZGPU_HOST_DEVICE limb_t crt_term(const Modulus& m, int part) const
    {
        limb_t product = 1 % m.n;
        for (int l = 0; l < kFivePrimeCount; ++l)
            if (l != part) product = m.mul(product, m.reduce(field[l].p));
        return (part < kFivePrimeCount ? product : m.neg(product)) << m.shift;
    }
    // Part `part` (0 to kFivePrimeCount) of m's CrtModN: term[part], and with the last part m's
    // divisor, so that threads can share the parts.
    ZGPU_HOST_DEVICE void fill_crt_part(CrtModN& c, const Modulus& m, int part) const
    {
        c.term[part] = crt_term(m, part);
        if (part == kFivePrimeCount) c.normalised = m.normalised, c.reciprocal = m.reciprocal, c.shift = m.shift;
    }
    ZGPU_HOST_DEVICE CrtModN crt_mod_n(const Modulus& m) const
    {
        CrtModN c{};
        for (int part = 0; part <= kFivePrimeCount; ++part) fill_crt_part(c, m, part);
        return c;
    }
};

inline constexpr std::uint32_t kFivePrimeList[kFivePrimeCount] = {1073479681u, 1072496641u, 1071513601u, 1070727169u,
                                                                 1069219841u};

constexpr FivePrimes make_five_primes()
{
    FivePrimes c{};
    for (int i = 0; i < kFivePrimeCount; ++i) {
        const PrimeField f = make_field(kFivePrimeList[i]);
        c.field[i] = f;
        const std::uint32_t base = std::uint32_t((std::uint64_t(1) << 32) % f.p);
        c.word_base[i] = {base, f.shoup(base)};
        std::uint64_t cofactor = 1;  // P / p_i mod p_i
        for (int l = 0; l < kFivePrimeCount; ++l)
            if (l != i) cofactor = cofactor * (kFivePrimeList[l] % f.p) % f.p;
        const std::uint32_t inverse = f.inverse(std::uint32_t(cofactor));
        c.cofactor_inverse[i] = {inverse, f.shoup(inverse)};
        c.quotient_scale[i] = std::uint32_t((std::uint64_t(1) << 61) / f.p);
    }
    return c;
}
inline constexpr FivePrimes kFivePrimes = make_five_primes();

// The bound above, checked: p < 2^30, 1 mod 2^16, and P > 2^15 (2^64 - 1)^2, tested as
// p_0 p_1 p_2 p_3 > floor(2^143 / p_4) + 1 (2^143 / p_4 < 2^114 fits in 128 bits).
constexpr bool five_primes_fit()
{
    unsigned __int128 first_four = 1;
    for (int i = 0; i < kFivePrimeCount; ++i) {
        const std::uint32_t p = kFivePrimeList[i];
        if (p >= (1u << 30) || (p - 1) % kFivePrimesMaxLength != 0) return false;
        if (i < 4) first_four *= p;
    }
    const unsigned __int128 two_143_over_p4 = (((unsigned __int128)1 << 127) / kFivePrimeList[4]) << 16;
    return first_four > two_143_over_p4 + (1u << 16);
}
static_assert(five_primes_fit(), "five primes below 2^30, 1 mod 2^16, whose product exceeds every coefficient");

}  // namespace zgpu::kernels
