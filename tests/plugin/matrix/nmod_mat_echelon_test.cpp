// zgpu_nmod_mat_lu, zgpu_nmod_mat_rref and zgpu_nmod_mat_nullspace against FLINT on each backend.
// The GPU's LU must equal nmod_mat_lu_classical's (the same pivots, P and packed factors); the
// CPU backend's is FLINT's nmod_mat_lu. Both give P a = L U with U in row echelon form. The
// echelon form and the null space are unique given FLINT's construction: equal to FLINT's.
// Shapes: empty, 1 x 1, around the GPU's panels of 16 columns and blocks of 256, tall and wide,
// every rank, columns without a pivot inside a panel and at its edges, row swaps, panels taller
// than their top rows and than shared memory; moduli from 2 to 2^64 - 59 (composite ones go to
// FLINT); rank_check; aliasing; bad input.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "nmod_mat_random.hpp"
#include "kernels/modular/ntt_primes.hpp"
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

std::string context(const nmod_mat_struct* a, const std::string& what)
{
    return what + " of " + std::to_string(a->r) + " x " + std::to_string(a->c) + " mod " + std::to_string(a->mod.n);
}

// Whether lu (of rank r, FLINT's packed form) and P are a factorisation of a: P a = L U, L unit
// lower triangular of r columns, U of r rows in row echelon form, zeros elsewhere.
::testing::AssertionResult factors_a(const nmod_mat_t a, const nmod_mat_t lu, const std::vector<slong>& P, slong r)
{
    const slong m = a->r, n = a->c;
    std::vector<bool> seen(static_cast<std::size_t>(m));
    for (const slong i : P) {
        if (i < 0 || i >= m || seen[std::size_t(i)]) return ::testing::AssertionFailure() << "P is not a permutation";
        seen[std::size_t(i)] = true;
    }
    NmodMat l(m, r, a->mod.n), u(r, n, a->mod.n), product(m, n, a->mod.n);
    for (slong i = 0; i < m; ++i)
        for (slong j = 0; j < n; ++j) {
            const ulong x = nmod_mat_entry(lu, i, j);
            if (j < std::min(i, r)) nmod_mat_entry(l.m, i, j) = x;
            else if (i < r) nmod_mat_entry(u.m, i, j) = x;
            else if (x != 0) return ::testing::AssertionFailure() << "entry (" << i << ", " << j << ") below the rank is not 0";
        }
    for (slong i = 0; i < r; ++i) {
        nmod_mat_entry(l.m, i, i) = 1;
        slong lead = 0;
        while (lead < n && nmod_mat_entry(u.m, i, lead) == 0) ++lead;
        if (lead == n) return ::testing::AssertionFailure() << "row " << i << " of U is 0";
        if (i > 0) {
            slong above = 0;
            while (nmod_mat_entry(u.m, i - 1, above) == 0) ++above;
            if (above >= lead) return ::testing::AssertionFailure() << "U is not in row echelon form at row " << i;
        }
    }
    ::nmod_mat_mul(product.m, l.m, u.m);
    for (slong i = 0; i < m; ++i)
        for (slong j = 0; j < n; ++j)
            if (nmod_mat_entry(product.m, i, j) != nmod_mat_entry(a, P[std::size_t(i)], j))
                return ::testing::AssertionFailure() << "(L U)(" << i << ", " << j << ") is not (P a)'s";
    return ::testing::AssertionSuccess();
}

