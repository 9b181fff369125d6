// The word-division primitives of schoolbook division (kernels/word_division.hpp), on the
// host against GMP: the same functions run on the device.
#include <random>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/common/word_division.hpp"

namespace zgpu::kernels {
namespace {

// value = sum of words[k] B^k, as GMP sees it.
void set_words(mpz_t value, std::initializer_list<limb_t> high_to_low)
{
    mpz_set_ui(value, 0);
    for (const limb_t w : high_to_low) {
        mpz_mul_2exp(value, value, 64);
        mpz_add_ui(value, value, w);
    }
}

// The low word of floor(u / d), whose high part must be `high` (1 for reciprocals, which
// drop B).
limb_t expected_quotient(std::initializer_list<limb_t> u, std::initializer_list<limb_t> d, limb_t high = 0)
{
    mpz_t x, y, q;
    mpz_inits(x, y, q, nullptr);
    set_words(x, u);
    set_words(y, d);
    mpz_fdiv_q(q, x, y);
    const limb_t result = mpz_get_ui(q);
    mpz_fdiv_q_2exp(q, q, 64);
    EXPECT_EQ(mpz_cmp_ui(q, high), 0);
    mpz_clears(x, y, q, nullptr);
    return result;
}

// Normalized divisors: random, and the edges of the reciprocal's corrections.
std::vector<std::pair<limb_t, limb_t>> divisors(std::mt19937_64& rng)
{
    const limb_t top = limb_t(1) << 63, ones = ~limb_t(0);
    std::vector<std::pair<limb_t, limb_t>> d = {{top, 0}, {top, 1}, {top, ones}, {ones, 0}, {ones, ones}, {top + 1, ones}};
    for (int k = 0; k < 2000; ++k) d.push_back({rng() | top, k % 3 == 0 ? 0 : k % 3 == 1 ? ones - rng() % 4 : rng()});
    return d;
}

TEST(WordDivision, ReciprocalsAreTheFloorsTheyClaim)
{
    std::mt19937_64 rng(51);
    for (const auto& [d1, d0] : divisors(rng)) {
        const limb_t ones = ~limb_t(0);
        EXPECT_EQ(reciprocal_word(d1), expected_quotient({ones, ones}, {d1}, 1)) << d1;
        EXPECT_EQ(reciprocal_two_words(d1, d0), expected_quotient({ones, ones, ones}, {d1, d0}, 1))
            << d1 << " " << d0;
    }
}

// The floating-point estimate and its corrections over many divisors, near both ends too.
TEST(WordDivision, ReciprocalWordOverManyDivisors)
{
    std::mt19937_64 rng(54);
    const limb_t top = limb_t(1) << 63;
    for (int k = 0; k < 1000000; ++k) {
        const limb_t d = k < 1000 ? top + k : k < 2000 ? ~limb_t(0) - (k - 1000) : rng() | top;
        const limb_t expected = limb_t(((unsigned __int128)~d << 64 | ~limb_t(0)) / d);
        ASSERT_EQ(reciprocal_word(d), expected) << d;
    }
}

TEST(WordDivision, ThreeByTwoQuotientsMatchGmp)
{
    std::mt19937_64 rng(52);
    const limb_t ones = ~limb_t(0);
    for (const auto& [d1, d0] : divisors(rng)) {
        const limb_t v = reciprocal_two_words(d1, d0);
        // (u2, u1) < (d1, d0): just below it, zero, and random.
        const limb_t below_d0 = d0 ? d0 - 1 : ones, below_d1 = d0 ? d1 : d1 - 1;
        const std::initializer_list<limb_t> cases[] = {
            {below_d1, below_d0, ones}, {below_d1, below_d0, 0}, {0, 0, rng()}, {0, 0, 0},
            {rng() % d1, rng(), rng()}, {d1 - 1, ones, ones}, {rng() % d1, d0, 0}};
        for (const auto& u : cases) {
            const limb_t* w = u.begin();
            EXPECT_EQ(divide_three_by_two(w[0], w[1], w[2], d1, d0, v), expected_quotient(u, {d1, d0}))
                << w[0] << " " << w[1] << " " << w[2] << " / " << d1 << " " << d0;
        }
    }
}

}  // namespace
}  // namespace zgpu::kernels
