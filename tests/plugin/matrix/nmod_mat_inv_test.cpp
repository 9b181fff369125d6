// zgpu_nmod_mat_inv and zgpu_nmod_mat_solve against FLINT's nmod_mat_inv and nmod_mat_solve on
// each backend: sizes 0 to 257 (around the GPU's leaves of 32 rows), random, singular, identity
// and anti-diagonal matrices (whose leading blocks are singular: the preconditioned retry above
// 2^61, FLINT below), every entry n - 1 but the diagonal, primes from 2 to 2^64 - 59 and
// composite moduli (FLINT's), 0 to 70 right-hand sides, aliasing, bad input.
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

// 2^32 - 5 is the largest prime below 2^32.
const std::vector<ulong>& primes()
{
    static const std::vector<ulong> p = {2, 3, 257, (ulong(1) << 31) - 1, ulong(4294967291), kernels::ntt_primes(1)[0],
                                         n_nextprime(ulong(1) << 62, 1), ~ulong(0) - 58};
    return p;
}

enum class Kind { random, singular, identity, anti_diagonal, all_top };

void fill(nmod_mat_t m, Kind kind, flint_rand_t state)
{
    const slong n = m->r;
    const ulong p = m->mod.n;
    nmod_mat_zero(m);
    for (slong i = 0; i < n; ++i)
        for (slong j = 0; j < n; ++j) {
            ulong& x = nmod_mat_entry(m, i, j);
            switch (kind) {
            case Kind::random: x = n_randint(state, p); break;
            case Kind::singular: x = n_randint(state, p); break;
            case Kind::identity: x = i == j; break;
            case Kind::anti_diagonal: x = i + j == n - 1; break;
            case Kind::all_top: x = i == j ? 0 : p - 1; break;  // (p - 1)(J - I): invertible where n - 1 is a unit
            }
        }
    // The last row the sum of the first two.
    if (kind == Kind::singular && n >= 3)
        for (slong j = 0; j < n; ++j)
            nmod_mat_entry(m, n - 1, j) = n_addmod(nmod_mat_entry(m, 0, j), nmod_mat_entry(m, 1, j), p);
}

class NmodMatInv : public OnBackendWithFlint {
protected:
    // FLINT's answer and zgpu's on one matrix, zgpu's into a (aliased) or into a matrix of its own.
    void check(slong n, ulong p, Kind kind, bool aliased)
    {
        NmodMat a(n, n, p), ours(n, n, p), theirs(n, n, p);
        fill(a.m, kind, state_);
        const int expected = nmod_mat_inv(theirs.m, a.m);
        int invertible = -1;
        if (aliased) nmod_mat_set(ours.m, a.m);
        ASSERT_EQ(zgpu_nmod_mat_inv(&invertible, ours.m, aliased ? ours.m : a.m), 0) << zgpu_last_error();
        const std::string what = std::to_string(n) + " x " + std::to_string(n) + " mod " + std::to_string(p) + ", kind " +
                                 std::to_string(int(kind)) + (aliased ? ", aliased" : "");
        ASSERT_EQ(invertible, expected) << what;
        // FLINT leaves b undefined where a is singular.
        if (expected) {
            EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << what;
        }
    }
};

TEST_P(NmodMatInv, MatchesFlint)
{
    for (const ulong p : primes())
        for (const slong n : {0, 1, 2, 31, 32, 33, 64, 100, 257})
            for (const Kind kind : {Kind::random, Kind::singular, Kind::identity, Kind::anti_diagonal, Kind::all_top})
                check(n, p, kind, false);
}

TEST_P(NmodMatInv, AliasedAndCompositeModuli)
{
    for (const ulong p : {kernels::ntt_primes(1)[0], ulong(65537)})
        for (const slong n : {3, 65, 200}) check(n, p, Kind::random, true);
    // FLINT aborts where a pivot is not a unit mod a composite: the identity's are.
    for (const ulong n : {ulong(255), ulong(256), ~ulong(0)}) check(40, n, Kind::identity, false);
}

// Where the GPU runs it: a random matrix modulo a large prime is invertible with its leading
// blocks; the anti-diagonal one is too, after the preconditioner above 2^61, and goes to FLINT
// below.
TEST_P(NmodMatInv, BackendThatRan)
{
    const bool gpu = GetParam() == Backend::gpu;
    check(100, kernels::ntt_primes(1)[0], Kind::random, false);
    EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu");
    check(100, ~ulong(0) - 58, Kind::anti_diagonal, false);
    EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu");
    check(100, 65537, Kind::anti_diagonal, false);
    EXPECT_STREQ(zgpu_last_backend(), "cpu");
    // FLINT aborts where a pivot is not a unit mod a composite: the identity's are.
    check(100, 255, Kind::identity, false);
    EXPECT_STREQ(zgpu_last_backend(), "cpu");
}

