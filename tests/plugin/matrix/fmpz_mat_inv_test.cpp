// zgpu_fmpz_mat_inv against FLINT's fmpz_mat_inv on each backend: b and den equal (den the lcm
// of the denominators for more than 15 rows) for 0 to 100 rows and entries of 1 to 300 bits;
// zgpu_fmpz_mat_solve with more right-hand sides than Dixon's lifting takes (the same way);
// singular matrices; a zero row; determinants +-1, negative, and equal to a prime of the CRT's
// list (which the prime set must skip); every entry even (the gcd with the adjugate is not 1);
// b aliasing a; bad input. Without a GPU: the prime set and the host's part of the answer, on an
// adjugate FLINT computes.
#include <string>
#include <tuple>
#include <vector>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/matrix/fmpz_mat_cramer.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

// a = L diag(d, 1, ..., 1) U for random unit lower and upper triangular L and U of small
// entries: det a = d.
void with_determinant(fmpz_mat_t a, const fmpz_t d, flint_rand_t state)
{
    const slong n = a->r;
    FmpzMat l(n, n), u(n, n);
    for (slong i = 0; i < n; ++i)
        for (slong j = 0; j < n; ++j) {
            if (i > j) fmpz_set_si(fmpz_mat_entry(l.m, i, j), slong(n_randint(state, 7)) - 3);
            if (i < j) fmpz_set_si(fmpz_mat_entry(u.m, i, j), slong(n_randint(state, 7)) - 3);
        }
    for (slong i = 0; i < n; ++i) fmpz_one(fmpz_mat_entry(l.m, i, i)), fmpz_one(fmpz_mat_entry(u.m, i, i));
    fmpz_set(fmpz_mat_entry(l.m, 0, 0), d);
    ::fmpz_mat_mul(a, l.m, u.m);
}

class FmpzMatInv : public OnBackendWithFlint {
protected:
    // Inverts a both ways; the answers (invertible, b, den) must be FLINT's.
    void expect_flints(const fmpz_mat_t a, const std::string& what, bool aliased = false)
    {
        const slong n = a->r;
        FmpzMat ours(n, n), theirs(n, n);
        FmpzValue our_den, their_den;
        const int flint = ::fmpz_mat_inv(theirs.m, their_den.v, a);
        int invertible = -1;
        if (aliased) fmpz_mat_set(ours.m, a);
        ASSERT_EQ(zgpu_fmpz_mat_inv(&invertible, ours.m, our_den.v, aliased ? ours.m : a), 0) << zgpu_last_error();
        EXPECT_EQ(invertible, flint) << what;
        if (!flint) return;
        EXPECT_TRUE(fmpz_equal(our_den.v, their_den.v)) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << what;
    }

    void random_matrix(slong n, flint_bitcnt_t bits)
    {
        FmpzMat a(n, n);
        fmpz_mat_randtest(a.m, state_, bits);
        expect_flints(a.m, "random, " + std::to_string(n) + " x " + std::to_string(n) + ", " + std::to_string(bits) + " bits");
    }
};

TEST_P(FmpzMatInv, RandomMatricesMatchFlint)
{
    for (const slong n : {0, 1, 2, 3, 15, 16, 17, 33})
        for (const flint_bitcnt_t bits : {1, 10, 64, 300}) random_matrix(n, bits);
    random_matrix(100, 64);
}

TEST_P(FmpzMatInv, SingularAndSpecialMatricesMatchFlint)
{
    const slong n = 40;
    FmpzMat a(n, n);
    fmpz_mat_randtest(a.m, state_, 64);
    for (slong j = 0; j < n; ++j) fmpz_add(fmpz_mat_entry(a.m, n - 1, j), fmpz_mat_entry(a.m, 0, j), fmpz_mat_entry(a.m, 1, j));
    expect_flints(a.m, "last row the sum of the first two");
    for (slong j = 0; j < n; ++j) fmpz_zero(fmpz_mat_entry(a.m, 3, j));
    expect_flints(a.m, "a zero row");
    FmpzValue d;
    for (const slong det : {1, -1, -6}) {
        fmpz_set_si(d.v, det);
        with_determinant(a.m, d.v, state_);
        expect_flints(a.m, "det " + std::to_string(det));
    }
    // det a is the first prime the CRT would take: the set skips it.
    fmpz_set_ui(d.v, kernels::ntt_primes(1)[0]);
    with_determinant(a.m, d.v, state_);
    expect_flints(a.m, "det a prime of the CRT's list");
    fmpz_mat_randtest(a.m, state_, 64);
    fmpz_mat_scalar_mul_si(a.m, a.m, -2);
    expect_flints(a.m, "every entry even");
    fmpz_mat_one(a.m);
    expect_flints(a.m, "identity");
    fmpz_mat_randtest(a.m, state_, 100);
    expect_flints(a.m, "b is a", true);
}

