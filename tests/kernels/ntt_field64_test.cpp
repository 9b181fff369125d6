// The 64-bit NTT field (kernels/ntt/ntt_field64.hpp) on the host against 128-bit arithmetic:
// Montgomery products at the edges of their input bounds, products by twiddles with Shoup's
// companion and the butterflies at theirs, the word reduction, conversions, and roots of unity
// of every order the NTT primes allow.
#include <random>

#include <gtest/gtest.h>

#include "kernels/modular/ntt_primes.hpp"
#include "kernels/ntt/lazy_butterflies.hpp"
#include "kernels/ntt/ntt_field64.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

using u128 = unsigned __int128;

limb_t mul_mod(limb_t x, limb_t y, limb_t p) { return limb_t(u128(x) * y % p); }

// x y / R mod p for x y below 4p^2, the Montgomery product's value.
limb_t montgomery_expected(limb_t x, limb_t y, limb_t p)
{
    const limb_t r_inverse = limb_t([&] {
        limb_t r = limb_t((u128(1) << 64) % p), inverse = 1;  // R^-1 = R^(p-2)
        for (limb_t e = p - 2; e; e >>= 1, r = mul_mod(r, r, p))
            if (e & 1) inverse = mul_mod(inverse, r, p);
        return inverse;
    }());
    return limb_t(u128(x) * y % p * r_inverse % p);
}

TEST(NttField64, ProductsReductionsAndConversions)
{
    std::mt19937_64 rng(64);
    std::vector<limb_t> primes = kernels::ntt_primes(2);
    primes.push_back(kernels::ntt_primes(1000).back());
    primes.push_back(1000000007);
    for (const limb_t p : primes) {
        SCOPED_TRACE(p);
        const kernels::Field64 f = kernels::make_field64(p);
        const limb_t edges[] = {0, 1, p - 1, p, 2 * p - 1, 4 * p - 1, ~limb_t(0)};
        for (int trial = 0; trial < 2000; ++trial) {
            const limb_t x = trial < 7 ? edges[trial] : rng() % (4 * p), y = trial % 3 == 0 ? p - 1 : rng() % p;
            if (x < 4 * p) {
                const limb_t m = f.mul(x, y);
                EXPECT_LT(m, 2 * p);
                EXPECT_EQ(m % p, montgomery_expected(x % p, y, p));
            }
            const limb_t w = trial < 7 ? edges[trial] : rng();
            const limb_t r = f.reduce_word(w);
            EXPECT_LT(r, 2 * p);
            EXPECT_EQ(r % p, w % p);
            EXPECT_EQ(f.from_montgomery(f.to_montgomery(w)), w % p);
        }
        // Lazy inputs below 2p on both sides, as the pointwise products have them.
        EXPECT_LT(f.mul(2 * p - 1, 2 * p - 1), 2 * p);
    }
}

// The corrections by one subtraction's sign: every input up to the bound, at both sides of the
// step, for the largest primes (2p close to 2^63) and a small one.
TEST(NttField64, CorrectionsAtTheirBounds)
{
    std::vector<limb_t> primes = kernels::ntt_primes(2);
    primes.push_back(1000000007);
    for (const limb_t p : primes) {
        SCOPED_TRACE(p);
        const kernels::Field64 f = kernels::make_field64(p);
        for (const limb_t x : {limb_t(0), limb_t(1), p - 1, p, p + 1, 2 * p - 1}) EXPECT_EQ(f.normal(x), x % p) << x;
        for (const limb_t x : {limb_t(0), p, 2 * p - 1, 2 * p, 2 * p + 1, 3 * p, 4 * p - 1})
            EXPECT_EQ(f.lazy(x), x >= 2 * p ? x - 2 * p : x) << x;
    }
}