TEST_P(NmodMatInv, BadArgumentsWriteNothing)
{
    NmodMat a(3, 4, 7), square(3, 3, 7), b(3, 3, 7), other(3, 3, 11), wrong(4, 4, 7);
    nmod_mat_one(square.m);
    nmod_mat_entry(b.m, 0, 1) = 5;
    int invertible = -1;
    EXPECT_NE(zgpu_nmod_mat_inv(&invertible, b.m, a.m), 0);
    EXPECT_NE(zgpu_nmod_mat_inv(&invertible, wrong.m, square.m), 0);
    EXPECT_NE(zgpu_nmod_mat_inv(&invertible, other.m, square.m), 0);
    EXPECT_NE(zgpu_nmod_mat_inv(nullptr, b.m, square.m), 0);
    EXPECT_EQ(invertible, -1);
    EXPECT_EQ(nmod_mat_entry(b.m, 0, 1), 5u);
}

class NmodMatSolve : public OnBackendWithFlint {
protected:
    // FLINT's answer and zgpu's for a x = b with `cols` random right-hand sides; x is a where
    // aliased (cols == n).
    void check(slong n, slong cols, ulong p, Kind kind, bool aliased)
    {
        NmodMat a(n, n, p), b(n, cols, p), ours(n, cols, p), theirs(n, cols, p);
        fill(a.m, kind, state_);
        for (slong i = 0; i < n; ++i)
            for (slong j = 0; j < cols; ++j) nmod_mat_entry(b.m, i, j) = n_randint(state_, p);
        const int expected = nmod_mat_solve(theirs.m, a.m, b.m);
        int nonsingular = -1;
        if (aliased) nmod_mat_set(ours.m, a.m);
        ASSERT_EQ(zgpu_nmod_mat_solve(&nonsingular, ours.m, aliased ? ours.m : a.m, b.m), 0) << zgpu_last_error();
        const std::string what = std::to_string(n) + " x " + std::to_string(n) + " by " + std::to_string(cols) + " mod " +
                                 std::to_string(p) + ", kind " + std::to_string(int(kind)) + (aliased ? ", aliased" : "");
        ASSERT_EQ(nonsingular, expected) << what;
        // FLINT leaves x undefined where a is singular.
        if (expected) {
            EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << what;
        }
    }
};

TEST_P(NmodMatSolve, MatchesFlint)
{
    for (const ulong p : primes())
        for (const slong n : {0, 1, 2, 33, 100})
            for (const slong cols : {0, 1, 3, 70})
                for (const Kind kind : {Kind::random, Kind::singular, Kind::anti_diagonal, Kind::all_top}) check(n, cols, p, kind, false);
}

TEST_P(NmodMatSolve, AliasedAndBackendThatRan)
{
    const bool gpu = GetParam() == Backend::gpu;
    check(64, 64, kernels::ntt_primes(1)[0], Kind::random, true);
    EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu");
    check(100, 1, ~ulong(0) - 58, Kind::anti_diagonal, false);
    EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu");
    check(100, 1, 65537, Kind::anti_diagonal, false);
    EXPECT_STREQ(zgpu_last_backend(), "cpu");
}

TEST_P(NmodMatSolve, BadArgumentsWriteNothing)
{
    NmodMat a(3, 3, 7), b(3, 2, 7), x(3, 2, 7), tall(4, 2, 7), other(3, 2, 11), wide(3, 4, 7);
    nmod_mat_one(a.m);
    nmod_mat_entry(x.m, 0, 1) = 5;
    int nonsingular = -1;
    EXPECT_NE(zgpu_nmod_mat_solve(&nonsingular, x.m, wide.m, b.m), 0);
    EXPECT_NE(zgpu_nmod_mat_solve(&nonsingular, x.m, a.m, tall.m), 0);
    EXPECT_NE(zgpu_nmod_mat_solve(&nonsingular, tall.m, a.m, b.m), 0);
    EXPECT_NE(zgpu_nmod_mat_solve(&nonsingular, other.m, a.m, b.m), 0);
    EXPECT_NE(zgpu_nmod_mat_solve(nullptr, x.m, a.m, b.m), 0);
    EXPECT_EQ(nonsingular, -1);
    EXPECT_EQ(nmod_mat_entry(x.m, 0, 1), 5u);
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodMatSolve, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);
INSTANTIATE_TEST_SUITE_P(Backends, NmodMatInv, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
