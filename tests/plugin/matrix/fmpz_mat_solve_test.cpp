// zgpu_fmpz_mat_solve against FLINT's fmpz_mat_solve on each backend: X and den equal (both the
// lcm of the denominators for more than 15 rows) for 16 to 130 rows, 1 to 32 columns, entries of
// 1 to 960 bits; singular matrices; determinants +-1 and large ones; Hadamard matrices (the
// bounds at their tightest); x aliasing b; b zero; FLINT's own sizes (15 rows, 33 columns); bad
// input; and the choice.
#include <string>

#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

class FmpzMatSolve : public OnBackendWithFlint {
protected:
    // Solves a x = b both ways; the answers (nonsingular, x, den) must be FLINT's.
    void expect_flints(const fmpz_mat_t a, const fmpz_mat_t b, const std::string& what)
    {
        FmpzMat ours(b->r, b->c), theirs(b->r, b->c);
        FmpzValue our_den, their_den;
        const int flint = ::fmpz_mat_solve(theirs.m, their_den.v, a, b);
        int nonsingular = -1;
        ASSERT_EQ(zgpu_fmpz_mat_solve(&nonsingular, ours.m, our_den.v, a, b), 0) << zgpu_last_error();
        EXPECT_EQ(nonsingular, flint) << what;
        if (!flint) return;
        EXPECT_TRUE(fmpz_equal(our_den.v, their_den.v)) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << what;
    }

    void random_system(slong n, slong cols, flint_bitcnt_t bits, const std::string& what)
    {
        FmpzMat a(n, n), b(n, cols);
        fmpz_mat_randtest(a.m, state_, bits);
        fmpz_mat_randtest(b.m, state_, bits);
        expect_flints(a.m, b.m, what + ", " + std::to_string(n) + " x " + std::to_string(n) + " by " + std::to_string(cols) +
                                    ", " + std::to_string(bits) + " bits");
    }
};

TEST_P(FmpzMatSolve, RandomSystemsMatchFlint)
{
    for (const slong n : {16, 17, 40})
        for (const slong cols : {1, 3, 32})
            for (const flint_bitcnt_t bits : {1, 10, 64, 200}) random_system(n, cols, bits, "random");
    random_system(100, 1, 64, "random");
    random_system(100, 3, 200, "random");
    random_system(130, 2, 64, "random");
    random_system(20, 1, 960, "entries near the lifting's limit");
    random_system(18, 1, 1100, "entries beyond the lifting's limit");
    // FLINT's other branches: Cramer's rule and fraction-free elimination (den = +-det), many
    // columns.
    random_system(15, 2, 64, "15 rows");
    random_system(3, 1, 64, "3 rows");
    random_system(20, 33, 64, "33 columns");
}

TEST_P(FmpzMatSolve, SingularAndGivenDeterminants)
{
    FmpzMat a(40, 40), b(40, 2);
    fmpz_mat_randtest(b.m, state_, 64);
    fmpz_mat_randrank(a.m, state_, 39, 64);
    expect_flints(a.m, b.m, "rank n - 1");
    fmpz_mat_zero(a.m);
    expect_flints(a.m, b.m, "zero");
    for (const slong given : {slong(1), slong(-1), slong(1000003) * 999983}) {
        FmpzValue det;
        fmpz_set_si(det.v, given);
        fmpz_mat_randdet(a.m, state_, det.v);
        expect_flints(a.m, b.m, "det " + std::to_string(given));
    }
}

TEST_P(FmpzMatSolve, HadamardMatricesAndZeroRightHandSides)
{
    for (const slong n : {16, 64})
        for (const flint_bitcnt_t bits : {1, 64}) {
            FmpzMat a(n, n), b(n, 2);
            hadamard_matrix(a.m, bits);
            fmpz_mat_randtest(b.m, state_, bits);
            expect_flints(a.m, b.m, "Hadamard, " + std::to_string(bits) + " bits");
            fmpz_mat_zero(b.m);
            expect_flints(a.m, b.m, "Hadamard, b = 0");
        }
}

TEST_P(FmpzMatSolve, TheSolutionMayBeTheRightHandSide)
{
    FmpzMat a(50, 50), b(50, 3), expected(50, 3);
    fmpz_mat_randtest(a.m, state_, 64);
    fmpz_mat_randtest(b.m, state_, 64);
    FmpzValue den, expected_den;
    ASSERT_EQ(::fmpz_mat_solve(expected.m, expected_den.v, a.m, b.m), 1);
    int nonsingular = 0;
    ASSERT_EQ(zgpu_fmpz_mat_solve(&nonsingular, b.m, den.v, a.m, b.m), 0) << zgpu_last_error();
    EXPECT_EQ(nonsingular, 1);
    EXPECT_TRUE(fmpz_mat_equal(b.m, expected.m));
    EXPECT_TRUE(fmpz_equal(den.v, expected_den.v));
}

TEST_P(FmpzMatSolve, BadInputIsReportedAndNothingIsWritten)
{
    FmpzMat a(20, 20), b(20, 2), x(20, 3), not_square(20, 21);
    FmpzValue den;
    fmpz_set_si(den.v, 77);
    int nonsingular = 5;
    EXPECT_EQ(zgpu_fmpz_mat_solve(&nonsingular, x.m, den.v, a.m, b.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_solve: shapes do not match: a 20 x 20, b 20 x 2, x 20 x 3");
    EXPECT_EQ(zgpu_fmpz_mat_solve(&nonsingular, b.m, den.v, not_square.m, b.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_solve: a is 20 x 21, not square");
    EXPECT_EQ(zgpu_fmpz_mat_solve(nullptr, b.m, den.v, a.m, b.m), -1);
    EXPECT_EQ(nonsingular, 5);
    EXPECT_EQ(fmpz_get_si(den.v), 77);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzMatSolve, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// The choice, on the H200's numbers: FLINT took 4.1 to 5.1 s at 500 x 500 of 64-bit entries and
// one column; below about 50 rows FLINT's own is faster; the lifting's digits stay within 1 GiB.
TEST(FmpzMatSolveRules, TheChoice)
{
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_solve(500, 1, 34500, 34250, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_solve(100, 1, 6950, 6900, 16));
    EXPECT_FALSE(matrix::gpu_pays_for_fmpz_mat_solve(20, 1, 1400, 1380, 16));
    // The digits of 2000 x 2000 by 32 columns would take 3.6 GB: FLINT's.
    EXPECT_TRUE(matrix::gpu_pays_for_fmpz_mat_solve(1000, 32, 69500, 69000, 16));
    EXPECT_FALSE(matrix::gpu_pays_for_fmpz_mat_solve(2000, 32, 139000, 138000, 16));
}

}  // namespace
}  // namespace zgpu::testing
