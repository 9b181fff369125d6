// Device-resident add/sub (DeviceBatch) against GMP, on each backend.
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "batch_checks.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

class BatchAddSub : public ::testing::TestWithParam<Backend> {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(GetParam()); }

    DeviceBatch upload(const MpzArray& values)
    {
        return DeviceBatch::upload(adapters::pack_mpz_array(values.data(), values.size()).view(), GetParam());
    }

    // A batch of the given shape whose every limb is nonzero: results written into it must
    // overwrite all of it.
    DeviceBatch poisoned(std::size_t count, std::uint32_t stride)
    {
        LimbBatch poison(count, stride);
        std::fill(poison.limbs().begin(), poison.limbs().end(), ~limb_t(0));
        std::fill(poison.sizes().begin(), poison.sizes().end(), std::int32_t(stride));
        return DeviceBatch::upload(poison.view(), GetParam());
    }

    // r = a +- b on the backend, into a poisoned r of the result's shape (so written in place),
    // checked element by element against GMP.
    void check(const MpzArray& a, const MpzArray& b, bool subtract, const std::string& context)
    {
        MpzArray expected(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (subtract) mpz_sub(expected[i], a[i], b[i]);
            else mpz_add(expected[i], a[i], b[i]);
        }
        const DeviceBatch da = upload(a), db = upload(b);
        const std::uint32_t stride = size_class(std::max(da.stride(), db.stride()) + 1);
        DeviceBatch r = poisoned(a.size(), stride);
        const ConstBatchView before = std::as_const(r).view();
        if (subtract) sub(r, da, db);
        else add(r, da, db);
        EXPECT_EQ(r.stride(), stride) << context;
        EXPECT_EQ(std::as_const(r).view().limbs, before.limbs) << context << ": the result was not written in place";
        EXPECT_EQ(last_backend(), GetParam());
        expect_batch_equals(r.download(), expected, context + (subtract ? " (sub)" : " (add)"));
        pairs_ += a.size();
    }

    void check_both(const MpzArray& a, const MpzArray& b, const std::string& context)
    {
        check(a, b, false, context);
        check(a, b, true, context);
    }

    std::size_t pairs_ = 0;
};

// Sizes at and around every kernel shape boundary: threads an instance, one or two chunks, and
// several blocks an instance above 1024 limbs.
const std::vector<std::uint32_t> kSizes = {1,    2,    3,    4,    5,    7,    8,    9,    15,    16,    17,
                                           31,   32,   33,   63,   64,   65,   127,  128,  129,   255,   256,
                                           257,  511,  512,  513,  1023, 1024, 1025, 2046, 2047,  2048,  2049,
                                           2303, 2304, 4095, 4096, 4097, 8191, 8192, 8193, 16383, 16384};

TEST_P(BatchAddSub, RandomPairsAcrossSizesAndSigns)
{
    IntegerSource source(42);
    for (const std::uint32_t n : kSizes) {
        // About 2^21 limbs per size; more elements for small sizes.
        const std::size_t count = std::max<std::size_t>(scaled((std::size_t(1) << 21) / n, GetParam()), 37);
        MpzArray a(count), b(count);
        for (std::size_t i = 0; i < count; ++i) {
            source.set_random(a[i], n);
            source.set_random(b[i], n);
        }
        check_both(a, b, "random, up to " + std::to_string(n) + " limbs, " + std::to_string(count) + " elements");
    }
    if (GetParam() == Backend::gpu) {
        EXPECT_GE(pairs_, 1000000u);
    }
}

TEST_P(BatchAddSub, LongestCarryAndBorrowChains)
{
    // +-(2^(64n) - 1) +- 1 and +-2^(64n) -+ 1: the carry or borrow crosses every limb, and
    // neighbouring instances must not receive it. One batch per size, so every kernel shape
    // gets them.
    IntegerSource source(7);
    for (const std::uint32_t n : kSizes) {
        MpzArray a(4 * 9 + 3), b(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            const bool negative = i & 1;
            if (i & 2) {
                source.set(a[i], n, Shape::all_ones, negative);
                mpz_set_si(b[i], negative ? -1 : 1);
            } else {
                mpz_set_ui(a[i], 1);
                mpz_mul_2exp(a[i], a[i], 64 * n);
                if (negative) mpz_neg(a[i], a[i]);
                mpz_set_si(b[i], negative ? 1 : -1);
            }
        }
        check_both(a, b, "carry chains, " + std::to_string(n) + " limbs");
        check_both(b, a, "carry chains, swapped, " + std::to_string(n) + " limbs");
    }
}

