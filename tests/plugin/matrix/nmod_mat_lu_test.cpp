// zgpu_nmod_mat_det and zgpu_nmod_mat_rank against FLINT's nmod_mat_det and nmod_mat_rank on
// each backend: empty and 1 x 1 matrices, sizes around the GPU's panels of 16 columns, tall and
// wide shapes, every rank, panels in shared and in device memory, columns without a pivot inside
// a panel and at its edges, pivots that need row swaps, every entry n - 1, moduli from 2 to
// 2^64 - 59 (composite ones go to FLINT), bad input; the GPU's failure handled by the host; the
// choice's rules.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "nmod_mat_random.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/matrix/nmod_mat_lu.hpp"
#include "zgpu/error.hpp"
#include "zgpu/matrix.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

const std::vector<ulong>& primes()
{
    static const std::vector<ulong> p = {2, 3, 65537, kernels::ntt_primes(1)[0], n_nextprime(ulong(1) << 62, 1), ~ulong(0) - 58};
    return p;
}

std::string context(const nmod_mat_struct* a, const char* what)
{
    return std::string(what) + " of " + std::to_string(a->r) + " x " + std::to_string(a->c) + " mod " + std::to_string(a->mod.n);
}

class NmodMatLu : public OnBackendWithFlint {
protected:
    // Both entry points against FLINT on a; det only where a is square.
    void expect_flint(const nmod_mat_t a)
    {
        slong rank = -1;
        ASSERT_EQ(zgpu_nmod_mat_rank(&rank, a), 0) << zgpu_last_error();
        EXPECT_EQ(rank, ::nmod_mat_rank(a)) << context(a, "rank");
        if (a->r != a->c) return;
        ulong det = 12345;
        ASSERT_EQ(zgpu_nmod_mat_det(&det, a), 0) << zgpu_last_error();
        EXPECT_EQ(det, ::nmod_mat_det(a)) << context(a, "det");
    }
};

TEST_P(NmodMatLu, RandomMatricesAroundThePanelsMatchFlint)
{
    for (const ulong p : primes())
        for (const slong n : {0, 1, 2, 15, 16, 17, 31, 32, 33, 100}) {
            NmodMat a(n, n, p);
            fill_uniform(a.m, state_);
            expect_flint(a.m);
            nmod_mat_randtest(a.m, state_);  // sparse, small and large entries
            expect_flint(a.m);
        }
}

TEST_P(NmodMatLu, TallAndWideShapesOfEveryRankMatchFlint)
{
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const auto& [rows, cols] : std::vector<std::pair<slong, slong>>{{1, 40}, {40, 1}, {5, 70}, {70, 5}, {33, 50}, {90, 47}})
        for (slong r = 0; r <= std::min(rows, cols); r += std::max<slong>(1, std::min(rows, cols) / 5)) {
            NmodMat a(rows, cols, p);
            fill_rank_at_most(a.m, r, state_);
            expect_flint(a.m);
        }
}

TEST_P(NmodMatLu, ColumnsWithoutAPivotMatchFlint)
{
    // Zero and repeated columns inside a panel, at its first and last column, and whole panels
    // of them; with p = 2 most columns repeat.
    for (const ulong p : {ulong(2), ulong(7), ~ulong(0) - 58}) {
        const slong rows = 60, cols = 70;
        NmodMat a(rows, cols, p);
        fill_uniform(a.m, state_);
        for (const slong j : {0, 5, 15, 16, 17, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 69})
            for (slong i = 0; i < rows; ++i) nmod_mat_entry(a.m, i, j) = j % 2 ? nmod_mat_entry(a.m, i, j - 1) : 0;
        expect_flint(a.m);
        NmodMat square(rows, rows, p);
        for (slong i = 0; i < rows; ++i)
            for (slong j = 0; j < rows; ++j) nmod_mat_entry(square.m, i, j) = nmod_mat_entry(a.m, i, j);
        expect_flint(square.m);
    }
}

TEST_P(NmodMatLu, PivotsThatNeedRowSwapsMatchFlint)
{
    // Permutation matrices (det +-1), with the pivot of some columns in the last row only.
    const ulong p = ~ulong(0) - 58;
    for (const slong n : {2, 17, 50}) {
        NmodMat a(n, n, p);
        for (slong j = 0; j < n; ++j) nmod_mat_entry(a.m, n - 1 - j, j) = 1 + ulong(j);  // anti-diagonal
        expect_flint(a.m);
        for (slong i = 0; i < n; ++i) nmod_mat_entry(a.m, i, 0) = i == n - 1 ? 5 : 0;
        expect_flint(a.m);
    }
}

TEST_P(NmodMatLu, SingularAndExtremeMatricesMatchFlint)
{
    for (const ulong p : primes()) {
        NmodMat zero(40, 40, p), top(40, 40, p), identity(40, 40, p);
        expect_flint(zero.m);
        for (slong i = 0; i < 40; ++i)
            for (slong j = 0; j < 40; ++j) nmod_mat_entry(top.m, i, j) = p - 1;  // rank 1
        expect_flint(top.m);
        nmod_mat_one(identity.m);
        expect_flint(identity.m);
        NmodMat one(1, 1, p);
        nmod_mat_entry(one.m, 0, 0) = p - 1;
        expect_flint(one.m);
    }
}

