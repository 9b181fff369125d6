// The kept prime sets (plugin/modular/product_primes.hpp): the set for_bits gives, and the same
// object again for the bits it serves; ranges of the generated primes, and the same object again
// for the same range.
#include <utility>

#include <gtest/gtest.h>

#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"

namespace zgpu {
namespace {

TEST(ProductPrimes, AreForBitsAndKept)
{
    for (std::uint64_t bits = 0; bits < 700; ++bits) {
        const PrimeSet set = product_primes(bits);
        ASSERT_TRUE(set.same_moduli(PrimeSet::for_bits(bits, true))) << bits << " bits";
        EXPECT_EQ(&product_primes(bits).state(), &set.state()) << "kept, " << bits << " bits";
    }
    const PrimeSet set = product_primes(5000);
    product_primes(20000);
    product_primes(30000);
    EXPECT_EQ(&product_primes(5000).state(), &set.state()) << "a few sets are kept";
}

TEST(ProductPrimes, RangesAreSharesOfTheGeneratedPrimesAndKept)
{
    const PrimeSet all = PrimeSet::generated(300);
    for (const auto& [first, count] : {std::pair<std::size_t, std::size_t>{0, 1}, {0, 300}, {17, 100}, {299, 1}, {120, 0}}) {
        const PrimeSet share = kept_primes_range(first, count);
        ASSERT_TRUE(share.same_moduli(PrimeSet(all.moduli().subspan(first, count)))) << first << ", " << count;
        EXPECT_EQ(&kept_primes_range(first, count).state(), &share.state()) << "kept";
        EXPECT_TRUE(PrimeSet::generated_range(first, count).same_moduli(share));
    }
}

}  // namespace
}  // namespace zgpu
