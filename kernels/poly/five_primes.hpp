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

// A constant factor w < p with its Shoup companion (PrimeField::mul).
struct ShoupFactor {
    std::uint32_t w, w_shoup;
};

// Any word x mod p in [0, 2p), given word_base = 2^32 mod p: x = x1 2^32 + x0 as
// x1 (2^32 mod p) + x0, each part below 2p, the sum below 4p.
ZGPU_HOST_DEVICE inline std::uint32_t reduce_word64(const PrimeField& f, const ShoupFactor& word_base, limb_t x)
{
    return f.lazy(f.mul_lazy(std::uint32_t(x >> 32), word_base.w, word_base.w_shoup) + f.reduce_word(std::uint32_t(x)));
}

// The residues' modulus mod n: with Q_i = P / p_i, x = sum y_i Q_i - k P for y_i = r_i Q_i^-1 mod
// p_i and k = floor(sum y_i / p_i), so x = sum y_i (Q_i mod n) + k (n - P mod n) mod n. A
// product's constants: cofactor[i] = Q_i mod n, and minus_p = (n - P mod n) mod n.
struct CrtModN {
    limb_t cofactor[kFivePrimeCount];
    limb_t minus_p;
};

// The primes' fields and constants: to reduce a word modulo each prime, and the explicit CRT.
struct FivePrimes {
    PrimeField field[kFivePrimeCount];
    ShoupFactor word_base[kFivePrimeCount];        // 2^32 mod p_i
    ShoupFactor cofactor_inverse[kFivePrimeCount];  // (P / p_i)^-1 mod p_i
    std::uint32_t quotient_scale[kFivePrimeCount];  // floor(2^61 / p_i)

    // x mod n from x's residues r_i < p_i, for x < P / 4 (the products' coefficients are below
    // 2^143 < P / 2^6). k = floor(sum y_i / p_i) is sum y_i / p_i - x / P, within 1/4 of it, and
    // sum y_i floor(2^61 / p_i) is 2^61 sum y_i / p_i less at most 5 2^30: rounding it to a
    // multiple of 2^61 gives 2^61 k. The sum of y_i (Q_i mod n) + k (n - P mod n) is below
    // 6 2^30 2^64 < 2^97: two words, reduced once (the high word, below 2^33, is already below
    // most n).
    ZGPU_HOST_DEVICE limb_t to_modulus(const std::uint32_t (&r)[kFivePrimeCount], const Modulus& m, const CrtModN& c) const
    {
        std::uint64_t scaled = 0;
        unsigned __int128 sum = 0;
        for (int i = 0; i < kFivePrimeCount; ++i) {
            const std::uint32_t y = field[i].mul(r[i], cofactor_inverse[i].w, cofactor_inverse[i].w_shoup);
            scaled += std::uint64_t(y) * quotient_scale[i];
            sum += (unsigned __int128)y * c.cofactor[i];
        }
        const std::uint32_t k = std::uint32_t((scaled + (std::uint64_t(1) << 60)) >> 61);
        sum += (unsigned __int128)k * c.minus_p;
        return m.reduce(m.reduce(limb_t(sum >> 64)), limb_t(sum));
    }

    // The product of the primes but p_skip mod n (skip = kFivePrimeCount: of them all), for
    // CrtModN: cofactor[i] is product_mod(m, i), minus_p is n - product_mod(m, 5) mod n.
    ZGPU_HOST_DEVICE limb_t product_mod(const Modulus& m, int skip) const
    {
        limb_t product = 1 % m.n;
        for (int l = 0; l < kFivePrimeCount; ++l)
            if (l != skip) product = m.mul(product, m.reduce(field[l].p));
        return product;
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
