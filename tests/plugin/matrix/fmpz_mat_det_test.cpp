// zgpu_fmpz_mat_det against FLINT's fmpz_mat_det on each backend: 0 x 0 to 100 x 100, entries of
// 1 to 300 bits with signs, singular and rank-deficient matrices, determinants +-1 and given
// ones, Hadamard matrices (the bound at its tightest), det an entry of a; bad input; the GPU's
// failures; Hadamard's bound and the choice.
#include <gmp.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/matrix.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"
#include "zgpu/zgpu_poly.h"

namespace zgpu::testing {
namespace {

class FmpzMatDet : public OnBackendWithFlint {
protected:
    void expect_flints(const fmpz_mat_t a, const std::string& what)
    {
        FmpzValue ours, theirs;
        fmpz_set_si(ours.v, 12345);  // overwritten
        ::fmpz_mat_det(theirs.v, a);
        ASSERT_EQ(zgpu_fmpz_mat_det(ours.v, a), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_equal(ours.v, theirs.v)) << what << ": n = " << a->r;
    }
};

TEST_P(FmpzMatDet, RandomMatricesMatchFlint)
{
    for (const slong n : {0, 1, 2, 3, 17, 33, 64})
        for (const flint_bitcnt_t bits : {1, 10, 64, 65, 300}) {
            FmpzMat a(n, n);
            fmpz_mat_randtest(a.m, state_, bits);
            expect_flints(a.m, std::to_string(bits) + " bits");
        }
    FmpzMat big(100, 100);
    fmpz_mat_randtest(big.m, state_, 64);
    expect_flints(big.m, "64 bits");
    // Entries of 4096 bits, and past a panel's 16 columns.
    for (const slong n : {5, 20}) {
        FmpzMat wide(n, n);
        fmpz_mat_randtest(wide.m, state_, 4096);
        expect_flints(wide.m, "4096 bits");
    }
}

TEST_P(FmpzMatDet, SingularAndGivenDeterminants)
{
    for (const slong n : {2, 5, 40}) {
        FmpzMat a(n, n);
        fmpz_mat_randrank(a.m, state_, n - 1, 100);  // rank n - 1
        expect_flints(a.m, "rank n - 1");
        fmpz_mat_randtest(a.m, state_, 80);
        for (slong j = 0; j < n; ++j) fmpz_set(fmpz_mat_entry(a.m, n - 1, j), fmpz_mat_entry(a.m, 0, j));  // a repeated row
        expect_flints(a.m, "two equal rows");
        fmpz_mat_zero(a.m);
        expect_flints(a.m, "zero");
        for (const slong d : {1, -1}) {
            FmpzValue det;
            fmpz_set_si(det.v, d);
            fmpz_mat_randdet(a.m, state_, det.v);
            expect_flints(a.m, "det " + std::to_string(d));
        }
        FmpzValue det;
        fmpz_set_ui(det.v, 1000003);
        fmpz_mul_ui(det.v, det.v, 999983);
        fmpz_mat_randdet(a.m, state_, det.v);
        expect_flints(a.m, "det 1000003 * 999983");
    }
}

TEST_P(FmpzMatDet, HadamardMatricesMeetTheBound)
{
    for (const slong n : {4, 16, 64})
        for (const flint_bitcnt_t bits : {1, 64, 200}) {
            FmpzMat a(n, n);
            hadamard_matrix(a.m, bits);
            expect_flints(a.m, "Hadamard, entries +-(2^" + std::to_string(bits) + " - 1)");
        }
}

TEST_P(FmpzMatDet, DeterminantIntoAnEntryOfTheMatrix)
{
    FmpzMat a(20, 20);
    fmpz_mat_randtest(a.m, state_, 50);
    FmpzValue expected;
    ::fmpz_mat_det(expected.v, a.m);
    ASSERT_EQ(zgpu_fmpz_mat_det(fmpz_mat_entry(a.m, 3, 4), a.m), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_equal(fmpz_mat_entry(a.m, 3, 4), expected.v));
}

TEST_P(FmpzMatDet, BadInputIsReportedAndNothingIsWritten)
{
    fmpz_mat_t a;
    fmpz_mat_init(a, 3, 4);
    FmpzValue det;
    fmpz_set_si(det.v, 77);
    EXPECT_EQ(zgpu_fmpz_mat_det(det.v, a), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_det: a is 3 x 4, not square");
    EXPECT_EQ(zgpu_fmpz_mat_det(det.v, nullptr), -1);
    EXPECT_EQ(fmpz_get_si(det.v), 77);
    fmpz_mat_clear(a);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzMatDet, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

TEST(FmpzMatDetRules, HadamardBitsAndTheChoice)
{
    // Squared norms of 3 bits (4: a norm of 2, below 2^2) and 101 bits (below 2^51).
    const std::vector<std::uint64_t> rows = {3, 3, 101}, with_zero = {3, 0};
    EXPECT_EQ(matrix::hadamard_bits(rows), 2u + 2u + 51u);
    EXPECT_EQ(matrix::hadamard_bits(with_zero), 0u);
    // Measured on the H200 (64-bit entries): FLINT faster at 20 x 20, the GPU from 50 x 50.
    EXPECT_FALSE(matrix::gpu_pays_for_fmpz_mat_det(10, 700));
    EXPECT_FALSE(matrix::gpu_pays_for_fmpz_mat_det(20, 1304));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_det(50, 3285));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_det(400, 26885));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_det(300, 308100));
}

// A GPU that fails: automatic, the host computes the determinant with a warning; forced, the
// error stands and det is untouched. Runs without a GPU (the failure is a stand-in).
TEST(FmpzMatDetGpuPath, AFailureIsFinishedByTheHostUnlessTheGpuWasForced)
{
    flint_rand_t state;
    random_init(state);
    FmpzMat a(12, 12);
    fmpz_mat_randtest(a.m, state, 90);
    FmpzValue expected, det;
    ::fmpz_mat_det(expected.v, a.m);
    const matrix::ZMatrix za{host_operand(adapters::FmpzReader(fmpz_mat_entry(a.m, 0, 0)), 144, "a"), 12, 12, 90};
    const matrix::DetResiduesOnGpu failing = [](const matrix::ZMatrix&, const PrimeSet&, const auto&) -> std::vector<limb_t> {
        throw Error("a stand-in failure");
    };
    const auto on_cpu = [&] { ::fmpz_mat_det(det.v, a.m); };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(matrix::fmpz_mat_determinant_on(Backend::gpu, det.v, za, 12 * 94, on_cpu, failing), Backend::cpu);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("the GPU failed on a determinant"), std::string::npos);
    EXPECT_TRUE(fmpz_equal(det.v, expected.v));
    fmpz_set_si(det.v, 5);
    setenv("ZGPU_BACKEND", "cpu", 1);  // forced (to cpu, so that no GPU is needed here)
    EXPECT_THROW(matrix::fmpz_mat_determinant_on(Backend::gpu, det.v, za, 12 * 94, on_cpu, failing), Error);
    unsetenv("ZGPU_BACKEND");
    EXPECT_EQ(fmpz_get_si(det.v), 5);
    random_clear(state);
}

