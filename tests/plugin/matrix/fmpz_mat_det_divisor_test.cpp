// The determinant by a divisor (Dixon's lifting, then the quotient's primes) against FLINT's
// fmpz_mat_det on the GPU: random matrices of 1 to 960 bits, Hadamard matrices (the bound at its
// tightest), determinants +-1, singular matrices and determinants that the lifting's primes
// divide (left to the caller, det untouched), entries too long for the residual's moduli; the
// two ways of the residues modulo a few primes; both ways forced by ZGPU_DET_ALGORITHM; and the
// choices, without a GPU.
#include <string>
#include <vector>

#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "backend_param.hpp"
#include "flint_random.hpp"
#include "flint_values.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

matrix::ZMatrix operand(const fmpz_mat_t a)
{
    const std::size_t n = std::size_t(a->r), count = n * std::size_t(a->c);
    const slong bits = fmpz_mat_max_bits(a);
    return {host_operand(adapters::FmpzReader(fmpz_mat_entry(a, 0, 0)), count, "a"), n, std::size_t(a->c),
            std::uint64_t(bits < 0 ? -bits : bits)};
}

std::uint64_t bound_bits(const fmpz_mat_t a)
{
    std::vector<std::uint64_t> bits;
    FmpzValue norm;
    for (slong i = 0; i < a->r; ++i) {
        fmpz_zero(norm.v);
        for (slong j = 0; j < a->c; ++j) fmpz_addmul(norm.v, fmpz_mat_entry(a, i, j), fmpz_mat_entry(a, i, j));
        bits.push_back(fmpz_bits(norm.v));
    }
    return matrix::hadamard_bits(bits);
}

class FmpzMatDetByDivisor : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state_);
        ZGPU_SKIP_WITHOUT(Backend::gpu);
    }
    void TearDown() override { random_clear(state_); }

    // Whether the divisor's way served; where it did, det(a) must be FLINT's, else det untouched.
    bool matches_flint(const fmpz_mat_t a, const std::string& what)
    {
        FmpzValue ours, theirs;
        fmpz_set_si(ours.v, 12345);
        ::fmpz_mat_det(theirs.v, a);
        const bool served = matrix::fmpz_mat_det_by_divisor(ours.v, operand(a), bound_bits(a), {});
        if (served)
            EXPECT_TRUE(fmpz_equal(ours.v, theirs.v)) << what << ", n = " << a->r;
        else
            EXPECT_EQ(fmpz_get_si(ours.v), 12345) << what << ", n = " << a->r;
        return served;
    }

    flint_rand_t state_;
};

TEST_F(FmpzMatDetByDivisor, RandomMatricesMatchFlint)
{
    for (const slong n : {1, 2, 3, 17, 64, 130})
        for (const flint_bitcnt_t bits : {1, 10, 64, 65, 200, 960}) {
            FmpzMat a(n, n);
            fmpz_mat_randtest(a.m, state_, bits);
            FmpzValue det;
            ::fmpz_mat_det(det.v, a.m);
            const std::string what = std::to_string(bits) + " bits";
            // Singular matrices are left to the caller; a random one is invertible modulo its primes.
            EXPECT_EQ(matches_flint(a.m, what), !fmpz_is_zero(det.v)) << what << ", n = " << n;
        }
}

TEST_F(FmpzMatDetByDivisor, HadamardMatricesAndGivenDeterminants)
{
    for (const slong n : {4, 16, 64, 128})
        for (const flint_bitcnt_t bits : {1, 64, 200}) {
            FmpzMat a(n, n);
            hadamard_matrix(a.m, bits);
            EXPECT_TRUE(matches_flint(a.m, "Hadamard, entries +-(2^" + std::to_string(bits) + " - 1)"));
        }
    for (const slong given : {slong(1), slong(-1), slong(1000003) * 999983}) {
        FmpzMat a(40, 40);
        FmpzValue det;
        fmpz_set_si(det.v, given);
        fmpz_mat_randdet(a.m, state_, det.v);
        EXPECT_TRUE(matches_flint(a.m, "det " + std::to_string(given)));
    }
}

// The lifting tries the first two primes of its set, which are the first of every set (the
// largest NTT primes); the quotient's set starts with them too.
TEST_F(FmpzMatDetByDivisor, SingularMatricesAndDeterminantsThePrimesDivideAreLeftToTheCaller)
{
    const PrimeSet set = product_primes(200);
    const std::span<const limb_t> primes = set.moduli();
    FmpzMat a(30, 30);
    fmpz_mat_randrank(a.m, state_, 29, 100);
    EXPECT_FALSE(matches_flint(a.m, "rank n - 1"));
    // diag(p0, 1, ..., 1) is singular modulo p0, so p1 lifts; x_0 = -1 / p0 puts p0 into d, and
    // the quotient's set holds p0.
    fmpz_mat_one(a.m);
    fmpz_set_ui(fmpz_mat_entry(a.m, 0, 0), primes[0]);
    EXPECT_FALSE(matches_flint(a.m, "diag(p0, 1, ...)"));
    // diag(p0, p1, 1, ...) is singular modulo both.
    fmpz_set_ui(fmpz_mat_entry(a.m, 1, 1), primes[1]);
    EXPECT_FALSE(matches_flint(a.m, "diag(p0, p1, 1, ...)"));
    // A random matrix of determinant p0 or p0 p1: exact whether the divisor's way serves or not.
    FmpzValue det;
    fmpz_set_ui(det.v, primes[0]);
    fmpz_mat_randdet(a.m, state_, det.v);
    matches_flint(a.m, "det p0");
    fmpz_mul_ui(det.v, det.v, primes[1]);
    fmpz_mat_randdet(a.m, state_, det.v);
    matches_flint(a.m, "det p0 p1");
}

