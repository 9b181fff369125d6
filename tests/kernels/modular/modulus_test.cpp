// One modulus's arithmetic (kernels/modular/modulus.hpp) on the host, against 128-bit
// integers and GMP: the same functions run on the device.
#include <random>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {
namespace {

using u128 = unsigned __int128;

// Moduli at every edge of the normalisation (shift 0 and 63, powers of two and their
// neighbours, 2^64 - 1) and random ones of every length.
std::vector<limb_t> test_moduli(std::mt19937_64& rng)
{
    std::vector<limb_t> moduli = {2, 3, 4, 5, 7, 255, 256, 257, (limb_t(1) << 32) - 1, (limb_t(1) << 32) + 1, (limb_t(1) << 62) + 1,
                                  (limb_t(1) << 63) - 1, limb_t(1) << 63, (limb_t(1) << 63) + 1, ~limb_t(0) - 58, ~limb_t(0) - 1, ~limb_t(0)};
    for (int bits = 2; bits <= 64; ++bits)
        for (int r = 0; r < 4; ++r) {
            const limb_t top = limb_t(1) << (bits - 1);
            moduli.push_back(top | (rng() & (top - 1)));
        }
    return moduli;
}

// Residues below n: the edges and random ones.
std::vector<limb_t> test_residues(limb_t n, std::mt19937_64& rng)
{
    std::vector<limb_t> residues = {0, 1, n - 1, n / 2, (n - 1) / 2, (n + 1) / 2 % n};
    if (n > 2) residues.push_back(n - 2);
    for (int r = 0; r < 24; ++r) residues.push_back(rng() % n);
    return residues;
}

TEST(Modulus, ConstantsAreNormalised)
{
    std::mt19937_64 rng(1);
    for (const limb_t n : test_moduli(rng)) {
        const Modulus m = make_modulus(n);
        EXPECT_EQ(m.n, n);
        EXPECT_EQ(m.normalised >> 63, 1u) << n;
        EXPECT_EQ(m.normalised, n << m.shift) << n;
        EXPECT_EQ(m.reciprocal, reciprocal_word(m.normalised)) << n;
    }
}

TEST(Modulus, ArithmeticMatchesWideIntegers)
{
    std::mt19937_64 rng(2);
    for (const limb_t n : test_moduli(rng)) {
        const Modulus m = make_modulus(n);
        const auto residues = test_residues(n, rng);
        for (const limb_t a : residues)
            for (const limb_t b : residues) {
                ASSERT_EQ(m.add(a, b), limb_t((u128(a) + b) % n)) << a << " + " << b << " mod " << n;
                ASSERT_EQ(m.sub(a, b), limb_t((u128(a) + n - b) % n)) << a << " - " << b << " mod " << n;
                ASSERT_EQ(m.mul(a, b), limb_t(u128(a) * b % n)) << a << " * " << b << " mod " << n;
                ASSERT_EQ(m.addmul(b, a, b), limb_t((u128(a) * b % n + b) % n)) << n;
            }
        for (const limb_t a : residues) ASSERT_EQ(m.neg(a), limb_t((n - a) % n)) << a << " mod " << n;
    }
}

TEST(Modulus, DivisionOfTwoWords)
{
    std::mt19937_64 rng(3);
    for (const limb_t n : test_moduli(rng)) {
        const Modulus m = make_modulus(n);
        for (const limb_t high : test_residues(n, rng))
            for (const limb_t low : {limb_t(0), limb_t(1), ~limb_t(0), limb_t(rng()), limb_t(rng())}) {
                const u128 x = (u128(high) << 64) | low;
                const QuotientRemainder qr = m.divide(high, low);
                ASSERT_EQ(qr.quotient, limb_t(x / n)) << high << ":" << low << " / " << n;
                ASSERT_EQ(qr.remainder, limb_t(x % n)) << high << ":" << low << " mod " << n;
            }
        for (const limb_t x : {limb_t(0), n - 1, n, limb_t(rng()), ~limb_t(0)}) ASSERT_EQ(m.reduce(x), x % n) << x << " mod " << n;
    }
}

// Sums of many products in three words, then reduced: against GMP.
TEST(Modulus, ThreeWordSumsAndTheirReduction)
{
    std::mt19937_64 rng(4);
    mpz_t sum, term, w;
    mpz_inits(sum, term, w, nullptr);
    for (const limb_t n : test_moduli(rng)) {
        const Modulus m = make_modulus(n);
        for (const int terms : {1, 2, 255, 4096}) {
            ThreeWords acc;
            mpz_set_ui(sum, 0);
            for (int t = 0; t < terms; ++t) {
                const limb_t x = t % 3 == 0 ? ~limb_t(0) : rng(), y = t % 5 == 0 ? ~limb_t(0) : rng();
                acc.add_product(x, y);
                mpz_set_ui(term, x);
                mpz_mul_ui(term, term, y);
                mpz_add(sum, sum, term);
            }
            mpz_set_ui(w, acc.w2);
            mpz_mul_2exp(w, w, 64);
            mpz_add_ui(w, w, acc.w1);
            mpz_mul_2exp(w, w, 64);
            mpz_add_ui(w, w, acc.w0);
            ASSERT_EQ(mpz_cmp(w, sum), 0) << terms << " terms";
            ASSERT_EQ(m.reduce(acc), mpz_fdiv_ui(sum, n)) << terms << " terms mod " << n;
        }
    }
    mpz_clears(sum, term, w, nullptr);
}

// DigitSum (the kernels' multiply-accumulate in 32-bit digits) gives the same three words as
// ThreeWords, up to 2^16 products of all-ones words (the host's version of its carry chains).
TEST(Modulus, DigitSumsMatchThreeWordSums)
{
    std::mt19937_64 rng(5);
    for (const int terms : {1, 2, 3, 255, 4096, 1 << 16}) {
        for (const int shape : {0, 1, 2}) {
            ThreeWords expected;
            DigitSum digits;
            for (int t = 0; t < terms; ++t) {
                const limb_t x = shape == 0 ? ~limb_t(0) : shape == 1 && t % 2 ? limb_t(1) << 63 : rng();
                const limb_t y = shape == 0 ? ~limb_t(0) : rng();
                expected.add_product(x, y);
                digits.add_product(x, y);
            }
            const ThreeWords got = digits.words();
            ASSERT_EQ(got.w0, expected.w0) << terms << " terms, shape " << shape;
            ASSERT_EQ(got.w1, expected.w1) << terms << " terms, shape " << shape;
            ASSERT_EQ(got.w2, expected.w2) << terms << " terms, shape " << shape;
        }
    }
}

}  // namespace
}  // namespace zgpu::kernels
