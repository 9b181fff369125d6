// The five 29-bit primes of the short products mod n (kernels/poly/five_primes.hpp), on the host
// (the same functions run on the device): primes with the roots the transforms need, a product
// above the bound, butterflies at the bounds that room for 8p allows, words reduced modulo
// each, and the CRT to a modulus against GMP.
#include <random>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/modular/ntt_primes.hpp"
#include "kernels/ntt/lazy_butterflies.hpp"
#include "kernels/poly/five_primes.hpp"

namespace zgpu::kernels {
namespace {

// x mod m for a GMP integer.
limb_t mod_word(const mpz_t x, limb_t m) { return mpz_fdiv_ui(x, m); }

TEST(FivePrimes, PrimesOneModTheLongestTransformBelow2To29)
{
    for (const std::uint32_t p : kFivePrimeList) {
        EXPECT_TRUE(is_prime_word(p)) << p;
        EXPECT_LT(p, 1u << 29) << p;  // 8p < 2^32
        EXPECT_GT(p, 1u << 28) << p;  // 2^60 / p < 2^32
        EXPECT_EQ((p - 1) % kFivePrimesMaxLength, 0u) << p;
    }
}

// P exceeds twice the largest coefficient of a product by a transform of length up to 2^16,
// 2^15 (2^64 - 1)^2, as to_modulus's rounding needs.
TEST(FivePrimes, ProductExceedsTwiceTheLargestCoefficient)
{
    mpz_t product, bound;
    mpz_init_set_ui(product, 1);
    for (const std::uint32_t p : kFivePrimeList) mpz_mul_ui(product, product, p);
    mpz_init_set_ui(bound, ~0ul);
    mpz_mul(bound, bound, bound);
    mpz_mul_ui(bound, bound, kFivePrimesMaxLength);
    EXPECT_GT(mpz_cmp(product, bound), 0);
    mpz_clears(product, bound, nullptr);
}

// The butterflies at the bounds that butterfly_bounds.hpp plans for words with room for 8p:
// forward sums of words below 4p corrected to 4p and of words below 2p left below 4p; inverse
// butterflies on u below 8p (corrected to 4p) and below 6p (left), outputs below 6p and 8p;
// the unit ones likewise. Inputs at the top of their bounds first, then random ones.
TEST(FivePrimes, ButterfliesWithRoomFor8p)
{
    static_assert(FivePrimeField::kHeadroom == 8);
    std::mt19937_64 rng(29);
    for (const FivePrimeField& f : kFivePrimes.field) {
        const std::uint32_t p = f.p;
        const auto below = [&](int bound, int k) { return std::uint32_t(k < 2 ? bound * p - 1 - k : rng() % (std::uint64_t(bound) * p)); };
        for (int k = 0; k < 20000; ++k) {
            const std::uint32_t w = k < 2 ? p - 1 : std::uint32_t(rng() % p);
            const ShoupFactor tw{w, f.shoup(w)};
            for (const int b : {2, 4}) {
                const std::uint32_t u0 = below(b, k), v0 = below(b, k + 1);
                std::uint32_t u = u0, v = v0;
                forward_butterfly(f, u, v, tw, b, b, 4);
                ASSERT_LT(u, 4 * p);
                ASSERT_LT(v, 2 * p);
                ASSERT_EQ(u % p, (std::uint64_t(u0) + v0) % p);
                ASSERT_EQ(v % p, (std::uint64_t(u0 % p) + p - v0 % p) * w % p);
                u = u0, v = v0;
                forward_unit_butterfly(f, u, v, b, b, 4);
                ASSERT_LT(u, 4 * p);
                ASSERT_LT(v, 4 * p);
                ASSERT_EQ(u % p, (std::uint64_t(u0) + v0) % p);
                ASSERT_EQ(v % p, (std::uint64_t(u0 % p) + p - v0 % p) % p);
            }
            for (const auto& [bu, bx] : {std::pair{8, 4}, std::pair{6, 6}}) {
                const std::uint32_t u0 = below(bu, k), v0 = k < 2 ? ~std::uint32_t(0) : std::uint32_t(rng());
                std::uint32_t u = u0, v = v0;
                inverse_butterfly(f, u, v, tw, bu, bx);
                const std::uint64_t t = std::uint64_t(v0 % p) * w % p;
                ASSERT_LT(u, std::uint64_t(bx + 2) * p);
                ASSERT_LT(v, std::uint64_t(bx + 2) * p);
                ASSERT_EQ(u % p, (u0 % p + t) % p);
                ASSERT_EQ(v % p, (u0 % p + p - t) % p);
            }
            for (const int b : {8, 4}) {
                const std::uint32_t u0 = below(b, k), v0 = below(b, k + 1);
                std::uint32_t u = u0, v = v0;
                inverse_unit_butterfly(f, u, v, b, b, 4, 4);
                ASSERT_LT(u, 8 * p);
                ASSERT_LT(v, 8 * p);
                ASSERT_EQ(u % p, (std::uint64_t(u0) + v0) % p);
                ASSERT_EQ(v % p, (std::uint64_t(u0 % p) + p - v0 % p) % p);
            }
            // The pointwise product of words below 4p: below 3p.
            const std::uint32_t x = below(4, k), y = below(4, k + 1), z = f.mul_montgomery(x, y);
            ASSERT_LT(z, 3 * p);
            ASSERT_EQ((std::uint64_t(z) << 32) % p, std::uint64_t(x % p) * (y % p) % p);
        }
    }
}

// Any 64-bit word, the edges first: x 2^-32 mod p, below 3p.
TEST(FivePrimes, MontgomeryWordIsLazyResidue)
{
    std::mt19937_64 rng(5);
    for (const FivePrimeField& f : kFivePrimes.field) {
        const std::uint64_t p = f.p;
        for (int k = 0; k < 100000; ++k) {
            const limb_t x = k < 4 ? ~limb_t(0) - k : k < 8 ? limb_t(k - 4) : k < 12 ? limb_t(k - 8) << 32 : rng();
            const std::uint32_t r = montgomery_word64(f, x);
            ASSERT_LT(r, 3 * p) << x;
            ASSERT_EQ((std::uint64_t(r) << 32) % p, x % p) << x;
        }
    }
}

// The CRT's last step: a value below 2^96 modulo a normalised word, against 128-bit arithmetic.
TEST(FivePrimes, RemainderOfThreeHalfWords)
{
    std::mt19937_64 rng(13);
    for (int m = 0; m < 200; ++m) {
        const limb_t n = m == 0 ? limb_t(1) << 63 : m == 1 ? ~limb_t(0) : m == 2 ? (limb_t(1) << 63) + 1 : rng() | limb_t(1) << 63;
        CrtModN c{};
        kFivePrimes.fill_crt_part(c, make_modulus(n), kFivePrimeCount);
        ASSERT_EQ(c.normalised, n);
        for (int k = 0; k < 1000; ++k) {
            const std::uint32_t high = k < 3 ? std::uint32_t(k) : k < 6 ? ~std::uint32_t(0) - (k - 3) : std::uint32_t(rng());
            const limb_t low = k % 3 == 0 ? 0 : k % 3 == 1 ? ~limb_t(0) : rng();
            const unsigned __int128 x = (unsigned __int128)high << 64 | low;
            ASSERT_EQ(FivePrimes::remainder(high, low, c), limb_t(x % n)) << n << " " << high << " " << low;
        }
    }
}

// x below P / 2 (the products' coefficients are below 2^143 < P / 2): its residues, then x mod n,
// against GMP; the edges 0, 1, 2^143 - 1 and P / 2 - 1 among random values of every size. As in
// the kernel, each residue comes scaled by some s_i^-1 and as any lazy word below 8 p_i (the
// inverse transforms leave such words), and the factors take the scales out.
TEST(FivePrimes, ResiduesToModulus)
{
    const limb_t moduli[] = {2, 3, 1000003, (limb_t(1) << 32) + 15, (limb_t(1) << 62) + 135, (limb_t(1) << 63) - 25,
                             limb_t(1) << 63, ~limb_t(0) - 58, ~limb_t(0)};
    mpz_t half, x;
    mpz_init_set_ui(half, 1);
    for (const std::uint32_t p : kFivePrimeList) mpz_mul_ui(half, half, p);
    mpz_fdiv_q_2exp(half, half, 1);
    mpz_init(x);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, 11);
    std::mt19937_64 rng(7);
    for (const limb_t n : moduli) {
        const CrtModN c = kFivePrimes.crt_mod_n(make_modulus(n));
        ShoupFactor factor[kFivePrimeCount];
        std::uint32_t scale_inverse[kFivePrimeCount];
        for (int i = 0; i < kFivePrimeCount; ++i) {
            const PrimeField& f = kFivePrimes.field[i];
            const std::uint32_t scale = n == 2 ? 1 : std::uint32_t(rng() % (f.p - 1)) + 1;
            scale_inverse[i] = f.inverse(scale);
            factor[i].w = std::uint32_t(std::uint64_t(scale) * kFivePrimes.cofactor_inverse[i].w % f.p);
            factor[i].w_shoup = f.shoup(factor[i].w);
        }
        for (int k = 0; k < 20000; ++k) {
            if (k == 0) mpz_set_ui(x, 0);
            else if (k == 1) mpz_set_ui(x, 1);
            else if (k == 2) mpz_ui_pow_ui(x, 2, 143), mpz_sub_ui(x, x, 1);
            else if (k == 3) mpz_sub_ui(x, half, 1);
            else if (k < 200) mpz_urandomb(x, state, k % 144);
            else mpz_urandomm(x, state, half);
            std::uint32_t r[kFivePrimeCount];
            for (int i = 0; i < kFivePrimeCount; ++i) {
                const std::uint32_t p = kFivePrimeList[i];
                const std::uint64_t residue = mod_word(x, p) * scale_inverse[i] % p;
                r[i] = std::uint32_t(residue + p * (k < 8 ? 7 : rng() % 8));  // below 8p
            }
            ASSERT_EQ(kFivePrimes.to_modulus(r, factor, c), mod_word(x, n)) << "n = " << n << ", case " << k;
        }
    }
    gmp_randclear(state);
    mpz_clears(half, x, nullptr);
}

}  // namespace
}  // namespace zgpu::kernels
