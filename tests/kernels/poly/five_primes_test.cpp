// The five 30-bit primes of the short products mod n (kernels/poly/five_primes.hpp), on the host
// (the same functions run on the device): primes with the roots the transforms need, a product
// above the bound, words reduced modulo each, and the CRT to a modulus against GMP.
#include <random>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/five_primes.hpp"

namespace zgpu::kernels {
namespace {

// x mod m for a GMP integer.
limb_t mod_word(const mpz_t x, limb_t m) { return mpz_fdiv_ui(x, m); }

TEST(FivePrimes, PrimesOneModTheLongestTransformBelow2To30)
{
    for (const std::uint32_t p : kFivePrimeList) {
        EXPECT_TRUE(is_prime_word(p)) << p;
        EXPECT_LT(p, 1u << 30) << p;
        EXPECT_EQ((p - 1) % kFivePrimesMaxLength, 0u) << p;
    }
}

// P exceeds the largest coefficient of a product by a transform of length up to 2^16:
// 2^15 (2^64 - 1)^2.
TEST(FivePrimes, ProductExceedsTheLargestCoefficient)
{
    mpz_t product, bound;
    mpz_init_set_ui(product, 1);
    for (const std::uint32_t p : kFivePrimeList) mpz_mul_ui(product, product, p);
    mpz_init_set_ui(bound, ~0ul);
    mpz_mul(bound, bound, bound);
    mpz_mul_ui(bound, bound, kFivePrimesMaxLength / 2);
    EXPECT_GT(mpz_cmp(product, bound), 0);
    mpz_clears(product, bound, nullptr);
}

TEST(FivePrimes, ReduceWordIsLazyResidue)
{
    std::mt19937_64 rng(5);
    for (int i = 0; i < kFivePrimeCount; ++i) {
        const std::uint32_t p = kFivePrimes.field[i].p;
        for (int k = 0; k < 100000; ++k) {
            const limb_t x = k < 4 ? ~limb_t(0) - k : k < 8 ? limb_t(k - 4) : rng();
            const std::uint32_t r = reduce_word64(kFivePrimes.field[i], kFivePrimes.word_base[i], x);
            ASSERT_LT(r, 2 * p) << x;
            ASSERT_EQ(r % p, x % p) << x;
        }
    }
}

// x below P / 4 (the products' coefficients are below 2^143): its residues, then x mod n, against
// GMP; the edges 0, 1, 2^143 - 1 and P / 4 - 1 among random values of every size. As in the
// kernel, each residue comes scaled by some s_i^-1 and as any lazy word below 4 p_i, and the
// factors take the scales out.
TEST(FivePrimes, ResiduesToModulus)
{
    const limb_t moduli[] = {2, 3, 1000003, (limb_t(1) << 32) + 15, (limb_t(1) << 62) + 135, (limb_t(1) << 63) - 25,
                             limb_t(1) << 63, ~limb_t(0) - 58, ~limb_t(0)};
    mpz_t quarter, x;
    mpz_init_set_ui(quarter, 1);
    for (const std::uint32_t p : kFivePrimeList) mpz_mul_ui(quarter, quarter, p);
    mpz_fdiv_q_2exp(quarter, quarter, 2);
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
            else if (k == 3) mpz_sub_ui(x, quarter, 1);
            else if (k < 200) mpz_urandomb(x, state, k % 148);
            else mpz_urandomm(x, state, quarter);
            std::uint32_t r[kFivePrimeCount];
            for (int i = 0; i < kFivePrimeCount; ++i) {
                const std::uint32_t p = kFivePrimeList[i];
                const std::uint64_t residue = mod_word(x, p) * scale_inverse[i] % p;
                r[i] = std::uint32_t(residue + p * (k < 8 ? 3 : rng() % 4));  // below 4p
            }
            ASSERT_EQ(kFivePrimes.to_modulus(r, factor, c), mod_word(x, n)) << "n = " << n << ", case " << k;
        }
    }
    gmp_randclear(state);
    mpz_clears(quarter, x, nullptr);
}

}  // namespace
}  // namespace zgpu::kernels
