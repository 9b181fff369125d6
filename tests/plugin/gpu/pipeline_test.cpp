// The GPU path of operations on host data (gpu::run): results arrive chunk by chunk, in order,
// and a GPU failure either leaves everything unwritten (before the first result) or hands the
// remaining elements to the host (after it). The failure is injected by a kernel that throws.
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "random_integers.hpp"
#include "zgpu/error.hpp"
#ifdef ZGPU_WITH_CUDA
#include "devices_in_use.hpp"
#include "failing_products.hpp"
#include "kernels/div/divrem.hpp"
#include "plugin/gpu/gpu_mul.hpp"
#include "plugin/gpu/pipeline.hpp"
#include "plugin/gpu/runtime.hpp"
#endif

namespace zgpu::testing {
namespace {

#ifdef ZGPU_WITH_CUDA
using Outcome = FailingProducts::Outcome;
#endif

TEST(GpuHostOperation, ResultsArriveChunkByChunkInOrder)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 100003;
    const Outcome outcome = multiply_failing_at(count, -1);
    EXPECT_FALSE(outcome.threw) << outcome.error;
    EXPECT_EQ(outcome.correct, count);
    ASSERT_GE(outcome.firsts.size(), 4u) << "the test needs several chunks";
    EXPECT_EQ(outcome.firsts.front(), 0u);
    for (std::size_t k = 1; k < outcome.firsts.size(); ++k) EXPECT_GT(outcome.firsts[k], outcome.firsts[k - 1]);
    EXPECT_FALSE(outcome.finished_from.has_value());
    EXPECT_EQ(outcome.finished_by, Backend::gpu);
#endif
}

// Whatever the call that fails, the caller gets either an error and no result, or the results
// of the chunks before it and the rest from the host.
TEST(GpuHostOperation, FailureEitherWritesNothingOrLeavesTheRestToTheHost)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 100003;
    const DevicesInUse one({0});  // the calls are counted on one device (devices_test.cpp splits)
    for (const int failing_call : {0, 1, 2, 3}) {
        ::testing::internal::CaptureStderr();
        const Outcome outcome = multiply_failing_at(count, failing_call);
        const std::string warning = ::testing::internal::GetCapturedStderr();
        const std::string context = "failing call " + std::to_string(failing_call);
        if (outcome.threw) {
            EXPECT_NE(outcome.error.find("injected failure"), std::string::npos) << outcome.error;
            EXPECT_TRUE(outcome.firsts.empty()) << context;
            EXPECT_FALSE(outcome.finished_from.has_value()) << context;
            continue;
        }
        ASSERT_TRUE(outcome.finished_from.has_value()) << context;
        ASSERT_FALSE(outcome.firsts.empty()) << context;
        EXPECT_EQ(outcome.firsts[0], 0u) << context;
        EXPECT_LT(*outcome.finished_from, count) << context;
        EXPECT_EQ(outcome.correct, *outcome.finished_from) << context << ": every result given before the failure is right";
        EXPECT_EQ(outcome.finished_by, Backend::cpu) << context << ": the host finished the call";
        EXPECT_NE(warning.find("the GPU failed after " + std::to_string(*outcome.finished_from)), std::string::npos) << warning;
    }
    // The first kernel has given nothing; the last one comes after results were given (they
    // are given while later chunks run).
    EXPECT_TRUE(multiply_failing_at(count, 0).threw);
    ::testing::internal::CaptureStderr();
    const Outcome last = multiply_failing_at(count, 3);
    ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(last.threw) << last.error;
#endif
}

