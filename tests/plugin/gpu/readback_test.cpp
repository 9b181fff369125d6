// Results read back from the device (a checked division's first inexact index, a division's
// summary) go through the runtime's own pinned words, never through its staging memory: the
// pipeline's chunks sit there while checked divisions run inside it (a run that wrote the
// index there corrupted the first operand of every second chunk).
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "zgpu/device_batch.hpp"
#ifdef ZGPU_WITH_CUDA
#include "plugin/gpu/gpu_div.hpp"
#include "plugin/gpu/runtime.hpp"
#endif

namespace zgpu::testing {
namespace {

TEST(GpuReadback, CheckedDivisionAndSummaryLeaveTheStagingMemoryAlone)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    // 6 / 3 and 7 / 3: the second is not exact, so the check reads index 1 back.
    LimbBatch a(2, 1), b(2, 1);
    a.limbs()[0] = 6, a.limbs()[1] = 7, b.limbs()[0] = 3, b.limbs()[1] = 3;
    a.sizes()[0] = a.sizes()[1] = b.sizes()[0] = b.sizes()[1] = 1;
    const DeviceBatch da = DeviceBatch::upload(a.view(), Backend::gpu), db = DeviceBatch::upload(b.view(), Backend::gpu);
    DeviceBatch q(Backend::gpu, 2, 1);
    auto& runtime = gpu::Runtime::get();
    const gpu::Runtime::Lease lease(runtime);
    constexpr std::size_t kBytes = 4096;
    std::byte* staging = runtime.staging(kBytes);
    const std::vector<std::byte> pattern(kBytes, std::byte{0x5a});
    std::memcpy(staging, pattern.data(), kBytes);
    EXPECT_EQ(gpu::divexact(runtime, da.view(), db.view(), q.view(), false, true, runtime.stream()), 1u);
    const kernels::DivisionSummary summary = gpu::summarize_division(runtime, da.view(), db.view(), runtime.stream());
    EXPECT_EQ(summary.first_zero, 2u);
    EXPECT_EQ(std::memcmp(staging, pattern.data(), kBytes), 0) << "the staging memory was written";
#endif
}

}  // namespace
}  // namespace zgpu::testing