TEST(NttField64, TwiddleProductsAndButterflies)
{
    std::mt19937_64 rng(65);
    for (const limb_t p : {kernels::ntt_primes(1)[0], kernels::ntt_primes(1000).back(), limb_t(1000000007)}) {
        SCOPED_TRACE(p);
        const kernels::Field64 f = kernels::make_field64(p);
        const limb_t words[] = {0, 1, p - 1, 2 * p - 1, 4 * p - 1, ~limb_t(0)};
        for (int trial = 0; trial < 2000; ++trial) {
            const limb_t w = trial % 4 == 0 ? p - 1 : trial % 4 == 1 ? 1 : rng() % p;
            const kernels::Twiddle64 t = f.twiddle(f.to_montgomery(w));
            ASSERT_EQ(t.w, w);
            // Any word times the twiddle, into [0, 2p).
            const limb_t x = trial < 6 ? words[trial] : rng();
            const limb_t product = f.mul_twiddle(x, t);
            EXPECT_LT(product, 2 * p);
            EXPECT_EQ(product % p, mul_mod(x % p, w, p));
            // Forward butterflies on inputs below 2p, inverse ones on inputs below 4p, the largest
            // included; the unit ones likewise.
            const limb_t u0 = trial < 6 ? 2 * p - 1 : rng() % (2 * p), v0 = trial < 6 ? 2 * p - 1 - trial % 2 : rng() % (2 * p);
            // The outputs of a forward butterfly on (u0, v0) by the twiddle w (1: the unit one).
            const auto check_forward = [&](limb_t u, limb_t v, limb_t w) {
                EXPECT_LT(u, 2 * p);
                EXPECT_LT(v, 2 * p);
                EXPECT_EQ(u % p, (u0 % p + v0 % p) % p);
                EXPECT_EQ(v % p, mul_mod((u0 % p + p - v0 % p) % p, w, p));
            };
            limb_t u = u0, v = v0;
            kernels::forward_butterfly(f, u, v, t, 2, 2, 2);
            check_forward(u, v, w);
            u = u0, v = v0;
            kernels::forward_unit_butterfly(f, u, v, 2, 2, 2);
            check_forward(u, v, 1);
            const limb_t x0 = trial < 6 ? 4 * p - 1 : rng() % (4 * p), y0 = trial < 6 ? 4 * p - 1 - trial % 2 : rng() % (4 * p);
            // The outputs of an inverse butterfly on (x0, y0) by the twiddle w (1: the unit one).
            const auto check_inverse = [&](limb_t u, limb_t v, limb_t w) {
                const limb_t yw = mul_mod(y0 % p, w, p);
                EXPECT_LT(u, 4 * p);
                EXPECT_LT(v, 4 * p);
                EXPECT_EQ(u % p, (x0 % p + yw) % p);
                EXPECT_EQ(v % p, (x0 % p + p - yw) % p);
            };
            u = x0, v = y0;
            kernels::inverse_butterfly(f, u, v, t, 4, 2);
            check_inverse(u, v, w);
            EXPECT_EQ(f.exact(u), u % p);
            u = x0, v = y0;
            kernels::inverse_unit_butterfly(f, u, v, 4, 4, 2, 2);
            check_inverse(u, v, 1);
        }
    }
}

TEST(NttField64, RootsOfUnityHaveTheirOrder)
{
    const limb_t p = kernels::ntt_primes(1)[0];
    const kernels::Field64 f = kernels::make_field64(p);
    const limb_t one = f.to_montgomery(1);
    for (const std::uint32_t length : {2u, 1024u, 1u << 24, 1u << 31}) {
        const limb_t w = kernels::root_of_unity64(f, length);
        EXPECT_EQ(f.pow(w, length), one);
        EXPECT_NE(f.pow(w, length / 2), one);
    }
}

// A prime whose p - 1 has few factors of two takes transforms up to that power only.
TEST(NttField64, RootsNeedTheLengthToDivideTheGroupOrder)
{
    const kernels::Field64 f = kernels::make_field64(1000000007);  // p - 1 = 2 * 500000003
    EXPECT_NO_THROW(kernels::root_of_unity64(f, 2));
    EXPECT_THROW(kernels::root_of_unity64(f, 4), Error);
}

}  // namespace
}  // namespace zgpu::testing