// An operand given twice is packed once and seen as the same view; a shared one stays one
// element in every chunk (here a[i] * c, c shared).
TEST(GpuHostOperation, RepeatedOperandsArePackedOnceSharedOnesStayOneElement)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 70001;
    IntegerSource source(23);
    MpzArray a(count), c(1), expected(count), got(count);
    source.set(c[0], 3, Shape::all_ones, true);
    for (std::size_t i = 0; i < count; ++i) {
        source.set(a[i], 12, i % 4 ? Shape::random : Shape::all_ones, i % 3 == 0);
        mpz_mul(expected[i], a[i], c[0]);
    }
    const HostOperand pa = host_operand(adapters::MpzReader(a.data()), count, "a");
    const HostOperand pc = host_operand(adapters::MpzReader(c.data()), 1, "c");
    std::size_t chunks = 0;
    const gpu::OneResultKernel kernel = [&](std::span<const ConstBatchView> x, BatchView r, gpu::Runtime& runtime) {
        ++chunks;
        if (x[0].limbs != x[2].limbs || x[1].count != 1) throw Error("operands not laid out as documented");
        gpu::mul(runtime, x[0], x[1], r, true, runtime.stream());
    };
    const HostResult result = [&](std::size_t first, ConstBatchView r) { adapters::unpack_mpz_array(r, got.data() + first); };
    const gpu::Operand operands[] = {{&pa, count}, {&pc, 1}, {&pa, count}};
    EXPECT_EQ(gpu::run(operands, count, 16, kernel, result, [](std::size_t) { FAIL() << "the GPU failed"; }), Backend::gpu);
    EXPECT_GE(chunks, 4u) << "the test needs several chunks";
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(mpz_cmp(got[i], expected[i]), 0) << i;
#endif
}

// A kernel of two results a chunk (quotients and remainders, each of its stride), in chunks cut
// small by the device memory limit: both arrive together, chunk by chunk, in order.
TEST(GpuHostOperation, TwoResultsAChunkArriveTogether)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 50021;
    IntegerSource source(31);
    MpzArray a(count), b(count), eq(count), er(count), q(count), r(count);
    for (std::size_t i = 0; i < count; ++i) {
        source.set(a[i], std::uint32_t(source.below(7)), i % 3 ? Shape::random : Shape::all_ones, i % 2);
        source.set(b[i], 1 + std::uint32_t(source.below(2)), i % 4 ? Shape::random : Shape::all_ones, i % 3 == 0);
        mpz_fdiv_qr(eq[i], er[i], a[i], b[i]);
    }
    const HostOperand pa = host_operand(adapters::MpzReader(a.data()), count, "a");
    const HostOperand pb = host_operand(adapters::MpzReader(b.data()), count, "b");
    const std::uint32_t strides[] = {6, 2};  // quotients within the dividends' 6 limbs, remainders the divisors' 2
    const gpu::Kernel kernel = [&](std::span<const ConstBatchView> x, std::span<const BatchView> qr, gpu::Runtime& runtime) {
        if (qr.size() != 2 || qr[0].stride != 6 || qr[1].stride != 2 || qr[0].count != x[0].count)
            throw Error("results not laid out as documented");
        kernels::divrem_warp(x[0], x[1], false, true, qr[0], qr[1], runtime.stream());
    };
    std::vector<std::size_t> firsts;
    const gpu::ChunkResults result = [&](std::size_t first, std::span<const ConstBatchView> qr) {
        ASSERT_EQ(qr.size(), 2u);
        ASSERT_EQ(qr[0].count, qr[1].count);
        firsts.push_back(first);
        adapters::unpack_mpz_array(qr[0], q.data() + first);
        adapters::unpack_mpz_array(qr[1], r.data() + first);
    };
    setenv("ZGPU_GPU_MEMORY_LIMIT", "1048576", 1);  // about 5000 elements a chunk
    const gpu::Operand operands[] = {{&pa, count}, {&pb, count}};
    const Backend backend = gpu::run(operands, count, strides, kernel, result, [](std::size_t) { FAIL() << "the GPU failed"; });
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
    EXPECT_EQ(backend, Backend::gpu);
    ASSERT_GT(firsts.size(), 4u) << "the test needs several chunks";
    for (std::size_t k = 0; k < firsts.size(); ++k) EXPECT_EQ(firsts[k], k * firsts[1]) << "in order, of equal chunks";
    for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(mpz_cmp(q[i], eq[i]), 0) << "quotient " << i;
        ASSERT_EQ(mpz_cmp(r[i], er[i]), 0) << "remainder " << i;
    }
#endif
}

}  // namespace
}  // namespace zgpu::testing
