// Five primes below 2^29 for short polynomial products modulo any word modulus n
// (poly_mul_mod_n.hpp), and the step from a value's five residues to the value mod n.
//
// The primes are the five largest below 2^29 that are 1 mod 2^16: their residues are lazy 32-bit
// words with room up to 8p (8p < 2^32), so that the transforms correct about half as often as
// with 4p (butterfly_bounds.hpp), and they have roots of unity of every transform length up to
// 2^16. Their product P is above 2^144.98.
// Exactness: the product over Z of two polynomials with coefficients below n <= 2^64, by a
// transform of length N <= 2^16, has coefficients at most min(la, lb) (n - 1)^2, with
// la + lb - 1 <= N so min(la, lb) <= N / 2 <= 2^15: below 2^143 < P / 2, so their residues fix
// them, with the margin that to_modulus's rounding needs.
// Where the primes' 32-bit products cost about 3 IMADs and the 64-bit primes' about 10, five of
// the first do the work of three of the second in half the instructions.
#pragma once

#include <cstdint>

#include "kernels/modular/modulus.hpp"
#include "kernels/ntt/ntt_field.hpp"

namespace zgpu::kernels {

inline constexpr int kFivePrimeCount = 5;
inline constexpr std::uint32_t kFivePrimesMaxLength = 1u << 16;

// A field of one of the five primes: words hold lazy residues up to 8p. Montgomery's product
// (the pointwise step) of two words below 4p is below 16p^2 / 2^32 + p < 3p.
struct FivePrimeField : PrimeField {
    static constexpr int kHeadroom = 8;
};

// Any word x = x1 2^32 + x0 times 2^-32 mod p, in (0, 3p) (Montgomery's reduction): with x1
// reduced below 2p and m = x0 p^-1 mod 2^32, m p has the low word x0, so x1 2^32 + x0 - m p is
// 2^32 (x1 - high(m p)), and high(m p) < p. One product fewer than x1 (2^32 mod p) + x0 mod p.
ZGPU_HOST_DEVICE inline std::uint32_t montgomery_word64(const PrimeField& f, limb_t x)
{
    return f.reduce_word(std::uint32_t(x >> 32)) + f.p - mul_high(std::uint32_t(x) * f.inverse_p, f.p);
}

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
    // The quotient estimate (to_modulus): 2^28 y_i / p_i from the top bits of y_i.
    static constexpr int kQuotientBits = 28, kDroppedBits = 16;

    FivePrimeField field[kFivePrimeCount];
    ShoupFactor cofactor_inverse[kFivePrimeCount];  // (P / p_i)^-1 mod p_i
    std::uint32_t quotient_scale[kFivePrimeCount];  // floor(2^44 / p_i)

    // x mod n from words r_i = x s_i^-1 mod p_i (any 32-bit words) given factor_i = s_i (P /
    // p_i)^-1 mod p_i, for x < P / 2 (the products' coefficients are below 2^143 < P / 2^1.98):
    // the kernel's residues carry a scale s_i of its transforms, which the factor takes out.
    // With y_i = r_i factor_i mod p_i, x = sum y_i (P / p_i) - k P for k = floor(sum y_i / p_i),
    // so x = sum y_i (P / p_i mod n) + k (-P mod n) mod n. sum y_i / p_i is k + x / P, less than
    // k + 1/2. In 32 bits: with y_i' = floor(y_i / 2^16) < 2^13 and c_i = floor(2^44 / p_i) <
    // 2^15.01, y_i' c_i is 2^28 y_i / p_i less below 2^13 + 2^15.01, so sum y_i' c_i is 2^28 sum
    // y_i / p_i less below 2^18, and adding 2^27 and rounding down to a multiple of 2^28 gives
    // 2^28 k (k <= 4; the sum stays below 6 2^28).
    // The sum of the y c (c a 64-bit term) goes as even = sum y c_low and odd = sum y c_high
    // (c = c_high 2^32 + c_low): each below 5 2^29 2^32 + 4 2^32 < 2^64, one multiply-add a
    // product. Times 2^shift, it is below 2^32 d: its high word is below d, and one division by
    // d leaves (x mod n) 2^shift.
    ZGPU_HOST_DEVICE limb_t to_modulus(const std::uint32_t (&r)[kFivePrimeCount], const ShoupFactor (&factor)[kFivePrimeCount],
                                       const CrtModN& c) const
    {
        std::uint32_t scaled = 0;
        limb_t even = 0, odd = 0;
        const auto add = [&](std::uint32_t y, limb_t term) {
            even = mul_add_wide(y, std::uint32_t(term), even);
            odd = mul_add_wide(y, std::uint32_t(term >> 32), odd);
        };
        for (int i = 0; i < kFivePrimeCount; ++i) {
            const std::uint32_t y = field[i].mul(r[i], factor[i].w, factor[i].w_shoup);
            scaled += (y >> kDroppedBits) * quotient_scale[i];
            add(y, c.term[i]);
        }
        add((scaled + (1u << (kQuotientBits - 1))) >> kQuotientBits, c.term[kFivePrimeCount]);
        const limb_t low = even + (odd << 32);
        return remainder(std::uint32_t(odd >> 32) + (low < even), low, c) >> c.shift;
    }