TEST_P(FmpzMatInv, SolutionsWithManyColumnsMatchFlint)
{
    // Beyond 32 columns zgpu_fmpz_mat_solve takes Cramer's numerators modulo many primes.
    for (const auto& [n, cols, bits] : std::vector<std::tuple<slong, slong, flint_bitcnt_t>>{{16, 33, 64}, {40, 64, 10}, {70, 100, 200}}) {
        FmpzMat a(n, n), b(n, cols), ours(n, cols), theirs(n, cols);
        fmpz_mat_randtest(a.m, state_, bits);
        fmpz_mat_randtest(b.m, state_, bits);
        FmpzValue our_den, their_den;
        const int flint = ::fmpz_mat_solve(theirs.m, their_den.v, a.m, b.m);
        int nonsingular = -1;
        ASSERT_EQ(zgpu_fmpz_mat_solve(&nonsingular, ours.m, our_den.v, a.m, b.m), 0) << zgpu_last_error();
        const std::string what = std::to_string(n) + " x " + std::to_string(n) + " by " + std::to_string(cols);
        ASSERT_EQ(nonsingular, flint) << what;
        if (!flint) continue;
        EXPECT_TRUE(fmpz_equal(our_den.v, their_den.v)) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << what;
    }
    // x is b.
    FmpzMat a(30, 30), b(30, 40), theirs(30, 40);
    fmpz_mat_randtest(a.m, state_, 30);
    fmpz_mat_randtest(b.m, state_, 30);
    FmpzValue our_den, their_den;
    const int flint = ::fmpz_mat_solve(theirs.m, their_den.v, a.m, b.m);
    int nonsingular = -1;
    ASSERT_EQ(zgpu_fmpz_mat_solve(&nonsingular, b.m, our_den.v, a.m, b.m), 0) << zgpu_last_error();
    ASSERT_EQ(nonsingular, flint);
    if (flint) {
        EXPECT_TRUE(fmpz_mat_equal(b.m, theirs.m));
    }
}

TEST_P(FmpzMatInv, BadInputIsReportedAndNothingIsWritten)
{
    FmpzMat a(3, 4), square(3, 3), b(3, 3), wrong(4, 4);
    FmpzValue den;
    fmpz_set_ui(den.v, 5);
    fmpz_mat_one(square.m);
    int invertible = -1;
    EXPECT_EQ(zgpu_fmpz_mat_inv(&invertible, b.m, den.v, a.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_inv: a is 3 x 4, not square");
    EXPECT_EQ(zgpu_fmpz_mat_inv(&invertible, wrong.m, den.v, square.m), -1);
    EXPECT_EQ(zgpu_fmpz_mat_inv(nullptr, b.m, den.v, square.m), -1);
    EXPECT_EQ(zgpu_fmpz_mat_inv(&invertible, b.m, nullptr, square.m), -1);
    EXPECT_EQ(invertible, -1);
    EXPECT_EQ(fmpz_get_ui(den.v), 5u);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzMatInv, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

TEST(FmpzMatInvHost, PrimesSkipThoseDividingTheDeterminant)
{
    const std::vector<limb_t> first = kernels::ntt_primes(3);
    FmpzValue det;
    fmpz_set_ui(det.v, first[0]);
    fmpz_mul_ui(det.v, det.v, first[2]);
    fmpz_neg(det.v, det.v);
    const PrimeSet set = matrix::primes_not_dividing(det.v, 200);
    ASSERT_GE(set.size(), 2u);
    EXPECT_EQ(set.moduli()[0], first[1]);
    for (const limb_t p : set.moduli()) EXPECT_NE(fmpz_fdiv_ui(det.v, p), 0u) << p;
    EXPECT_GT(set.product_bits(), 201u);
    FmpzValue bound;
    fmpz_one(bound.v);
    fmpz_mul_2exp(bound.v, bound.v, 200);
    EXPECT_TRUE(set.represents(bound.v, true));
}

TEST(FmpzMatInvHost, TheAnswerFromAnAdjugateIsFlints)
{
    // adj a = det a * a^-1, from FLINT's own inverse; the stand-in hands it over packed.
    flint_rand_t state;
    random_init(state);
    for (const slong scale : {1, -3}) {
        const slong n = 20;
        FmpzMat a(n, n), inverse(n, n), adjugate(n, n), ours(n, n);
        FmpzValue den, det, our_den;
        fmpz_mat_randtest(a.m, state, 40);
        fmpz_mat_scalar_mul_si(a.m, a.m, scale);
        ASSERT_TRUE(::fmpz_mat_inv(inverse.m, den.v, a.m));
        ::fmpz_mat_det(det.v, a.m);
        fmpz_mat_scalar_mul_fmpz(adjugate.m, inverse.m, det.v);
        fmpz_mat_scalar_divexact_fmpz(adjugate.m, adjugate.m, den.v);
        const matrix::ZMatrix za{host_operand(adapters::FmpzReader(fmpz_mat_entry(a.m, 0, 0)), std::size_t(n * n), "a"), std::size_t(n),
                                 std::size_t(n), 40};
        const auto stand_in = [&](const matrix::ZMatrix&, const matrix::ZMatrix*, const PrimeSet&, const HostResult& result) {
            const LimbBatch packed = adapters::pack_fmpz_vec(fmpz_mat_entry(adjugate.m, 0, 0), std::size_t(n * n));
            result(0, packed.view());
            return true;
        };
        ASSERT_TRUE(matrix::fmpz_mat_solve_by_primes(fmpz_mat_entry(ours.m, 0, 0), our_den.v, za, nullptr, det.v, 2000, stand_in));
        EXPECT_TRUE(fmpz_equal(our_den.v, den.v)) << scale;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, inverse.m)) << scale;
    }
    random_clear(state);
}

TEST(FmpzMatInvChoice, SmallMatricesStayWithFlint)
{
    EXPECT_FALSE(matrix::gpu_pays_for_solve_by_primes(15, 15, 10000, 10000, 16));
    EXPECT_FALSE(matrix::gpu_pays_for_solve_by_primes(16, 16, 100, 100, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_solve_by_primes(200, 200, 200 * 70, 200 * 70, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_solve_by_primes(200, 64, 200 * 70, 200 * 71, 16));
}

}  // namespace
}  // namespace zgpu::testing
