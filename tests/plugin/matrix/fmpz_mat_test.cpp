// zgpu_fmpz_mat_mul against FLINT's fmpz_mat_mul on each backend: empty, 1 x 1 and non-square
// shapes, the tiles' edges, entries of 1 to 4096 bits with signs, every entry at the bound's
// maximum, aliasing, windows, products in blocks under a device memory limit, the pipelined
// pass's bands of every size; bad input; the GPU's failures; the choice's rules.
#include <gmp.h>

#include <algorithm>
#include <string>
#include <vector>

#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "backend_param.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/error.hpp"
#include "zgpu/matrix.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

std::string context(slong rows, slong inner, slong cols, flint_bitcnt_t bits)
{
    return std::to_string(rows) + " x " + std::to_string(inner) + " times " + std::to_string(inner) + " x " +
           std::to_string(cols) + ", " + std::to_string(bits) + " bits";
}

// Every entry +-(2^bits - 1), the sign alternating by `sign` (0: all positive).
void set_top(fmpz_mat_t m, flint_bitcnt_t bits, int sign)
{
    for (slong i = 0; i < m->r; ++i)
        for (slong j = 0; j < m->c; ++j) {
            fmpz* e = fmpz_mat_entry(m, i, j);
            fmpz_one(e);
            fmpz_mul_2exp(e, e, bits);
            fmpz_sub_ui(e, e, 1);
            if (sign && (i + j + sign) % 2) fmpz_neg(e, e);
        }
}

class FmpzMatEntryPoints : public OnBackendWithFlint {};