class NmodMatEchelon : public OnBackendWithFlint {
protected:
    // zgpu's LU (both rank_check values), echelon form and null space of a against FLINT's.
    void expect_flint(const nmod_mat_t a)
    {
        const slong m = a->r, n = a->c;
        for (const int rank_check : {0, 1}) {
            NmodMat ours(m, n, a->mod.n), theirs(m, n, a->mod.n);
            nmod_mat_set(ours.m, a);
            nmod_mat_set(theirs.m, a);
            std::vector<slong> P(std::size_t(m), -1), Q(std::size_t(m), -1);
            slong rank = -1;
            ASSERT_EQ(zgpu_nmod_mat_lu(&rank, P.data(), ours.m, rank_check), 0) << zgpu_last_error();
            const bool gpu = std::string(zgpu_last_backend()) == "gpu";
            EXPECT_EQ(gpu, GetParam() == Backend::gpu && m > 0 && n > 0 && n_is_prime(a->mod.n)) << context(a, "LU");
            const slong expected = gpu ? nmod_mat_lu_classical(Q.data(), theirs.m, rank_check) : ::nmod_mat_lu(Q.data(), theirs.m, rank_check);
            const std::string what = context(a, std::string("LU, rank_check ") + std::to_string(rank_check));
            ASSERT_EQ(rank, expected) << what;
            // FLINT leaves the matrix undefined where the rank check failed.
            if (rank_check && rank == 0 && std::min(m, n) > 0) continue;
            EXPECT_EQ(P, Q) << what;
            EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << what;
            EXPECT_TRUE(factors_a(a, ours.m, P, rank)) << what;
        }
        NmodMat ours(m, n, a->mod.n), theirs(m, n, a->mod.n);
        nmod_mat_set(ours.m, a);
        nmod_mat_set(theirs.m, a);
        slong rank = -1;
        ASSERT_EQ(zgpu_nmod_mat_rref(&rank, ours.m), 0) << zgpu_last_error();
        EXPECT_EQ(rank, ::nmod_mat_rref(theirs.m)) << context(a, "rref");
        EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << context(a, "rref");
        NmodMat x(n, n, a->mod.n), y(n, n, a->mod.n);
        nmod_mat_one(x.m);  // every entry is written
        slong nullity = -1;
        ASSERT_EQ(zgpu_nmod_mat_nullspace(&nullity, x.m, a), 0) << zgpu_last_error();
        EXPECT_EQ(nullity, ::nmod_mat_nullspace(y.m, a)) << context(a, "nullspace");
        EXPECT_TRUE(nmod_mat_equal(x.m, y.m)) << context(a, "nullspace");
    }
};

TEST_P(NmodMatEchelon, RandomMatricesAroundThePanelsMatchFlint)
{
    for (const ulong p : primes())
        for (const slong n : {0, 1, 2, 15, 16, 17, 33, 100}) {
            NmodMat a(n, n, p);
            fill_uniform(a.m, state_);
            expect_flint(a.m);
            nmod_mat_randtest(a.m, state_);  // sparse, small and large entries
            expect_flint(a.m);
        }
}

TEST_P(NmodMatEchelon, TallAndWideShapesOfEveryRankMatchFlint)
{
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const auto& [rows, cols] : std::vector<std::pair<slong, slong>>{{0, 5}, {5, 0}, {1, 40}, {40, 1}, {5, 70}, {70, 5}, {33, 50}, {90, 47}})
        for (slong r = 0; r <= std::min(rows, cols); r += std::max<slong>(1, std::min(rows, cols) / 5)) {
            NmodMat a(rows, cols, p);
            fill_rank_at_most(a.m, r, state_);
            expect_flint(a.m);
        }
}

TEST_P(NmodMatEchelon, ColumnsWithoutAPivotAndRowSwapsMatchFlint)
{
    // Zero and repeated columns inside a panel, at its edges, and whole panels of them; with
    // p = 2 most columns repeat. Then anti-diagonal matrices, whose pivots all need swaps.
    for (const ulong p : {ulong(2), ulong(7), ~ulong(0) - 58}) {
        NmodMat a(60, 70, p);
        fill_uniform(a.m, state_);
        for (const slong j : {0, 5, 15, 16, 17, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 69})
            for (slong i = 0; i < 60; ++i) nmod_mat_entry(a.m, i, j) = j % 2 ? nmod_mat_entry(a.m, i, j - 1) : 0;
        expect_flint(a.m);
    }
    for (const slong n : {2, 17, 50}) {
        NmodMat a(n, n, ~ulong(0) - 58);
        for (slong j = 0; j < n; ++j) nmod_mat_entry(a.m, n - 1 - j, j) = 1 + ulong(j);
        expect_flint(a.m);
    }
}

TEST_P(NmodMatEchelon, ExtremeMatricesMatchFlint)
{
    for (const ulong p : primes()) {
        NmodMat zero(40, 40, p), top(40, 41, p), identity(40, 40, p);
        expect_flint(zero.m);
        for (slong i = 0; i < 40; ++i)
            for (slong j = 0; j < 41; ++j) nmod_mat_entry(top.m, i, j) = p - 1;  // rank 1
        expect_flint(top.m);
        nmod_mat_one(identity.m);
        expect_flint(identity.m);
    }
}