TEST_P(BatchAddSub, CancellationToZeroAndShrinking)
{
    // Equal sizes that cancel entirely, or down to the lowest limb, or down to the middle:
    // the comparison of magnitudes must look below a matching top, one batch per size.
    IntegerSource source(11);
    for (const std::uint32_t n : kSizes) {
        const std::size_t count = 12;
        MpzArray a(count), b(count), neg_a(count);
        for (std::size_t i = 0; i < count; ++i) {
            source.set(b[i], n, i % 2 ? Shape::random : Shape::all_ones, source.coin());
            mpz_set(a[i], b[i]);
            if (i % 4 == 1) mpz_add_ui(a[i], a[i], 1 + source.below(1000));  // shrinks to one limb
            if (i % 4 == 2) mpz_sub_ui(a[i], a[i], 1 + source.below(1000));
            if (i % 4 == 3 && n > 1) mpz_combit(a[i], 64 * (n / 2));  // shrinks by about n/2 limbs
            mpz_neg(neg_a[i], a[i]);
        }
        check(a, b, true, "a - a' with a' close to a, " + std::to_string(n) + " limbs");
        check(neg_a, b, false, "-a + a' with a' close to a, " + std::to_string(n) + " limbs");
    }
}

TEST_P(BatchAddSub, MixedLengthsWithinOneBatch)
{
    IntegerSource source(5);
    for (const std::uint32_t longest : {3u, 40u, 200u, 1000u, 5000u}) {
        MpzArray a(scaled(8000, GetParam()) + 1), b(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            source.set_random(a[i], std::uint32_t(1 + source.below(i % 50 == 0 ? longest : longest / 3 + 1)));
            source.set_random(b[i], std::uint32_t(source.below(3)));
        }
        check_both(a, b, "long a, short b, up to " + std::to_string(longest) + " limbs");
        check_both(b, a, "short a, long b, up to " + std::to_string(longest) + " limbs");
    }
}

TEST_P(BatchAddSub, CountsThatAreNotMultiplesOfABlock)
{
    IntegerSource source(3);
    for (const std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(33),
                                    std::size_t(1000007)}) {
        for (const std::uint32_t n : {1u, 2u, 40u}) {
            if (count > 1000 && n > 2) continue;  // the large count once, at small sizes
            MpzArray a(count), b(count);
            for (std::size_t i = 0; i < count; ++i) {
                source.set_random(a[i], n);
                source.set_random(b[i], n);
            }
            check_both(a, b, std::to_string(count) + " elements of up to " + std::to_string(n) + " limbs");
        }
    }
}

TEST_P(BatchAddSub, ResultMayAliasAnOperand)
{
    IntegerSource source(9);
    MpzArray a(1000), b(1000), sum(1000), twice(1000);
    for (std::size_t i = 0; i < a.size(); ++i) {
        source.set_random(a[i], 70);
        source.set_random(b[i], 70);
        mpz_add(sum[i], a[i], b[i]);
        mpz_mul_2exp(twice[i], sum[i], 1);
    }
    DeviceBatch x = upload(a);
    const DeviceBatch y = upload(b);
    add(x, x, y);
    expect_batch_equals(x.download(), sum, "x = x + y");
    add(x, x, x);
    expect_batch_equals(x.download(), twice, "x = x + x");
}

