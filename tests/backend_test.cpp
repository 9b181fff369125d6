// ZGPU_BACKEND: forcing a backend, refusing what cannot run.
#include <string>

#include <gtest/gtest.h>

#include "backend_env.hpp"
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
    const ScopedBackend bogus("tpu");
    EXPECT_THROW(requested_backend(), Error);
}

}  // namespace
}  // namespace zgpu::testing