TEST_P(FmpzMatEntryPoints, MulMatchesFlint)
{
    const slong shapes[][3] = {{0, 0, 0}, {0, 3, 2}, {2, 0, 3}, {3, 2, 0}, {1, 1, 1}, {33, 17, 65}, {5, 100, 3}, {40, 31, 64}};
    for (const flint_bitcnt_t bits : {1, 30, 64, 65, 200, 1000})
        for (const auto& s : shapes) {
            FmpzMat a(s[0], s[1]), b(s[1], s[2]), ours(s[0], s[2]), theirs(s[0], s[2]);
            fmpz_mat_randtest(a.m, state_, bits);
            fmpz_mat_randtest(b.m, state_, bits);
            fmpz_mat_randtest(ours.m, state_, 50);  // overwritten
            ::fmpz_mat_mul(theirs.m, a.m, b.m);
            ASSERT_EQ(zgpu_fmpz_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << context(s[0], s[1], s[2], bits);
            // Empty shapes are the host's, as zgpu_nmod_mat_mul says of its own.
            if (s[0] == 0 || s[1] == 0 || s[2] == 0) {
                EXPECT_STREQ(zgpu_last_backend(), "cpu") << context(s[0], s[1], s[2], bits);
            }
        }
}

TEST_P(FmpzMatEntryPoints, EveryEntryAtTheBoundsMaximum)
{
    // |c| = inner (2^bits - 1)^2, just below the bound's 2^(2 bits + ceil(log2 inner)); signed
    // and not, with an inner dimension a power of two and one past it.
    for (const flint_bitcnt_t bits : {1, 62, 64, 4096})
        for (const slong inner : {slong(1), slong(64), slong(65)})
            for (const int sign : {0, 1}) {
                FmpzMat a(9, inner), b(inner, 11), ours(9, 11), theirs(9, 11);
                set_top(a.m, bits, sign);
                set_top(b.m, bits, sign);
                ::fmpz_mat_mul(theirs.m, a.m, b.m);
                ASSERT_EQ(zgpu_fmpz_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
                EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << context(9, inner, 11, bits) << (sign ? ", signed" : "");
            }
}

TEST_P(FmpzMatEntryPoints, LargerProductsMatchFlint)
{
    for (const auto& s : {std::vector<slong>{130, 150, 170, 64}, std::vector<slong>{64, 70, 80, 1024}}) {
        FmpzMat a(s[0], s[1]), b(s[1], s[2]), ours(s[0], s[2]), theirs(s[0], s[2]);
        fmpz_mat_randtest(a.m, state_, flint_bitcnt_t(s[3]));
        fmpz_mat_randtest(b.m, state_, flint_bitcnt_t(s[3]));
        ::fmpz_mat_mul(theirs.m, a.m, b.m);
        ASSERT_EQ(zgpu_fmpz_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << context(s[0], s[1], s[2], flint_bitcnt_t(s[3]));
        EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");
    }
}

TEST_P(FmpzMatEntryPoints, AliasingAndWindows)
{
    FmpzMat a(30, 30), b(30, 30), expected(30, 30), c(30, 30);
    fmpz_mat_randtest(a.m, state_, 100);
    fmpz_mat_randtest(b.m, state_, 100);
    ::fmpz_mat_mul(expected.m, a.m, b.m);
    fmpz_mat_set(c.m, a.m);
    ASSERT_EQ(zgpu_fmpz_mat_mul(c.m, c.m, b.m), 0) << zgpu_last_error();  // c == a
    EXPECT_TRUE(fmpz_mat_equal(c.m, expected.m));
    fmpz_mat_set(c.m, b.m);
    ASSERT_EQ(zgpu_fmpz_mat_mul(c.m, a.m, c.m), 0) << zgpu_last_error();  // c == b
    EXPECT_TRUE(fmpz_mat_equal(c.m, expected.m));
    // Windows: the top left 10 x 20 of a times rows 5 to 25 of b into a window of c.
    fmpz_mat_t wa, wb, wc;
    fmpz_mat_window_init(wa, a.m, 0, 0, 10, 20);
    fmpz_mat_window_init(wb, b.m, 5, 3, 25, 28);
    fmpz_mat_window_init(wc, c.m, 2, 1, 12, 26);
    FmpzMat wexpected(10, 25);
    ::fmpz_mat_mul(wexpected.m, wa, wb);
    ASSERT_EQ(zgpu_fmpz_mat_mul(wc, wa, wb), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_mat_equal(wc, wexpected.m));
    EXPECT_TRUE(fmpz_equal(fmpz_mat_entry(c.m, 0, 0), fmpz_mat_entry(expected.m, 0, 0))) << "outside the window";
    fmpz_mat_window_clear(wa);
    fmpz_mat_window_clear(wb);
    fmpz_mat_window_clear(wc);
}

TEST_P(FmpzMatEntryPoints, ProductsBeyondTheDeviceMemoryLimitRunInBlocks)
{
    // ZGPU_GPU_MEMORY_LIMIT far below the products' device bytes: bands of a's rows where b
    // fits (300 x 20 times 20 x 10, about 530 kB), bands of b's columns too where it does not
    // (70 x 30 times 30 x 50, about 770 kB), ragged at the edges; c == a in blocks.
    struct Case {
        slong rows, inner, cols;
        flint_bitcnt_t bits;
        const char* limit;
    };
    for (const Case& t : {Case{300, 20, 10, 100, "100000"}, Case{70, 30, 50, 200, "200000"}, Case{64, 64, 64, 300, "100000"}}) {
        FmpzMat a(t.rows, t.inner), b(t.inner, t.cols), ours(t.rows, t.cols), theirs(t.rows, t.cols);
        fmpz_mat_randtest(a.m, state_, t.bits);
        fmpz_mat_randtest(b.m, state_, t.bits);
        ::fmpz_mat_mul(theirs.m, a.m, b.m);
        setenv("ZGPU_GPU_MEMORY_LIMIT", t.limit, 1);
        const int status = zgpu_fmpz_mat_mul(ours.m, a.m, b.m);
        const int aliased = t.inner == t.cols ? zgpu_fmpz_mat_mul(a.m, a.m, b.m) : 0;
        unsetenv("ZGPU_GPU_MEMORY_LIMIT");
        ASSERT_EQ(status, 0) << zgpu_last_error();
        ASSERT_EQ(aliased, 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << context(t.rows, t.inner, t.cols, t.bits) << ", limit " << t.limit;
        EXPECT_TRUE(t.inner != t.cols || fmpz_mat_equal(a.m, theirs.m)) << "c == a, " << context(t.rows, t.inner, t.cols, t.bits);
    }
    if (GetParam() != Backend::gpu) return;
    // Forced onto the GPU, a limit that does not hold one row and one column is an error, and c
    // is left as it was.
    FmpzMat a(4, 500), b(500, 4), c(4, 4), copy(4, 4);
    fmpz_mat_randtest(a.m, state_, 64);
    fmpz_mat_randtest(b.m, state_, 64);
    fmpz_mat_randtest(c.m, state_, 64);
    fmpz_mat_set(copy.m, c.m);
    setenv("ZGPU_GPU_MEMORY_LIMIT", "1000", 1);
    EXPECT_EQ(zgpu_fmpz_mat_mul(c.m, a.m, b.m), -1);
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
    EXPECT_NE(std::string(zgpu_last_error()).find("do not fit the 1000 bytes of device memory"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(fmpz_mat_equal(c.m, copy.m));
}

TEST_P(FmpzMatEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    FmpzMat a(3, 4), b(4, 5), c(3, 5), copy(3, 5);
    fmpz_mat_randtest(c.m, state_, 20);
    fmpz_mat_set(copy.m, c.m);
    EXPECT_EQ(zgpu_fmpz_mat_mul(c.m, a.m, a.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_mul: shapes do not match: a 3 x 4, b 3 x 4, c 3 x 5");
    EXPECT_EQ(zgpu_fmpz_mat_mul(c.m, a.m, nullptr), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_mul: b is NULL");
    EXPECT_TRUE(fmpz_mat_equal(c.m, copy.m));
    EXPECT_THROW(zgpu::fmpz_mat_mul(c.m, b.m, a.m), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzMatEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// The GPU's failures, by a stand-in (no GPU needed): before any entry, the host computes the
// product unless ZGPU_BACKEND forced the backend, where the error stands and nothing is
// written; after some entries, the host computes it either way.
class FmpzMatGpuPath : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state_);
        fmpz_mat_randtest(a_.m, state_, 300);
        fmpz_mat_randtest(b_.m, state_, 300);
        ::fmpz_mat_mul(expected_.m, a_.m, b_.m);
        za_ = {host_operand(adapters::FmpzReader(fmpz_mat_entry(a_.m, 0, 0)), 20 * 30, "a"), 20, 30, 300};
        zb_ = {host_operand(adapters::FmpzReader(fmpz_mat_entry(b_.m, 0, 0)), 30 * 10, "b"), 30, 10, 300};
    }
    void TearDown() override
    {
        random_clear(state_);
        unsetenv("ZGPU_BACKEND");
    }
    // The product through fmpz_mat_product_on with `multiply`, into c (FLINT on the CPU).
    Backend run(fmpz_mat_t c, const matrix::ZMatProductOnGpu& multiply)
    {
        return matrix::fmpz_mat_product_on(
            Backend::gpu, za_, zb_, [&] { ::fmpz_mat_mul(c, a_.m, b_.m); },
            [&](std::size_t from, ConstBatchView values) { adapters::unpack_fmpz_vec(values, fmpz_mat_entry(c, 0, 0) + from); },
            multiply);
    }
    flint_rand_t state_;
    FmpzMat a_{20, 30}, b_{30, 10}, expected_{20, 10};
    matrix::ZMatrix za_, zb_;
};

TEST_F(FmpzMatGpuPath, FailuresAreFinishedByTheHostOrStandWhenForced)
{
    const auto fail_at_once = [](const matrix::ZMatrix&, const matrix::ZMatrix&, const PrimeSet&, const HostResult&) {
        throw Error("a stand-in failure");
    };
    FmpzMat c(20, 10), zero(20, 10);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(run(c.m, fail_at_once), Backend::cpu);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("the GPU failed on a matrix product over Z"), std::string::npos);
    EXPECT_TRUE(fmpz_mat_equal(c.m, expected_.m));

    fmpz_mat_zero(c.m);
    setenv("ZGPU_BACKEND", "cpu", 1);  // forced (to cpu, so that no GPU is needed here)
    EXPECT_THROW(run(c.m, fail_at_once), Error);
    EXPECT_TRUE(fmpz_mat_equal(c.m, zero.m)) << "nothing written";

    // After the first entries: one value delivered, then the failure.
    const auto fail_after_one = [](const matrix::ZMatrix&, const matrix::ZMatrix&, const PrimeSet&, const HostResult& result) {
        const limb_t seven = 7;
        const std::int32_t size = 1;
        result(0, ConstBatchView{&seven, &size, 1, 1});
        throw Error("a stand-in failure after one entry");
    };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(run(c.m, fail_after_one), Backend::cpu);
    ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(fmpz_mat_equal(c.m, expected_.m));
}

// The GPU's pass in bands of a's rows (plugin/gpu/matrix/banded_product.hpp) under pinned
// budgets far smaller than its own: a row a band, bands that leave a shorter last one, one band;
// b then goes up in many chunks. The values come band by band, in order, each entry once.
TEST(FmpzMatBands, BandsOfEverySizeMatchFlint)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
    flint_rand_t state;
    random_init(state);
    struct Case {
        slong rows, inner, cols;
        flint_bitcnt_t bits;
        std::size_t pinned_bytes;
    };
    for (const Case& t : {Case{37, 23, 19, 200, 1}, Case{50, 40, 30, 100, 40000}, Case{64, 300, 33, 64, 300000},
                          Case{9, 65, 11, 4096, 1}, Case{30, 30, 30, 1000, std::size_t(1) << 30}}) {
        FmpzMat a(t.rows, t.inner), b(t.inner, t.cols), ours(t.rows, t.cols), theirs(t.rows, t.cols);
        fmpz_mat_randtest(a.m, state, t.bits);
        fmpz_mat_randtest(b.m, state, t.bits);
        if (t.bits == 4096) {
            set_top(a.m, t.bits, 1);
            set_top(b.m, t.bits, 1);
        }
        ::fmpz_mat_mul(theirs.m, a.m, b.m);
        const matrix::ZMatrix za{host_operand(adapters::FmpzReader(fmpz_mat_entry(a.m, 0, 0)), t.rows * t.inner, "a"), std::size_t(t.rows),
                                 std::size_t(t.inner), t.bits};
        const matrix::ZMatrix zb{host_operand(adapters::FmpzReader(fmpz_mat_entry(b.m, 0, 0)), t.inner * t.cols, "b"),
                                 std::size_t(t.inner), std::size_t(t.cols), t.bits};
        std::vector<std::size_t> firsts;
        std::size_t delivered = 0;
        const Backend ran = matrix::fmpz_mat_product_on(
            Backend::gpu, za, zb, [] { FAIL() << "the host computed the product"; },
            [&](std::size_t first, ConstBatchView values) {
                firsts.push_back(first);
                delivered += values.count;
                adapters::unpack_fmpz_vec(values, fmpz_mat_entry(ours.m, 0, 0) + first);
            },
            [&](const matrix::ZMatrix& x, const matrix::ZMatrix& y, const PrimeSet& set, const HostResult& result) {
                gpu::fmpz_mat_product(x.entries, y.entries, x.rows, x.cols, y.cols, set.state().gpu_tables(), result, t.pinned_bytes);
            });
        const std::string what = context(t.rows, t.inner, t.cols, t.bits) + ", " + std::to_string(t.pinned_bytes) + " pinned bytes";
        EXPECT_EQ(ran, Backend::gpu) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << what;
        EXPECT_EQ(delivered, std::size_t(t.rows * t.cols)) << what;
        EXPECT_TRUE(std::is_sorted(firsts.begin(), firsts.end()) && firsts.front() == 0) << what;
        if (t.pinned_bytes == 1) {
            EXPECT_EQ(firsts.size(), std::size_t(t.rows)) << what << ": a row a band";
        }
        if (t.pinned_bytes == std::size_t(1) << 30) {
            EXPECT_EQ(firsts.size(), 1u) << what << ": one band";
        }
    }
    random_clear(state);
}

TEST(FmpzMatChoice, SmallProductsStayOnTheHostLargeOnesGoToTheGpu)
{
    const auto shape = [](std::size_t r, std::size_t c, std::uint64_t bits) { return matrix::ZMatrix{{}, r, c, bits}; };
    EXPECT_FALSE(matrix::gpu_pays_for_fmpz_mat_mul(shape(8, 8, 64), shape(8, 8, 64), 16));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_mul(shape(1024, 1024, 1024), shape(1024, 1024, 1024), 16));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_mul(shape(1024, 1024, 64), shape(1024, 1024, 64), 16));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_mul(shape(512, 512, 256), shape(512, 512, 256), 16));
    EXPECT_EQ(matrix::product_bits(shape(3, 65, 10), shape(65, 2, 20)), 10u + 20u + 7u);
}

}  // namespace
}  // namespace zgpu::testing
