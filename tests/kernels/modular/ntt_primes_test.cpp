// The generated NTT primes (kernels/modular/ntt_primes.hpp) against FLINT's primality test.
#include <random>

#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "kernels/modular/ntt_primes.hpp"

namespace zgpu::kernels {
namespace {

TEST(NttPrimes, AreTheLargestPrimesOneModTwoToThe32BelowTwoToThe62)
{
    const std::vector<limb_t> primes = ntt_primes(300);
    ASSERT_EQ(primes.size(), 300u);
    limb_t next = (limb_t(1) << 62) - (limb_t(1) << 32) + 1;  // the largest candidate
    for (const limb_t p : primes) {
        // Every candidate between two primes listed is composite.
        for (; next > p; next -= limb_t(1) << 32) ASSERT_FALSE(n_is_prime(next)) << next << " was skipped";
        ASSERT_EQ(next, p);
        EXPECT_TRUE(n_is_prime(p)) << p;
        EXPECT_EQ(p % (limb_t(1) << 32), 1u);
        EXPECT_LT(p, limb_t(1) << 62);
        next -= limb_t(1) << 32;
    }
    EXPECT_EQ(ntt_primes(0).size(), 0u);
    EXPECT_EQ(ntt_primes(4096).size(), 4096u);
}

TEST(NttPrimes, MillerRabinAgreesWithFlint)
{
    // Strong pseudoprimes to several bases, Carmichael numbers, squares of primes, and words
    // near 2^64.
    for (const limb_t n : {0ull, 1ull, 2ull, 3ull, 4ull, 561ull, 1373653ull, 25326001ull, 3215031751ull, 2152302898747ull, 3474749660383ull,
                           341550071728321ull, 3825123056546413051ull, 4294967291ull * 4294967291ull,
                           18446744073709551557ull, 18446744073709551615ull, 18446744073709551613ull})
        EXPECT_EQ(is_prime_word(n), bool(n_is_prime(n))) << n;
    std::mt19937_64 rng(5);
    for (int r = 0; r < 20000; ++r) {
        const limb_t n = rng() >> (r % 64);
        ASSERT_EQ(is_prime_word(n), bool(n_is_prime(n))) << n;
    }
}

}  // namespace
}  // namespace zgpu::kernels