    // (high 2^64 + low) mod d for high < 2^32, d = c.normalised: Möller and Granlund's division
    // (Modulus::divide) with the products by the high word as 64 x 32 bits.
    ZGPU_HOST_DEVICE static limb_t remainder(std::uint32_t high, limb_t low, const CrtModN& c)
    {
        const limb_t d = c.normalised, v = c.reciprocal;
        // (q1, q0) = v high + (high, low), v high = vh 2^32 + vl below 2^96.
        const limb_t vl = mul_add_wide(std::uint32_t(v), high, 0), vh = mul_add_wide(std::uint32_t(v >> 32), high, 0);
        const limb_t product_low = vl + (vh << 32), q0 = product_low + low;
        const limb_t q1 = (vh >> 32) + (product_low < vl) + high + (q0 < product_low) + 1;
        limb_t r = low - q1 * d;
        if (r > q0) r += d;
        if (r >= d) r -= d;
        return r;
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

inline constexpr std::uint32_t kFivePrimeList[kFivePrimeCount] = {536608769u, 536543233u, 536215553u, 535756801u, 535232513u};

constexpr FivePrimes make_five_primes()
{
    FivePrimes c{};
    for (int i = 0; i < kFivePrimeCount; ++i) {
        const PrimeField f = make_field(kFivePrimeList[i]);
        c.field[i] = {f};
        std::uint64_t cofactor = 1;  // P / p_i mod p_i
        for (int l = 0; l < kFivePrimeCount; ++l)
            if (l != i) cofactor = cofactor * (kFivePrimeList[l] % f.p) % f.p;
        const std::uint32_t inverse = f.inverse(std::uint32_t(cofactor));
        c.cofactor_inverse[i] = {inverse, f.shoup(inverse)};
        c.quotient_scale[i] = std::uint32_t((std::uint64_t(1) << (FivePrimes::kQuotientBits + FivePrimes::kDroppedBits)) / f.p);
    }
    return c;
}
inline constexpr FivePrimes kFivePrimes = make_five_primes();

// The bound above, checked: 2^28 < p < 2^29, 1 mod 2^16, and P > 2^144 > 2 * 2^15 (2^64 - 1)^2,
// tested as p_0 p_1 p_2 p_3 > floor(2^144 / p_4) + 1 (2^144 / p_4 < 2^116 fits in 128 bits).
constexpr bool five_primes_fit()
{
    unsigned __int128 first_four = 1;
    for (int i = 0; i < kFivePrimeCount; ++i) {
        const std::uint32_t p = kFivePrimeList[i];
        if (p <= (1u << 28) || p >= (1u << 29) || (p - 1) % kFivePrimesMaxLength != 0) return false;
        if (i < 4) first_four *= p;
    }
    const unsigned __int128 two_144_over_p4 = (((unsigned __int128)1 << 127) / kFivePrimeList[4]) << 17;
    return first_four > two_144_over_p4 + (1u << 17);
}
static_assert(five_primes_fit(), "five primes between 2^28 and 2^29, 1 mod 2^16, whose product exceeds twice every coefficient");

}  // namespace zgpu::kernels
