// ZGPU_BACKEND: forcing a backend, refusing what cannot run.
#include <cstdlib>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#ifdef ZGPU_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "backend_env.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

TEST(Backend, CpuCanAlwaysBeForced)
{
    const ScopedBackend cpu("cpu");
    EXPECT_EQ(requested_backend(), Backend::cpu);
    EXPECT_EQ(DeviceBatch().backend(), Backend::cpu);
}

TEST(Backend, AutoUsesTheGpuWhereThereIsOne)
{
    const ScopedBackend automatic("auto");
    EXPECT_EQ(requested_backend(), gpu_available() ? Backend::gpu : Backend::cpu);
}

// zgpu_start_gpu: 1 once started where there is a GPU, 0 without one; either way again at once.
TEST(Backend, StartingTheGpuAheadSaysWhetherThereIsOne)
{
    const int expected = gpu_available() ? 1 : 0;
    EXPECT_EQ(zgpu_start_gpu(), expected) << zgpu_last_error();
    EXPECT_EQ(zgpu_start_gpu(), expected) << zgpu_last_error();
    if (expected == 1) {
        EXPECT_STREQ(zgpu_last_error(), "");
    }
}

TEST(Backend, ForcingTheGpuWithoutOneIsAClearError)
{
    if (gpu_available()) GTEST_SKIP() << "this machine has a GPU";
    const ScopedBackend gpu("gpu");
    try {
        requested_backend();
        FAIL() << "ZGPU_BACKEND=gpu without a GPU did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("ZGPU_BACKEND=gpu"), std::string::npos) << e.what();
    }
    fmpz a = 1, res = 0;
    EXPECT_EQ(zgpu_fmpz_vec_add(&res, &a, &a, 1), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("ZGPU_BACKEND=gpu"), std::string::npos);
    EXPECT_EQ(res, 0);
}

TEST(Backend, UnknownValueIsRejected)
{
    const ScopedBackend bogus("GPU");
    EXPECT_THROW(requested_backend(), Error);
    fmpz a = 1, res = 0;
    EXPECT_EQ(zgpu_fmpz_vec_add(&res, &a, &a, 1), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("ZGPU_BACKEND='GPU'"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(res, 0);
}

TEST(Backend, GpuBatchesWithoutAGpuAreAnError)
{
    if (gpu_available()) GTEST_SKIP() << "this machine has a GPU";
    EXPECT_THROW(DeviceBatch(Backend::gpu, 4, 2), Error);
    EXPECT_THROW(DeviceBatch(Backend::gpu, 0, 1), Error);
    EXPECT_THROW(DeviceBatch::upload(LimbBatch(2, 2).view(), Backend::gpu), Error);
}

#ifdef ZGPU_WITH_CUDA
TEST(Backend, CallersCurrentDeviceIsKeptAndNotUsed)
{
    int devices = 0;
    if (!gpu_available() || cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2)
        GTEST_SKIP() << "needs two CUDA devices";
    const char* chosen = std::getenv("ZGPU_DEVICE");
    const int other = chosen && std::atoi(chosen) != 0 ? 0 : 1;  // a device zgpu does not use
    LimbBatch host(3, 2);
    for (std::size_t i = 0; i < 3; ++i) {
        host.limbs()[2 * i] = 5 + i;
        host.sizes()[i] = 1;
    }
    const DeviceBatch a = DeviceBatch::upload(host.view(), Backend::gpu);
    std::thread([&] {
        // This thread's CUDA code runs on `other`; zgpu must neither use nor change that.
        ASSERT_EQ(cudaSetDevice(other), cudaSuccess);
        const DeviceBatch b = DeviceBatch::upload(host.view(), Backend::gpu);
        DeviceBatch r(Backend::gpu, 0, 1);
        add(r, a, b);
        const LimbBatch sum = r.download();
        for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(sum.element(i)[0], 2 * (5 + i));
        int now = -1;
        ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
        EXPECT_EQ(now, other);
    }).join();
}
#endif

}  // namespace
}  // namespace zgpu::testing
