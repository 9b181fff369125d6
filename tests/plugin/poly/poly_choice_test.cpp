// The cost model of polynomial products: the target cases (timed for FLINT 3.6 on 16 threads)
// go to the GPU, single small products stay on the host, batches cross over later with more
// threads, and the estimates it uses.
#include <bit>
#include <vector>

#include <gtest/gtest.h>

#include "plugin/poly/poly_choice.hpp"

namespace zgpu::poly {
namespace {

// A product mod a 62-bit prime that is not NTT-friendly for the length (three primes).
PolyShape nmod_shape(std::uint64_t la, std::uint64_t lb)
{
    const std::uint64_t n = transform_length_estimate(la, lb);
    return {la, lb, la + lb - 1, 62, 62, n, 3};
}

PolyShape fmpz_shape(std::uint64_t length, std::uint64_t bits)
{
    const std::uint64_t n = transform_length_estimate(length, length);
    return {length, length, 2 * length - 1, bits, bits, n, crt_primes_estimate(2 * bits + 64)};
}

TEST(PolyChoice, Estimates)
{
    EXPECT_EQ(transform_length_estimate(1, 1), 16u);
    EXPECT_EQ(transform_length_estimate(9, 8), 16u);
    EXPECT_EQ(transform_length_estimate(9, 9), 32u);
    EXPECT_EQ(transform_length_estimate(1 << 20, 1 << 20), std::uint64_t(1) << 21);
    EXPECT_EQ(crt_primes_estimate(60), 1u);
    EXPECT_EQ(crt_primes_estimate(61), 2u);
    EXPECT_EQ(crt_primes_estimate(2100), 34u);
    const std::uint64_t ntt_prime = (std::uint64_t(1) << 62) - (std::uint64_t(1) << 32) * 57 + 1;
    EXPECT_EQ(nmod_primes_estimate(ntt_prime, std::uint64_t(1) << 21), 1u);
    EXPECT_EQ(nmod_primes_estimate(ntt_prime + 2, 16), 3u);
    EXPECT_EQ(nmod_primes_estimate(~std::uint64_t(0) - 58, 16), 3u);
}

TEST(PolyChoice, TheTargetCasesGoToTheGpu)
{
    for (const std::uint64_t length : {std::uint64_t(1) << 20, std::uint64_t(1) << 22}) {
        const PolyShape shape = nmod_shape(length, length);
        EXPECT_TRUE(gpu_pays_for_nmod_products({&shape, 1}, 16)) << "nmod, length " << length;
    }
    const std::vector<PolyShape> batch(10000, nmod_shape(1024, 1024));
    EXPECT_TRUE(gpu_pays_for_nmod_products(batch, 16));
    for (const auto& [length, bits] : {std::pair{1 << 14, 1024}, std::pair{1 << 16, 1024}, std::pair{1 << 16, 4096},
                                       std::pair{1 << 18, 256}, std::pair{1 << 12, 16384}})
        EXPECT_TRUE(gpu_pays_for_fmpz_poly_product(fmpz_shape(length, bits), 16)) << length << " x " << bits << " bits";
}

TEST(PolyChoice, SmallProductsStayOnTheHost)
{
    for (const std::uint64_t length : {1, 2, 16, 256}) {
        const PolyShape shape = nmod_shape(length, length);
        EXPECT_FALSE(gpu_pays_for_nmod_products({&shape, 1}, 16)) << "nmod, length " << length;
        EXPECT_FALSE(gpu_pays_for_fmpz_poly_product(fmpz_shape(length, 64), 16)) << "fmpz, length " << length;
    }
    EXPECT_FALSE(gpu_pays_for_nmod_products({}, 16));
    const std::vector<PolyShape> few(4, nmod_shape(64, 64));
    EXPECT_FALSE(gpu_pays_for_nmod_products(few, 16));
}

// Compositions over Z: the plugin's row (256 of 256 coefficients of 64 bits, which FLINT 3.6
// took 1.7 to 1.95 s for on 16 threads) goes to the GPU and FLINT's estimate is near what it
// took; short ones stay on the host.
TEST(PolyChoice, CompositionsGoToTheGpuFromSomeHundredCoefficients)
{
    const auto shape = [](std::uint64_t f_length, std::uint64_t h_length, std::uint64_t bits) {
        const std::uint64_t norm_bits = bits + std::uint64_t(std::bit_width(h_length));
        return ComposeShape{f_length, h_length, bits, bits, bits + 8 + (f_length - 1) * norm_bits};
    };
    const ComposeShape row = shape(256, 256, 64);
    EXPECT_TRUE(gpu_pays_for_fmpz_poly_compose(row, 16));
    EXPECT_GT(flint_fmpz_compose_seconds(row, 16), 0.5);
    EXPECT_LT(flint_fmpz_compose_seconds(row, 16), 6.0);
    EXPECT_GT(flint_fmpz_compose_seconds(row, 1), flint_fmpz_compose_seconds(row, 16));
    EXPECT_FALSE(gpu_pays_for_fmpz_poly_compose(shape(100000, 2, 64), 16)) << "a Taylor shift, FLINT's";
    EXPECT_FALSE(gpu_pays_for_fmpz_poly_compose(shape(4, 100000, 64), 16)) << "Horner's rule, FLINT's";
    for (const auto& [f_length, h_length] : {std::pair<std::uint64_t, std::uint64_t>{5, 3}, {10, 10}, {20, 5}})
        EXPECT_FALSE(gpu_pays_for_fmpz_poly_compose(shape(f_length, h_length, 64), 16)) << f_length << " of " << h_length;
}

// Powers mod f modulo a 62-bit prime, the exponent the prime (119 steps, 61 of them squarings):
// the plugin's row (degree 2^16) and nmod_poly_factor's (degree 3000) on the GPU; degrees of a
// few coefficients, and a single step of a few hundred, on the host. Powers of x cost FLINT its
// squarings alone, the GPU every step.
TEST(PolyChoice, PowersModFGoToTheGpuFromSomeHundredCoefficients)
{
    const std::uint64_t p = (std::uint64_t(1) << 62) - 57;
    EXPECT_EQ(powering_squarings(p), 61u);
    EXPECT_EQ(powering_steps(p), 61u + std::uint64_t(std::popcount(p)) - 1);
    EXPECT_EQ(powering_steps(1), 0u);
    EXPECT_EQ(powering_steps(2), 1u);
    EXPECT_EQ(powering_steps(3), 2u);
    const std::uint64_t steps = powering_steps(p);
    EXPECT_TRUE(gpu_pays_for_nmod_powmod(std::uint64_t(1) << 16, steps, steps, p, 16));
    EXPECT_TRUE(gpu_pays_for_nmod_powmod(3000, steps, steps, p, 16));
    EXPECT_TRUE(gpu_pays_for_nmod_powmod(3000, steps, powering_squarings(p), p, 16));
    EXPECT_FALSE(gpu_pays_for_nmod_powmod(16, steps, steps, p, 16));
    EXPECT_FALSE(gpu_pays_for_nmod_powmod(300, 1, 1, p, 16));
    EXPECT_FALSE(gpu_pays_for_nmod_powmod(1, steps, steps, p, 16));
    EXPECT_FALSE(gpu_pays_for_nmod_powmod(3000, 0, 0, p, 16));
    // Where FLINT's steps are fewer, a degree the GPU takes for a power of a polynomial can stay.
    bool somewhere_apart = false;
    for (std::uint64_t m = 64; m <= 4096; m *= 2)
        somewhere_apart = somewhere_apart || (gpu_pays_for_nmod_powmod(m, steps, steps, p, 16) &&
                                              !gpu_pays_for_nmod_powmod(m, steps, powering_squarings(p), p, 16));
    EXPECT_TRUE(somewhere_apart);
}

// Where bench_poly's crossover table on an H100 with 16 host threads put the faster backend.
TEST(PolyChoice, TheMeasuredCrossoversAreFollowed)
{
    EXPECT_FALSE(gpu_pays_for_fmpz_poly_product(fmpz_shape(1024, 64), 16)) << "0.14 ms on the host, 0.19 on the GPU";
    EXPECT_TRUE(gpu_pays_for_fmpz_poly_product(fmpz_shape(4096, 64), 16)) << "0.84 ms on the host, 0.67 on the GPU";
    EXPECT_FALSE(gpu_pays_for_fmpz_poly_product(fmpz_shape(16, 1024), 16)) << "0.08 ms on the host, 0.10 on the GPU";
    EXPECT_TRUE(gpu_pays_for_fmpz_poly_product(fmpz_shape(64, 1024), 16)) << "0.28 ms on the host, 0.12 on the GPU";
    const PolyShape short_nmod = nmod_shape(256, 256), mid_nmod = nmod_shape(1024, 1024), long_nmod = nmod_shape(4096, 4096);
    EXPECT_FALSE(gpu_pays_for_nmod_products({&short_nmod, 1}, 16)) << "0.016 ms on the host, 0.049 on the GPU";
    EXPECT_TRUE(gpu_pays_for_nmod_products({&mid_nmod, 1}, 16)) << "0.070 ms on the host, 0.055 on the GPU";
    EXPECT_TRUE(gpu_pays_for_nmod_products({&long_nmod, 1}, 16)) << "0.23 ms on the host, 0.085 on the GPU";
}

TEST(PolyChoice, BatchesCrossOverLaterWithMoreThreads)
{
    const std::vector<PolyShape> batch(100, nmod_shape(1024, 1024));
    EXPECT_TRUE(gpu_pays_for_nmod_products(batch, 1));
    EXPECT_FALSE(gpu_pays_for_nmod_products(batch, 64));
}

TEST(PolyChoice, FlintCostsGrowWithLengthAndBits)
{
    EXPECT_LT(flint_nmod_seconds(nmod_shape(100, 100)), flint_nmod_seconds(nmod_shape(1000, 100)));
    EXPECT_LT(flint_fmpz_seconds(fmpz_shape(100, 64)), flint_fmpz_seconds(fmpz_shape(100, 640)));
    EXPECT_LT(flint_fmpz_seconds(fmpz_shape(100, 64)), flint_fmpz_seconds(fmpz_shape(1000, 64)));
}

}  // namespace
}  // namespace zgpu::poly