TEST_P(NmodMatLu, LargeEnoughForTheGpuMatchFlint)
{
    // Sizes the automatic choice sends to the GPU: full rank, and singular in the last column.
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const slong n : {300, 513}) {
        NmodMat a(n, n, p);
        fill_uniform(a.m, state_);
        expect_flint(a.m);
        for (slong i = 0; i < n; ++i) nmod_mat_entry(a.m, i, n - 1) = nmod_mat_entry(a.m, i, 0);
        expect_flint(a.m);
    }
    NmodMat wide(200, 700, p);
    fill_rank_at_most(wide.m, 150, state_);
    expect_flint(wide.m);
    EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");
}

TEST_P(NmodMatLu, PanelsTallerThanSharedMemoryMatchFlint)
{
    // Over about 1700 rows below the panel's first (sm_90), the GPU eliminates a panel in device
    // memory, not shared memory: tall matrices of every rank, and a square one that starts there.
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const slong r : {slong(0), slong(17), slong(40), slong(48)}) {
        NmodMat tall(1800, 48, p);
        fill_rank_at_most(tall.m, r, state_);
        expect_flint(tall.m);
    }
    NmodMat square(1800, 1800, p);
    fill_uniform(square.m, state_);
    expect_flint(square.m);
}

TEST_P(NmodMatLu, PanelsBeyondTheirTopRowsMatchFlint)
{
    // Over 128 rows (kernels::kLuTopRows) from a panel's first, the GPU looks for pivots in its top rows
    // first: one row below them (129), pivots that need swaps inside them (p = 2), columns whose
    // only nonzero entry is in the last row (the top rows have none: the whole panel decides),
    // sparse matrices, tall matrices whose pivots run out, permutations with pivots at the
    // bottom; blocks of 256 columns with their wide updates (600, 1000).
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const slong n : {129, 145, 257, 1000}) {
        NmodMat a(n, n, p);
        fill_uniform(a.m, state_);
        expect_flint(a.m);
    }
    NmodMat binary(600, 600, 2), sparse(600, 600, p);
    fill_uniform(binary.m, state_);
    expect_flint(binary.m);
    nmod_mat_randtest(sparse.m, state_);
    expect_flint(sparse.m);
    for (const std::vector<slong>& columns : std::vector<std::vector<slong>>{{0}, {40}, {300}, {17, 40, 333}}) {
        NmodMat a(600, 600, p);
        fill_uniform(a.m, state_);
        for (const slong j : columns)
            for (slong i = 0; i + 1 < 600; ++i) nmod_mat_entry(a.m, i, j) = 0;
        expect_flint(a.m);
    }
    for (const slong r : {slong(20), slong(48)}) {
        NmodMat tall(900, 48, p);
        fill_rank_at_most(tall.m, r, state_);
        expect_flint(tall.m);
    }
    NmodMat permutation(600, 600, p);
    for (slong j = 0; j < 600; ++j) nmod_mat_entry(permutation.m, (j * 7 + 599) % 600, j) = 1 + ulong(j);
    expect_flint(permutation.m);
}

TEST_P(NmodMatLu, ProgressLinesCountEachColumnOnce)
{
    // FLINT would take over a second (by the model): lines are shown. 1532 columns are 96 panels,
    // a multiple of the GPU's 32 between reports, the last one 12 columns wide.
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    NmodMat a(1532, 1532, p);
    fill_uniform(a.m, state_);
    ulong det = 0;
    zgpu_set_progress(1);
    ::testing::internal::CaptureStderr();
    const int status = zgpu_nmod_mat_det(&det, a.m);
    const std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);
    ASSERT_EQ(status, 0) << zgpu_last_error();
    EXPECT_EQ(det, ::nmod_mat_det(a.m));
    const std::string what = "zgpu: nmod_mat_det, 1532 x 1532 mod " + std::to_string(p) + ": ";
    EXPECT_NE(text.find(what + "started"), std::string::npos) << text;
    EXPECT_NE(text.find(what + "done on the " + std::string(zgpu_last_backend())), std::string::npos) << text;
    std::uint64_t last = 0;
    for (std::size_t at = text.find(" % ("); at != std::string::npos; at = text.find(" % (", at + 1)) {
        const std::uint64_t done = std::stoull(text.substr(at + 4));
        EXPECT_GT(done, last) << text;
        EXPECT_LE(done, 1532u) << text;
        last = done;
    }
    EXPECT_TRUE(GetParam() != Backend::gpu || last > 0) << "no lines between the first and the last: " << text;
}

