// zgpu_fmpz_mat_rref, zgpu_fmpz_mat_rank and zgpu_fmpz_mat_nullspace against FLINT's on each
// backend: the certified way's shapes (full column rank, where the rank is the column count;
// ranks from 16 up, square, wide and tall; entries of 1 to 200 bits), an unlucky first prime
// (the rank modulo it is smaller: the check fails and the next prime serves), ranks of at most
// 15 and FLINT's fraction-free shapes (FLINT's answers), r aliasing a, bad input.
#include <string>
#include <tuple>
#include <vector>

#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

// A random m x n matrix of rank at most r: m x r times r x n, entries of about `bits` bits.
void fill_rank_at_most(fmpz_mat_t a, slong r, flint_bitcnt_t bits, flint_rand_t state)
{
    FmpzMat left(a->r, r), right(r, a->c);
    fmpz_mat_randtest(left.m, state, bits / 2 + 1);
    fmpz_mat_randtest(right.m, state, bits / 2 + 1);
    ::fmpz_mat_mul(a, left.m, right.m);
}

class FmpzMatEchelon : public OnBackendWithFlint {
protected:
    void expect_flints(const fmpz_mat_t a, const std::string& what)
    {
        FmpzMat ours(a->r, a->c), theirs(a->r, a->c);
        FmpzValue our_den, their_den;
        slong rank = -1;
        ASSERT_EQ(zgpu_fmpz_mat_rref(&rank, ours.m, our_den.v, a), 0) << zgpu_last_error();
        EXPECT_EQ(rank, ::fmpz_mat_rref(theirs.m, their_den.v, a)) << what;
        EXPECT_TRUE(fmpz_equal(our_den.v, their_den.v)) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, theirs.m)) << what;
        slong our_rank = -1;
        ASSERT_EQ(zgpu_fmpz_mat_rank(&our_rank, a), 0) << zgpu_last_error();
        EXPECT_EQ(our_rank, ::fmpz_mat_rank(a)) << what;
        FmpzMat x(a->c, a->c), y(a->c, a->c);
        fmpz_mat_one(x.m);  // every entry is written
        slong nullity = -1;
        ASSERT_EQ(zgpu_fmpz_mat_nullspace(&nullity, x.m, a), 0) << zgpu_last_error();
        EXPECT_EQ(nullity, ::fmpz_mat_nullspace(y.m, a)) << what;
        EXPECT_TRUE(fmpz_mat_equal(x.m, y.m)) << what;
    }
};

TEST_P(FmpzMatEchelon, CertifiedShapesMatchFlint)
{
    for (const auto& [m, n, r, bits] : std::vector<std::tuple<slong, slong, slong, flint_bitcnt_t>>{
             {40, 30, 30, 64}, {60, 60, 45, 64}, {40, 50, 30, 10}, {100, 80, 70, 200}, {120, 40, 35, 64}, {50, 60, 50, 1}, {70, 70, 69, 64}}) {
        FmpzMat a(m, n);
        fill_rank_at_most(a.m, r, bits, state_);
        expect_flints(a.m, std::to_string(m) + " x " + std::to_string(n) + " of rank " + std::to_string(r) + ", " + std::to_string(bits) + " bits");
    }
}

TEST_P(FmpzMatEchelon, AnUnluckyPrimeIsCaughtAndTheNextServes)
{
    // Rank 30 modulo the first prime tried, 31 over Q: a multiple of that prime in one entry.
    FmpzMat a(40, 40);
    fill_rank_at_most(a.m, 30, 20, state_);
    fmpz_add_ui(fmpz_mat_entry(a.m, 39, 39), fmpz_mat_entry(a.m, 39, 39), kernels::ntt_primes(1)[0]);
    expect_flints(a.m, "an unlucky first prime");
}

TEST_P(FmpzMatEchelon, SmallRanksAndFlintsOtherShapesMatchFlint)
{
    for (const auto& [m, n, r] : std::vector<std::tuple<slong, slong, slong>>{{50, 50, 10}, {50, 50, 0}, {10, 40, 8}, {30, 120, 30}, {4, 4, 4}}) {
        FmpzMat a(m, n);
        fill_rank_at_most(a.m, r, 64, state_);
        expect_flints(a.m, std::to_string(m) + " x " + std::to_string(n) + " of rank " + std::to_string(r));
    }
    FmpzMat a(50, 60), expected(50, 60);
    fill_rank_at_most(a.m, 40, 30, state_);
    FmpzValue den, their_den;
    const slong rank = ::fmpz_mat_rref(expected.m, their_den.v, a.m);
    slong ours = -1;
    ASSERT_EQ(zgpu_fmpz_mat_rref(&ours, a.m, den.v, a.m), 0) << zgpu_last_error();
    EXPECT_EQ(ours, rank);
    EXPECT_TRUE(fmpz_mat_equal(a.m, expected.m)) << "r is a";
}

TEST_P(FmpzMatEchelon, BadInputIsReportedAndNothingIsWritten)
{
    FmpzMat a(3, 4), r(4, 4), x(3, 3);
    FmpzValue den;
    fmpz_set_ui(den.v, 5);
    slong rank = 99;
    EXPECT_EQ(zgpu_fmpz_mat_rref(&rank, r.m, den.v, a.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_mat_rref: r is 4 x 4, a is 3 x 4");
    EXPECT_EQ(zgpu_fmpz_mat_rref(nullptr, a.m, den.v, a.m), -1);
    EXPECT_EQ(zgpu_fmpz_mat_rank(&rank, nullptr), -1);
    EXPECT_EQ(zgpu_fmpz_mat_nullspace(&rank, x.m, a.m), -1);
    EXPECT_EQ(rank, 99);
    EXPECT_EQ(fmpz_get_ui(den.v), 5u);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzMatEchelon, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