// Progress lines for a determinant that FLINT would take seconds for (by the cost model): the
// primes of the bound as the total, a line a tenth of them done. The stand-in reports each prime
// and gives residues 0.
TEST(FmpzMatDetRules, ProgressLinesCountThePrimes)
{
    FmpzMat a(200, 200);
    const std::uint64_t bound = 60000;
    ASSERT_GE(matrix::flint_det_seconds(200, bound), 1.0);
    const matrix::ZMatrix za{host_operand(adapters::FmpzReader(fmpz_mat_entry(a.m, 0, 0)), 200 * 200, "a"), 200, 200, 1};
    std::size_t primes = 0;
    const matrix::DetResiduesOnGpu reporting = [&](const matrix::ZMatrix&, const PrimeSet& set,
                                                   const std::function<void(std::uint64_t)>& primes_done) {
        primes = set.moduli().size();
        for (std::size_t k = 0; k < primes; ++k) primes_done(1);
        return std::vector<limb_t>(primes, 0);
    };
    FmpzValue det;
    zgpu_set_progress(1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(matrix::fmpz_mat_determinant_on(Backend::gpu, det.v, za, bound, [] { FAIL() << "the host ran"; }, reporting),
              Backend::gpu);
    const std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);
    EXPECT_TRUE(fmpz_is_zero(det.v));
    EXPECT_NE(text.find("zgpu: fmpz_mat_det, 200 x 200, a bound of 60000 bits: started"), std::string::npos) << text;
    EXPECT_NE(text.find("50 % (" + std::to_string(primes / 2) + " of " + std::to_string(primes) + ")"), std::string::npos) << text;
    EXPECT_NE(text.find("done on the gpu"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 11) << text;
}

}  // namespace
}  // namespace zgpu::testing
