// PrimeSet: validation of the caller's moduli, the generated primes, and the stated bounds.
#include <string>
#include <vector>

#include <flint/fmpz.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/error.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::testing {
namespace {

using Moduli = std::vector<limb_t>;

// The message of the Error that make() throws ("" if none).
template <class Make>
std::string error_of(Make make)
{
    try {
        make();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

bool represents(const PrimeSet& set, const fmpz* bound, bool sign) { return set.represents(bound, sign); }

bool represents_si(const PrimeSet& set, slong bound, bool sign)
{
    FmpzTemp b;
    fmpz_set_si(b.get(), bound);
    return represents(set, b.get(), sign);
}

TEST(PrimeSet, BadModuliAreNamed)
{
    EXPECT_NE(error_of([] { PrimeSet(Moduli{5, 0}); }).find("prime set: moduli[1] = 0 is below 2"), std::string::npos);
    EXPECT_NE(error_of([] { PrimeSet(Moduli{1}); }).find("prime set: moduli[0] = 1 is below 2"), std::string::npos);
    EXPECT_NE(error_of([] { PrimeSet(Moduli{7, 11, 13, 11}); }).find("moduli[1] and moduli[3] are equal (11)"), std::string::npos);
    const std::string factor = error_of([] { PrimeSet(Moduli{9, 25, 4, 7, 14}); });
    EXPECT_NE(factor.find("moduli[2] and moduli[4] share the factor 2"), std::string::npos)
        << factor;
    // 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417.
    const std::string three = error_of([] { PrimeSet(Moduli{2, ~limb_t(0), 7, 9}); });
    EXPECT_NE(three.find("moduli[1] and moduli[3] share the factor 3"), std::string::npos) << three;
}

// No moduli: P = 1, as FLINT 3's multi-modular functions allow; what computes modulo the
// primes refuses it.
TEST(PrimeSet, TheEmptySetHasProductOne)
{
    for (const PrimeSet& set : {PrimeSet(Moduli{}), PrimeSet::generated(0)}) {
        EXPECT_EQ(set.size(), 0u);
        EXPECT_TRUE(fmpz_is_one(set.product()));
        EXPECT_EQ(set.product_bits(), 1u);
        EXPECT_TRUE(represents_si(set, 0, true));
        EXPECT_TRUE(represents_si(set, 0, false));
        EXPECT_FALSE(represents_si(set, 1, false));
        EXPECT_NE(error_of([&] { set.state().comb(); }).find("prime set: no moduli"), std::string::npos);
    }
}

TEST(PrimeSet, CoprimeCompositesAndWordEdgesAreAccepted)
{
    const PrimeSet set(Moduli{~limb_t(0), 2, 7, 11 * 13, 19 * 23, (limb_t(1) << 63) - 25});
    EXPECT_EQ(set.size(), 6u);
    EXPECT_EQ(set.moduli()[0], ~limb_t(0));
    FmpzTemp p;
    fmpz_one(p.get());
    for (const limb_t n : set.moduli()) fmpz_mul_ui(p.get(), p.get(), n);
    EXPECT_TRUE(fmpz_equal(p.get(), set.product()));
    EXPECT_EQ(set.product_bits(), fmpz_bits(p.get()));
}

TEST(PrimeSet, GeneratedPrimesAreNttFriendlyAndDescendFromTwoToThe62)
{
    const PrimeSet set = PrimeSet::generated(4096);
    ASSERT_EQ(set.size(), 4096u);
    const auto primes = set.moduli();
    for (std::size_t i = 0; i < primes.size(); ++i) {
        ASSERT_TRUE(n_is_prime(primes[i])) << i;
        ASSERT_EQ(primes[i] % (limb_t(1) << 32), 1u) << i;
        ASSERT_LT(primes[i], limb_t(1) << 62) << i;
        if (i > 0) {
            ASSERT_LT(primes[i], primes[i - 1]) << i;
        }
    }
    // None skipped: no prime of that form lies between consecutive ones, nor above the first.
    for (limb_t p = (limb_t(1) << 62) - (limb_t(1) << 32) + 1; p > primes[0]; p -= limb_t(1) << 32)
        EXPECT_FALSE(n_is_prime(p)) << p;
    for (std::size_t i = 1; i < 64; ++i)
        for (limb_t p = primes[i - 1] - (limb_t(1) << 32); p > primes[i]; p -= limb_t(1) << 32) EXPECT_FALSE(n_is_prime(p)) << p;
    const PrimeSet first = PrimeSet::generated(3);
    EXPECT_TRUE(std::equal(first.moduli().begin(), first.moduli().end(), primes.begin()));
}

TEST(PrimeSet, BoundsFollowFlintsSymmetricRange)
{
    // P = 6, even: signed values -2 .. 3, so |x| <= 2 fits and |x| <= 3 does not (-3 is lost).
    const PrimeSet even(Moduli{2, 3});
    EXPECT_TRUE(represents_si(even, 2, true));
    EXPECT_FALSE(represents_si(even, 3, true));
    EXPECT_TRUE(represents_si(even, 5, false));
    EXPECT_FALSE(represents_si(even, 6, false));
    // P = 7, odd: -3 .. 3.
    const PrimeSet odd(Moduli{7});
    EXPECT_TRUE(represents_si(odd, 3, true));
    EXPECT_FALSE(represents_si(odd, 4, true));
    EXPECT_TRUE(represents_si(odd, 0, true));
    EXPECT_NE(error_of([&] { represents_si(odd, -1, true); }).find("negative"), std::string::npos);
}

TEST(PrimeSet, ForBitsTakesTheFewestPrimes)
{
    for (const std::uint64_t bits : {0u, 1u, 61u, 62u, 63u, 123u, 124u, 1000u, 4096u, 8193u}) {
        for (const bool sign : {false, true}) {
            const PrimeSet set = PrimeSet::for_bits(bits, sign);
            FmpzTemp bound;
            fmpz_one(bound.get());
            fmpz_mul_2exp(bound.get(), bound.get(), bits);
            fmpz_sub_ui(bound.get(), bound.get(), 1);
            EXPECT_TRUE(represents(set, bound.get(), sign)) << bits << " bits, sign " << sign;
            if (set.size() > 1) {
                EXPECT_FALSE(represents(PrimeSet::generated(set.size() - 1), bound.get(), sign)) << bits << " bits";
            }
        }
    }
}

}  // namespace
}  // namespace zgpu::testing
