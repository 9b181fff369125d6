// The NTT's prime-field arithmetic and CRT (kernels/ntt_field.hpp), on the host: the same
// functions run on the device.
#include <random>

#include <gtest/gtest.h>

#include "kernels/ntt/lazy_butterflies.hpp"
#include "kernels/ntt/ntt_field.hpp"

namespace zgpu::kernels {
namespace {

using u128 = unsigned __int128;

TEST(NttField, PrimesAreNttPrimesAndRootsHaveTheirOrder)
{
    for (const std::uint32_t p : kNttPrimes) {
        const PrimeField f = make_field(p);
        EXPECT_LT(p, 1u << 31);
        EXPECT_EQ((p - 1) % kNttMaxLength, 0u) << p;
        for (std::uint32_t d = 2; std::uint64_t(d) * d <= p; ++d) ASSERT_NE(p % d, 0u) << p << " is not prime";
        EXPECT_EQ(std::uint32_t(p * f.inverse_p), 1u);
        for (std::uint32_t length = 2; length <= kNttMaxLength; length *= 2) {
            const std::uint32_t w = root_of_unity(f, length);
            EXPECT_EQ(f.pow(w, length), 1u);
            EXPECT_EQ(f.pow(w, length / 2), p - 1) << "order of the root of length " << length;
            if (length > 2) {
                EXPECT_EQ(std::uint64_t(w) * w % p, root_of_unity(f, length / 2)) << "w_M^2 = w_(M/2), M = " << length;
            }
        }
    }
}

TEST(NttField, ArithmeticMatchesIntegerArithmetic)
{
    std::mt19937_64 rng(31);
    for (const std::uint32_t p : kNttPrimes) {
        const PrimeField f = make_field(p);
        EXPECT_LT(p, 1u << 30);  // lazy residues below 2p, sums below 4p < 2^32
        // Exact residues in [0, p) and lazy ones in [0, 2p), edges first.
        const std::uint32_t edges[] = {0, 1, p - 1, p, p + 1, 2 * p - 1};
        for (int k = 0; k < 300000; ++k) {
            const std::uint32_t x = k < 36 ? edges[k % 6] : std::uint32_t(rng() % (2 * p));
            const std::uint32_t y = k < 36 ? edges[k / 6] : std::uint32_t(rng() % (2 * p));
            const std::uint32_t xe = x % p, ye = y % p;
            const std::uint32_t any = k < 8 ? std::uint32_t(0xffffffffu - k) : std::uint32_t(rng());
            ASSERT_EQ(f.normal(x), xe);
            ASSERT_EQ(f.add(xe, ye), (std::uint64_t(xe) + ye) % p);
            ASSERT_EQ(f.sub(xe, ye), (std::uint64_t(xe) + p - ye) % p);
            ASSERT_EQ(f.mul(any, ye, f.shoup(ye)), std::uint64_t(any) * ye % p);
            const std::uint32_t lazy_product = f.mul_lazy(any, ye, f.shoup(ye)), word = f.reduce_word(any);
            ASSERT_LT(lazy_product, 2 * p);
            ASSERT_EQ(lazy_product % p, std::uint64_t(any) * ye % p);
            ASSERT_LT(word, 2 * p);
            ASSERT_EQ(word % p, any % p);
            // x * y * 2^-32 on lazy inputs: below 2p; times 2^32 it is x * y.
            const std::uint32_t montgomery = f.mul_montgomery(x, y);
            ASSERT_LT(montgomery, 2 * p);
            ASSERT_EQ((u128(montgomery) << 32) % p, std::uint64_t(xe) * ye % p);
            // Butterflies with the bounds of a field with room for 4p (butterfly_bounds.hpp):
            // forward ones on inputs below 2p, inverse ones on inputs below 4p (x, y and 2x, 2y),
            // the unit ones likewise; outputs below 2p and 4p, the right classes.
            // The outputs of a forward butterfly on (x, y) by the twiddle w (1: the unit one).
            const auto check_forward = [&](std::uint32_t u, std::uint32_t v, std::uint64_t w) {
                ASSERT_LT(u, 2 * p);
                ASSERT_LT(v, 2 * p);
                ASSERT_EQ(u % p, (std::uint64_t(xe) + ye) % p);
                ASSERT_EQ(v % p, (std::uint64_t(xe) + p - ye) * w % p);
            };
            std::uint32_t u = x, v = y;
            forward_butterfly(f, u, v, ShoupFactor{ye, f.shoup(ye)}, 2, 2, 2);
            check_forward(u, v, ye);
            u = x, v = y;
            forward_unit_butterfly(f, u, v, 2, 2, 2);
            check_forward(u, v, 1);
            const std::uint32_t x4 = 2 * x + (k % 2), y4 = 2 * y + (k / 2 % 2);  // up to 4p - 1
            const std::uint32_t x4e = x4 % p, y4e = y4 % p;
            // The outputs of an inverse butterfly on (x4, y4) by the twiddle w (1: the unit one).
            const auto check_inverse = [&](std::uint32_t u, std::uint32_t v, std::uint64_t w) {
                const std::uint64_t t = y4e * w % p;
                ASSERT_LT(u, 4 * p);
                ASSERT_LT(v, 4 * p);
                ASSERT_EQ(u % p, (x4e + t) % p);
                ASSERT_EQ(v % p, (x4e + p - t) % p);
            };
            u = x4, v = y4;
            inverse_butterfly(f, u, v, ShoupFactor{xe, f.shoup(xe)}, 4, 2);
            check_inverse(u, v, xe);
            ASSERT_EQ(f.exact(u), u % p);
            u = x4, v = y4;
            inverse_unit_butterfly(f, u, v, 4, 4, 2, 2);
            check_inverse(u, v, 1);
        }
    }
}

TEST(NttField, CrtRecoversEveryValueBelowTheModulus)
{
    const u128 modulus = u128(kNttPrimes[0]) * kNttPrimes[1] * kNttPrimes[2];
    std::mt19937_64 rng(32);
    // The largest coefficient a supported product can have, and values around the modulus.
    const u128 digit = 0xffffffffu;
    const u128 edges[] = {0, 1, kNttMaxMinDigits * digit * digit, modulus - 1, modulus / 2, u128(1) << 64};
    for (int k = 0; k < 200000; ++k) {
        const u128 x = k < 6 ? edges[k] : ((u128(rng()) << 64) | rng()) % modulus;
        const Words96 c = crt_combine(std::uint32_t(x % kNttPrimes[0]), std::uint32_t(x % kNttPrimes[1]),
                                      std::uint32_t(x % kNttPrimes[2]));
        const u128 back = u128(c.word[0]) | u128(c.word[1]) << 32 | u128(c.word[2]) << 64;
        ASSERT_TRUE(back == x) << "k = " << k;
    }
}

}  // namespace
}  // namespace zgpu::kernels