TEST_P(NmodMatLu, CompositeModuliGoToFlint)
{
    for (const ulong n : {ulong(4), ulong(6), ulong(1) << 32, ~ulong(0)}) {
        NmodMat a(20, 20, n);
        fill_uniform(a.m, state_);
        ulong det = 0;
        ASSERT_EQ(zgpu_nmod_mat_det(&det, a.m), 0) << zgpu_last_error();
        EXPECT_EQ(det, ::nmod_mat_det(a.m)) << n;
        EXPECT_STREQ(zgpu_last_backend(), "cpu");
    }
}

TEST_P(NmodMatLu, BadInputIsReportedAndNothingIsWritten)
{
    NmodMat a(3, 4, 7);
    ulong det = 99;
    slong rank = 99;
    EXPECT_EQ(zgpu_nmod_mat_det(&det, a.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_mat_det: a is 3 x 4, not square");
    EXPECT_EQ(zgpu_nmod_mat_det(&det, nullptr), -1);
    EXPECT_EQ(zgpu_nmod_mat_det(nullptr, a.m), -1);
    EXPECT_EQ(zgpu_nmod_mat_rank(&rank, nullptr), -1);
    EXPECT_EQ(zgpu_nmod_mat_rank(nullptr, a.m), -1);
    EXPECT_EQ(det, 99u);
    EXPECT_EQ(rank, 99);
    EXPECT_THROW(zgpu::nmod_mat_det(a.m), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodMatLu, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// A GPU that fails: automatic, the host computes with a warning; forced, the error stands. Runs
// without a GPU (the failure is a stand-in).
TEST(NmodMatLuGpuPath, AFailureIsFinishedByTheHostUnlessTheGpuWasForced)
{
    flint_rand_t state;
    random_init(state);
    NmodMat a(30, 30, 1000003);
    fill_uniform(a.m, state);
    const matrix::NmodMatDetGpu failing_det = [](const nmod_mat_struct*, const auto&) -> ulong {
        throw Error("out of device memory (a stand-in)");
    };
    const matrix::NmodMatRankGpu failing_rank = [](const nmod_mat_struct*, const auto&) -> slong {
        throw Error("out of device memory (a stand-in)");
    };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(matrix::nmod_mat_lu_det_on(Backend::gpu, a.m, failing_det), ::nmod_mat_det(a.m));
    EXPECT_EQ(matrix::nmod_mat_lu_rank_on(Backend::gpu, a.m, failing_rank), 30);
    const std::string warning = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("the GPU failed on a determinant mod p (zgpu: out of device memory"), std::string::npos) << warning;
    EXPECT_NE(warning.find("the GPU failed on a rank mod p"), std::string::npos) << warning;
    setenv("ZGPU_BACKEND", "cpu", 1);  // forced (to cpu, so that no GPU is needed for the check)
    EXPECT_THROW(matrix::nmod_mat_lu_det_on(Backend::gpu, a.m, failing_det), Error);
    EXPECT_THROW(matrix::nmod_mat_lu_rank_on(Backend::gpu, a.m, failing_rank), Error);
    unsetenv("ZGPU_BACKEND");
    random_clear(state);
}

// Progress lines for a determinant that FLINT would take a second or more for (by the cost model):
// the columns as the total, a line a tenth of them done. The stand-in reports 150 columns at a
// time and gives 7. Runs without a GPU.
TEST(NmodMatLuGpuPath, ProgressLinesCountTheColumns)
{
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    NmodMat a(1500, 1500, p);
    const matrix::NmodMatDetGpu reporting = [](const nmod_mat_struct*, const std::function<void(std::uint64_t)>& columns_done) {
        for (int k = 0; k < 10; ++k) columns_done(150);
        return ulong(7);
    };
    zgpu_set_progress(1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(matrix::nmod_mat_lu_det_on(Backend::gpu, a.m, reporting), 7u);
    const std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);
    const std::string what = "zgpu: nmod_mat_det, 1500 x 1500 mod " + std::to_string(p) + ": ";
    EXPECT_NE(text.find(what + "started"), std::string::npos) << text;
    EXPECT_NE(text.find(what + "50 % (750 of 1500)"), std::string::npos) << text;
    EXPECT_NE(text.find(what + "done on the gpu"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 11) << text;
}

TEST(NmodMatLuChoice, SmallMatricesStayOnTheHostLargeOnesGoToTheGpu)
{
    EXPECT_FALSE(matrix::gpu_pays_for_nmod_mat_lu(8, 8, false, 16));
    EXPECT_FALSE(matrix::gpu_pays_for_nmod_mat_lu(1, 5000, true, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_nmod_mat_lu(1000, 1000, false, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_nmod_mat_lu(1000, 1000, true, 16));
    // The measured crossover of the determinant: FLINT 0.40 against the GPU's 0.49 ms at 100 x 100,
    // 0.84 against 0.61 at 128 x 128 (bench/results/2026-11-26-h200-lu-blocks-133356f.md).
    EXPECT_FALSE(matrix::gpu_pays_for_nmod_mat_lu(100, 100, false, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_nmod_mat_lu(160, 160, false, 16));
}

}  // namespace
}  // namespace zgpu::testing