TEST_P(NmodMatEchelon, LargeMatricesMatchFlint)
{
    // Blocks of 256 columns with their wide updates; panels beyond their top 128 rows, and
    // beyond what shared memory holds (about 1700 rows on sm_90); wide matrices whose pivots
    // run out of rows inside a block, with U's rows right of it; p = 2's swaps.
    const ulong p = n_nextprime(ulong(1) << 62, 1);
    for (const auto& [rows, cols, rank] : std::vector<std::tuple<slong, slong, slong>>{
             {300, 300, 300}, {513, 513, 500}, {600, 600, 600}, {200, 700, 150}, {200, 700, 200}, {1800, 48, 40}, {300, 1000, 300}}) {
        NmodMat a(rows, cols, p);
        if (rank == std::min(rows, cols)) fill_uniform(a.m, state_);
        else fill_rank_at_most(a.m, rank, state_);
        expect_flint(a.m);
    }
    NmodMat binary(600, 600, 2);
    fill_uniform(binary.m, state_);
    expect_flint(binary.m);
}

TEST_P(NmodMatEchelon, CompositeModuliGoToFlint)
{
    // FLINT's LU inverts its pivots: the identity's are units modulo anything.
    for (const ulong n : {ulong(4), ulong(255), ~ulong(0)}) {
        NmodMat a(20, 20, n);
        nmod_mat_one(a.m);
        std::vector<slong> P(20);
        slong rank = -1;
        ASSERT_EQ(zgpu_nmod_mat_lu(&rank, P.data(), a.m, 0), 0) << zgpu_last_error();
        EXPECT_EQ(rank, 20);
        EXPECT_STREQ(zgpu_last_backend(), "cpu");
        ASSERT_EQ(zgpu_nmod_mat_rref(&rank, a.m), 0) << zgpu_last_error();
        EXPECT_TRUE(nmod_mat_is_one(a.m));
    }
}

TEST_P(NmodMatEchelon, NullspaceIntoItsOwnMatrix)
{
    const ulong p = kernels::ntt_primes(1)[0];
    NmodMat a(70, 70, p), expected(70, 70, p);
    fill_rank_at_most(a.m, 50, state_);
    const slong nullity = ::nmod_mat_nullspace(expected.m, a.m);
    slong ours = -1;
    ASSERT_EQ(zgpu_nmod_mat_nullspace(&ours, a.m, a.m), 0) << zgpu_last_error();
    EXPECT_EQ(ours, nullity);
    EXPECT_TRUE(nmod_mat_equal(a.m, expected.m));
}

TEST_P(NmodMatEchelon, BadInputIsReportedAndNothingIsWritten)
{
    NmodMat a(3, 4, 7), x(4, 4, 7), short_x(3, 4, 7), other(4, 4, 11);
    nmod_mat_entry(a.m, 0, 0) = 5;
    nmod_mat_entry(x.m, 0, 0) = 6;
    slong rank = 99;
    EXPECT_EQ(zgpu_nmod_mat_lu(&rank, nullptr, a.m, 0), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_mat_lu: P is NULL");
    std::vector<slong> P(3);
    EXPECT_EQ(zgpu_nmod_mat_lu(nullptr, P.data(), a.m, 0), -1);
    EXPECT_EQ(zgpu_nmod_mat_lu(&rank, P.data(), nullptr, 0), -1);
    EXPECT_EQ(zgpu_nmod_mat_rref(nullptr, a.m), -1);
    EXPECT_EQ(zgpu_nmod_mat_rref(&rank, nullptr), -1);
    EXPECT_EQ(zgpu_nmod_mat_nullspace(&rank, short_x.m, a.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_mat_nullspace: x is 3 x 4, a is 3 x 4");
    EXPECT_EQ(zgpu_nmod_mat_nullspace(&rank, other.m, a.m), -1);
    EXPECT_EQ(zgpu_nmod_mat_nullspace(nullptr, x.m, a.m), -1);
    EXPECT_EQ(rank, 99);
    EXPECT_EQ(nmod_mat_entry(a.m, 0, 0), 5u);
    EXPECT_EQ(nmod_mat_entry(x.m, 0, 0), 6u);
    EXPECT_THROW(zgpu::nmod_mat_rref(nullptr), Error);
    // An empty matrix needs no P.
    NmodMat empty(0, 4, 7);
    EXPECT_EQ(zgpu_nmod_mat_lu(&rank, nullptr, empty.m, 1), 0) << zgpu_last_error();
    EXPECT_EQ(rank, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodMatEchelon, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
