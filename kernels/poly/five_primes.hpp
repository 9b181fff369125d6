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

// The primes' fields and constants: to reduce a word modulo each prime, and Garner's mixed-radix
// digits of x = v_0 + v_1 P_1 + ... + v_4 P_4 (P_i = p_0 ... p_(i-1), v_i < p_i).
struct FivePrimes {
    PrimeField field[kFivePrimeCount];
    ShoupFactor word_base[kFivePrimeCount];                // 2^32 mod p_i
    ShoupFactor radix[kFivePrimeCount][kFivePrimeCount];   // [i][l] = P_l mod p_i, l < i
    ShoupFactor inverse[kFivePrimeCount];                  // P_i^-1 mod p_i

    // x mod n from x's residues r_i < p_i (x < P), given radix_mod_n[i] = P_i mod n: Garner's
    // digits, then sum v_i (P_i mod n) < 5 2^30 n < 2^97 in two words, reduced once (its high
    // word, below 2^33, is already below most n).
    ZGPU_HOST_DEVICE limb_t to_modulus(const std::uint32_t (&r)[kFivePrimeCount], const Modulus& m,
                                       const limb_t (&radix_mod_n)[kFivePrimeCount]) const
    {
        std::uint32_t v[kFivePrimeCount];
        unsigned __int128 sum = 0;
        for (int i = 0; i < kFivePrimeCount; ++i) {
            const PrimeField& f = field[i];
            std::uint32_t below = 0;  // v_0 + v_1 P_1 + ... + v_(i-1) P_(i-1) mod p_i
            for (int l = 0; l < i; ++l) below = f.add(below, f.mul(v[l], radix[i][l].w, radix[i][l].w_shoup));
            v[i] = i == 0 ? r[0] : f.mul(f.sub(r[i], below), inverse[i].w, inverse[i].w_shoup);
            sum += (unsigned __int128)v[i] * radix_mod_n[i];
        }
        return m.reduce(m.reduce(limb_t(sum >> 64)), limb_t(sum));
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
        std::uint64_t prefix = 1;  // P_l mod p_i
        for (int l = 0; l < i; ++l) {
            c.radix[i][l] = {std::uint32_t(prefix), f.shoup(std::uint32_t(prefix))};
            prefix = prefix * (kFivePrimeList[l] % f.p) % f.p;
        }
        const std::uint32_t inverse = f.inverse(std::uint32_t(prefix));
        c.inverse[i] = {inverse, f.shoup(inverse)};
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
