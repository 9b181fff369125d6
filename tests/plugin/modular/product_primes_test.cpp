// The kept prime sets of products over Z (plugin/modular/product_primes.hpp): the set for_bits
// gives, and the same object again for the bits it serves.
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

}  // namespace
}  // namespace zgpu