// The residual's moduli hold entries up to about 985 bits at n = 8 (kDixonMaxModuli).
TEST_F(FmpzMatDetByDivisor, EntriesTooLongForTheResidualAreLeftToTheCaller)
{
    FmpzMat a(8, 8);
    fmpz_mat_randtest(a.m, state_, 960);
    fmpz_set_si(fmpz_mat_entry(a.m, 0, 0), 1);
    fmpz_mul_2exp(fmpz_mat_entry(a.m, 0, 0), fmpz_mat_entry(a.m, 0, 0), 959);  // 960 bits exactly
    FmpzValue det;
    ::fmpz_mat_det(det.v, a.m);
    ASSERT_FALSE(fmpz_is_zero(det.v));
    EXPECT_TRUE(matches_flint(a.m, "960 bits"));
    fmpz_mul_2exp(fmpz_mat_entry(a.m, 0, 0), fmpz_mat_entry(a.m, 0, 0), 40);  // 1000 bits
    EXPECT_FALSE(matches_flint(a.m, "1000 bits"));
}

TEST_F(FmpzMatDetByDivisor, BothWaysOfTheResiduesAgree)
{
    FmpzMat a(70, 70);
    fmpz_mat_randtest(a.m, state_, 64);
    const PrimeSet set = product_primes(300);
    const gpu::ModularTables& tables = set.state().gpu_reduction_tables();
    const matrix::ZMatrix za = operand(a.m);
    EXPECT_EQ(gpu::fmpz_mat_det_residues(za.entries, 70, tables, true, {}),
              gpu::fmpz_mat_det_residues(za.entries, 70, tables, false, {}));
}

// zgpu_fmpz_mat_det with each way forced: at 64 rows the model takes the whole bound's primes, at
// 600 the divisor; every way gives FLINT's determinant (at 600, each way the other's).
TEST_F(FmpzMatDetByDivisor, EachWayForcedGivesTheSameDeterminant)
{
    const ScopedBackend gpu("gpu");
    for (const slong n : {64, 600}) {
        FmpzMat a(n, n);
        fmpz_mat_randbits(a.m, state_, 64);
        FmpzValue expected;
        if (n == 64) ::fmpz_mat_det(expected.v, a.m);
        for (const char* way : {"primes", "divisor", "auto"}) {
            const ScopedVariable forced("ZGPU_DET_ALGORITHM", way);
            FmpzValue det;
            ASSERT_EQ(zgpu_fmpz_mat_det(det.v, a.m), 0) << way;
            if (fmpz_is_zero(expected.v)) fmpz_set(expected.v, det.v);
            EXPECT_TRUE(fmpz_equal(det.v, expected.v)) << way << ", n = " << n;
        }
    }
}

// The cost models, on the H200's numbers (bench_matrix): the divisor from 600 rows of 64-bit
// entries (at 400 the whole bound's primes measured 21.9 ms, the divisor 29.2); block recursion
// for a few primes of large matrices, det_mod's block a prime for small ones or many primes.
TEST(FmpzMatDetDivisorRules, TheChoices)
{
    EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(1000, 64, 69000));
    EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(600, 64, 41400));
    EXPECT_FALSE(matrix::divisor_pays_for_fmpz_mat_det(400, 64, 27600));
    EXPECT_FALSE(matrix::divisor_pays_for_fmpz_mat_det(100, 64, 6900));
    // Split over MPI ranks (2000 x 2000 of 256 bits on two H200s: the whole bound's 8452 primes
    // 17.2 s on one GPU and 9.1 s on two, the divisor 2.5 s on one): the divisor up to a few
    // GPUs (the times cross at about 7), the whole bound's primes on more.
    EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(2000, 256, 524000, 1));
    EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(2000, 256, 524000, 2));
    EXPECT_FALSE(matrix::divisor_pays_for_fmpz_mat_det(2000, 256, 524000, 16));
    {
        const ScopedVariable forced("ZGPU_DET_ALGORITHM", "primes");
        EXPECT_FALSE(matrix::divisor_pays_for_fmpz_mat_det(2000, 256, 524000, 1));
    }
    {
        // Forced, wherever the lifting's digits fit 1 GiB.
        const ScopedVariable forced("ZGPU_DET_ALGORITHM", "divisor");
        EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(100, 64, 6900));
        EXPECT_TRUE(matrix::divisor_pays_for_fmpz_mat_det(2000, 256, 524000, 16));
        EXPECT_FALSE(matrix::divisor_pays_for_fmpz_mat_det(100000, 64, 10000000));
    }
    EXPECT_TRUE(matrix::det_by_blocks(1000, 19));
    EXPECT_TRUE(matrix::det_by_blocks(600, 15));
    EXPECT_TRUE(matrix::det_by_blocks(400, 13));
    EXPECT_FALSE(matrix::det_by_blocks(400, 441));
    EXPECT_FALSE(matrix::det_by_blocks(200, 220));
    EXPECT_FALSE(matrix::det_by_blocks(200, 13));
    EXPECT_FALSE(matrix::det_by_blocks(64, 13));
    EXPECT_FALSE(matrix::det_by_blocks(100, 1657));
}

}  // namespace
}  // namespace zgpu::testing
