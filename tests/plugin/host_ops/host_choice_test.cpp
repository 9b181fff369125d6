// The automatic choice's rules against the crossovers measured end to end on an H200 host with
// 16 threads (plugin/host_choice.cpp): each measured point on the side where it was faster.
#include <gtest/gtest.h>

#include "plugin/host_ops/host_choice.hpp"

namespace zgpu::testing {
namespace {

constexpr unsigned kMeasuredThreads = 16;

bool products_pay(std::uint64_t a, std::uint64_t b, std::size_t count, unsigned threads = kMeasuredThreads)
{
    return gpu_pays_for_host_products({a, b, false, count}, threads);
}

TEST(HostChoice, ProductsGoToTheGpuFromTheMeasuredBatchSizes)
{
    EXPECT_FALSE(products_pay(16, 16, 16384));  // 1024 bits: 0.32 ms on the host, 0.37 on the GPU
    EXPECT_TRUE(products_pay(16, 16, 65536));   // 1.32 against 0.69
    EXPECT_FALSE(products_pay(32, 32, 1024));   // 2048 bits: 0.076 against 0.104
    EXPECT_TRUE(products_pay(32, 32, 4096));    // 0.29 against 0.25
    EXPECT_FALSE(products_pay(64, 64, 256));    // 4096 bits: 0.052 against 0.078
    EXPECT_TRUE(products_pay(64, 64, 1024));    // 0.21 against 0.13
    EXPECT_FALSE(products_pay(256, 256, 16));   // 16384 bits: 0.037 against 0.051
    EXPECT_TRUE(products_pay(256, 256, 64));    // 0.13 against 0.07
    EXPECT_TRUE(products_pay(1024, 1024, 2));   // 65536 bits: two pay (one, 0.22 against 0.08, is the rule's miss)
    EXPECT_TRUE(products_pay(16384, 16384, 1)); // 2^20 bits: 4.0 against 0.2
}

TEST(HostChoice, ProductsThatDoTooFewLimbProductsALimbMovedNeverPay)
{
    for (const std::size_t count : {std::size_t(1) << 10, std::size_t(1) << 30}) {
        EXPECT_FALSE(products_pay(8, 8, count));
        EXPECT_FALSE(products_pay(300, 4, count));
        EXPECT_FALSE(products_pay(256, 1, count));
        EXPECT_FALSE(products_pay(1, 1, count));
    }
    EXPECT_TRUE(products_pay(32, 8, std::size_t(1) << 20));  // 3.2 a limb moved: pays in large batches
    EXPECT_FALSE(products_pay(16, 16, 0));
}

TEST(HostChoice, ProductsOfAScalarMoveItOnce)
{
    // 16 x 16 limbs with b shared moves 48 limbs a product, not 64: more excess a product.
    const std::size_t count = 12000;
    EXPECT_FALSE(products_pay(16, 16, count));
    EXPECT_TRUE(gpu_pays_for_host_products({16, 16, true, count}, kMeasuredThreads));
}

TEST(HostChoice, FewerHostThreadsSendSmallerBatchesToTheGpu)
{
    // 1024 bits: 64 limb products beyond 3 a limb moved, 2^16 of them a thread.
    EXPECT_FALSE(products_pay(16, 16, 1024, 1));
    EXPECT_TRUE(products_pay(16, 16, 1025, 1));
    EXPECT_FALSE(products_pay(16, 16, 16384, 16));
    EXPECT_TRUE(products_pay(16, 16, 16385, 16));
}

TEST(HostChoice, ExactDivisionGoesToTheGpuFromTheMeasuredBatchSizes)
{
    const auto pays = [](std::uint64_t a, std::uint64_t b, std::size_t count) {
        return gpu_pays_for_host_exact_division({a, b, false, count}, kMeasuredThreads);
    };
    EXPECT_FALSE(pays(64, 32, 1024));     // 4096-bit dividends: 0.076 ms on the host against 0.102 on the GPU
    EXPECT_TRUE(pays(64, 32, 4096));      // 0.30 against 0.22
    EXPECT_FALSE(pays(256, 128, 1024));   // 16384 bits: 0.67 against 0.92
    EXPECT_TRUE(pays(256, 128, 4096));    // 2.6 against 1.2
    EXPECT_FALSE(pays(512, 256, 256));    // 32768 bits: 0.49 against 0.63
    EXPECT_TRUE(pays(512, 256, 1024));    // 2.2 against 1.2
    EXPECT_FALSE(pays(2048, 1024, 16));   // 131072 bits: 0.32 against 0.50
    EXPECT_TRUE(pays(2048, 1024, 64));    // 1.28 against 0.85
    EXPECT_FALSE(pays(4096, 1, std::size_t(1) << 20));  // one-limb divisors: cheap on the host
    EXPECT_FALSE(pays(512, 256, 0));
}

TEST(HostChoice, DivisionWithRemainderGoesToTheGpuFromTheMeasuredBatchSizes)
{
    const auto pays = [](std::uint64_t a, std::uint64_t b, std::size_t count) {
        return gpu_pays_for_host_division({a, b, false, count}, kMeasuredThreads);
    };
    // Measured on the pipelined path, dividends twice the divisors, ms on the host against the GPU.
    EXPECT_FALSE(pays(64, 32, 256));     // 4096 bits: 0.047 against 0.102
    EXPECT_TRUE(pays(64, 32, 4096));     // 0.71 against 0.35
    EXPECT_FALSE(pays(256, 128, 64));    // 16384 bits: 0.093 against 0.144
    EXPECT_TRUE(pays(256, 128, 256));    // 0.35 against 0.18
    EXPECT_FALSE(pays(512, 256, 16));    // 32768 bits: 0.067 against 0.23
    EXPECT_TRUE(pays(512, 256, 256));    // 0.98 against 0.44
    EXPECT_FALSE(pays(64, 64, std::size_t(1) << 20));    // one-limb quotients
    EXPECT_FALSE(pays(40, 32, std::size_t(1) << 20));    // 9-limb quotients: fewer limb products than limbs moved
    EXPECT_TRUE(pays(4096, 256, std::size_t(1) << 10));  // long quotients by long divisors
    EXPECT_FALSE(pays(4096, 1, std::size_t(1) << 20));  // one-limb divisors: cheap on the host
    EXPECT_FALSE(pays(512, 256, 0));
}

TEST(HostChoice, AddmulGoesToTheGpuFromTheMeasuredBatchSizes)
{
    const auto pays = [](std::uint64_t limbs, std::size_t count, std::uint64_t r_limbs) {
        return gpu_pays_for_host_addmul({limbs, limbs, true, count}, r_limbs, kMeasuredThreads);
    };
    EXPECT_FALSE(pays(16, 4096, 32));    // 1024 bits: 0.18 ms on the host against 0.20 on the GPU
    EXPECT_TRUE(pays(16, 65536, 32));    // 2.42 against 1.05
    EXPECT_FALSE(pays(32, 1024, 64));    // 2048 bits: 0.085 against 0.113
    EXPECT_TRUE(pays(32, 16384, 64));    // 1.09 against 0.59
    EXPECT_FALSE(pays(64, 256, 128));    // 4096 bits: 0.057 against 0.090
    EXPECT_TRUE(pays(64, 1024, 128));    // 0.20 against 0.16
    EXPECT_FALSE(pays(256, 16, 512));    // 16384 bits: 0.037 against 0.064
    EXPECT_TRUE(pays(256, 64, 512));     // 0.12 against 0.08
    EXPECT_TRUE(pays(1024, 4, 2048));    // 65536 bits: 0.20 against 0.11
    EXPECT_FALSE(pays(16, 65536, 4096)); // an r far longer than the products: moving it costs more
    EXPECT_FALSE(pays(1024, 0, 2048));
}

}  // namespace
}  // namespace zgpu::testing
