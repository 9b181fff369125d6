// run_by_size (plugin/gpu/grouped_run.hpp): over elements of very different sizes, results
// still reach the caller in order and right; a GPU failure before the largest group's first
// results throws with nothing given to the caller, and after them leaves the elements not yet
// given to the host. The failure is injected by a kernel that throws.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "random_integers.hpp"
#include "zgpu/error.hpp"
#include "zgpu/mpz_adapter.hpp"
#ifdef ZGPU_WITH_CUDA
#include "devices_in_use.hpp"
#include "failing_products.hpp"
#include "plugin/gpu/grouped_run.hpp"
#include "plugin/gpu/result_strides.hpp"
#endif

namespace zgpu::testing {
namespace {

#ifdef ZGPU_WITH_CUDA
constexpr std::size_t kCount = std::size_t(1) << 18;

using Outcome = FailingProducts::Outcome;

// Products of 7 pairs of 4096 by 3000 limbs (the group kept: kernel call 0) and 2^18 pairs of at
// most one limb (the largest group, streamed: four chunks, kernel calls 1 to 4, the first
// chunk's results given once call 3 is queued), the kernel failing at its call `failing_call`
// (-1: never). Records the results given and where the host was asked to take over.
Outcome multiply_mixed(int failing_call)
{
    IntegerSource source(29);
    FailingProducts products(kCount, failing_call, [&](MpzArray& a, MpzArray& b) {
        for (std::size_t i = 0; i < kCount; ++i) {
            const std::uint32_t limbs = i % 39989 == 5 ? 4096 : i % 4 ? 1 : 0;
            source.set(a[i], limbs, i % 3 ? Shape::random : Shape::all_ones, i % 2);
            source.set(b[i], limbs == 4096 ? 3000 : 1, Shape::random, i % 5 == 1);
        }
    });
    const gpu::ResultStride stride = [](std::span<const gpu::Operand> x) {
        return gpu::product_stride(x[0].data->max_limbs, x[1].data->max_limbs);
    };
    return products.outcome_of([&] {
        const gpu::Operand operands[] = {{&products.a(), kCount}, {&products.b(), kCount}};
        return gpu::run_by_size(operands, kCount, gpu::product_stride(products.a().max_limbs, products.b().max_limbs), stride,
                                products.kernel(), products.result(), products.finish_on_host());
    });
}
#endif

TEST(GroupedRun, ResultsArriveInOrderAndRight)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const Outcome outcome = multiply_mixed(-1);
    ASSERT_FALSE(outcome.threw);
    EXPECT_EQ(outcome.given, kCount);
    EXPECT_EQ(outcome.correct, kCount);
    EXPECT_GT(outcome.firsts.size(), 2u) << "the huge elements are a group of their own";
    for (std::size_t k = 1; k < outcome.firsts.size(); ++k) EXPECT_GT(outcome.firsts[k], outcome.firsts[k - 1]);
#endif
}

TEST(GroupedRun, FailureWritesNothingOrLeavesTheRestToTheHost)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const DevicesInUse one({0});  // the calls are counted on one device (devices_test.cpp splits)
    for (const int failing_call : {0, 1, 2, 3}) {
        ::testing::internal::CaptureStderr();
        const Outcome outcome = multiply_mixed(failing_call);
        ::testing::internal::GetCapturedStderr();
        EXPECT_TRUE(outcome.threw) << "failing call " << failing_call;
        EXPECT_TRUE(outcome.firsts.empty()) << "failing call " << failing_call;
        EXPECT_FALSE(outcome.finished_from) << "failing call " << failing_call;
    }
    ::testing::internal::CaptureStderr();
    const Outcome outcome = multiply_mixed(4);
    ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(outcome.threw);
    ASSERT_TRUE(outcome.finished_from);
    EXPECT_GT(outcome.given, 0u);
    EXPECT_EQ(*outcome.finished_from, outcome.given) << "the host takes over where the results stopped";
    EXPECT_EQ(outcome.correct, outcome.given);
#endif
}

}  // namespace
}  // namespace zgpu::testing