TEST_P(BatchAddSub, LargestSupportedStride)
{
    // Inputs of the largest class whose result class is still supported, all ones.
    constexpr std::uint32_t n = kMaxLimbs - kMaxLimbs / 16;
    static_assert(size_class(n) == n && size_class(n + 1) == kMaxLimbs);
    IntegerSource source(13);
    MpzArray a(3), b(3);
    for (std::size_t i = 0; i < 3; ++i) {
        source.set(a[i], n, Shape::all_ones, i == 1);
        source.set(b[i], i == 2 ? n : 1, Shape::all_ones, false);
    }
    check_both(a, b, "largest stride");

    DeviceBatch big = upload(a);
    source.set(a[0], kMaxLimbs, Shape::random, false);
    const DeviceBatch too_big = upload(a);
    DeviceBatch r = upload(b);
    const LimbBatch before = r.download();
    EXPECT_THROW(add(r, too_big, big), Error);
    expect_batch_equals(r.download(), b, "result after a refused addition");
    EXPECT_EQ(r.download().stride(), before.stride());
}

TEST_P(BatchAddSub, MismatchedShapesThrowAndLeaveTheResultAlone)
{
    MpzArray a(5), b(6);
    IntegerSource source(17);
    for (std::size_t i = 0; i < 6; ++i) source.set_random(b[i], 3);
    for (std::size_t i = 0; i < 5; ++i) source.set_random(a[i], 3);
    // r has the shape a result of 5 elements would be written into in place.
    DeviceBatch r = poisoned(5, size_class(upload(a).stride() + 1));
    const LimbBatch before = r.download();
    try {
        add(r, upload(a), upload(b));
        FAIL() << "adding batches of 5 and 6 elements did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("5 elements"), std::string::npos) << e.what();
    }
    const LimbBatch after = r.download();
    EXPECT_TRUE(std::equal(before.limbs().begin(), before.limbs().end(), after.limbs().begin()));
    EXPECT_TRUE(std::equal(before.sizes().begin(), before.sizes().end(), after.sizes().begin()));
}

TEST_P(BatchAddSub, UploadRejectsBatchesThatBreakTheLayout)
{
    LimbBatch bad(2, 4);
    bad.sizes()[0] = 5;  // more limbs than the stride
    EXPECT_THROW(DeviceBatch::upload(bad.view(), GetParam()), Error);
    bad.sizes()[0] = 2;
    bad.limbs()[0] = 1;  // top used limb is zero
    EXPECT_THROW(DeviceBatch::upload(bad.view(), GetParam()), Error);
    bad.limbs()[1] = 1;
    bad.limbs()[3] = 1;  // a limb above the size is not zero
    EXPECT_THROW(DeviceBatch::upload(bad.view(), GetParam()), Error);
    bad.limbs()[3] = 0;
    EXPECT_EQ(DeviceBatch::upload(bad.view(), GetParam()).count(), 2u);
}

TEST_P(BatchAddSub, ConcurrentCallersGetTheirOwnResults)
{
    // Several host threads share the runtime (stream, buffers) and the host thread pool.
    constexpr int kThreads = 4;
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            IntegerSource source(100 + t);
            MpzArray a(20000), b(20000), expected(20000);
            for (std::size_t i = 0; i < a.size(); ++i) {
                source.set_random(a[i], 1 + t * 30);
                source.set_random(b[i], 1 + t * 30);
                mpz_sub(expected[i], a[i], b[i]);
            }
            for (int round = 0; round < 5; ++round) {
                DeviceBatch r(GetParam(), 0, 1);
                sub(r, upload(a), upload(b));
                const LimbBatch result = r.download();
                for (std::size_t i = 0; i < a.size() && failures[t].empty(); ++i)
                    failures[t] = element_mismatch(result, i, expected[i]);
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(Backends, BatchAddSub, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

TEST(BatchAddSubAcrossBackends, OperandsOnDifferentBackendsAreRejected)
{
    if (!gpu_available()) GTEST_SKIP() << "needs a CUDA device";
    const LimbBatch host(4, 2);
    const DeviceBatch on_gpu = DeviceBatch::upload(host.view(), Backend::gpu);
    const DeviceBatch on_cpu = DeviceBatch::upload(host.view(), Backend::cpu);
    DeviceBatch r(Backend::cpu, 0, 1);
    EXPECT_THROW(add(r, on_gpu, on_cpu), Error);
}

}  // namespace
}  // namespace zgpu::testing
