// zgpu_nmod_mat_mul against FLINT's nmod_mat_mul on each backend: empty and 1 x 1 shapes, the
// GPU's tile edges and both sides of its rule for the tensor cores, non-square shapes, every entry n - 1, aliasing, moduli from 2 to 2^64 - 1,
// bad input; the GPU's failure handled by the host; the choice's rules.
#include <gmp.h>

#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_mul.hpp"
#include "zgpu/error.hpp"
#include "zgpu/matrix.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace zgpu::testing {
namespace {

const std::vector<ulong>& moduli()
{
    static const std::vector<ulong> m = {2, 3, 65537, kernels::ntt_primes(1)[0], (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};
    return m;
}

std::string context(slong rows, slong inner, slong cols, ulong n)
{
    return std::to_string(rows) + " x " + std::to_string(inner) + " times " + std::to_string(inner) + " x " +
           std::to_string(cols) + " mod " + std::to_string(n);
}

void set_top(nmod_mat_t m)
{
    for (slong i = 0; i < m->r; ++i)
        for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = m->mod.n - 1;
}

class MatEntryPoints : public OnBackendWithFlint {};

TEST_P(MatEntryPoints, MulMatchesFlint)
{
    // Around the GPU's tiles (32 rows, 64 columns, 16 inner terms a stage) and off them, and on
    // both sides of the tensor cores' rule (256 inner terms, 32 rows and columns).
    const slong shapes[][3] = {{0, 0, 0},     {0, 3, 2},      {2, 0, 3},      {3, 2, 0},      {1, 1, 1},
                               {1, 7, 1},     {31, 15, 63},   {32, 16, 64},   {33, 17, 65},   {5, 100, 3},
                               {97, 33, 130}, {64, 200, 1},   {32, 255, 32},  {32, 256, 32},  {31, 300, 40},
                               {40, 300, 31}, {33, 257, 35}};
    for (const ulong n : moduli())
        for (const auto& s : shapes) {
            NmodMat a(s[0], s[1], n), b(s[1], s[2], n), ours(s[0], s[2], n), theirs(s[0], s[2], n);
            nmod_mat_randtest(a.m, state_);
            nmod_mat_randtest(b.m, state_);
            nmod_mat_randtest(ours.m, state_);  // overwritten
            ::nmod_mat_mul(theirs.m, a.m, b.m);
            ASSERT_EQ(zgpu_nmod_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << context(s[0], s[1], s[2], n);
        }
}

TEST_P(MatEntryPoints, EveryEntryAtTheMaximum)
{
    // The inner sums' largest case: (n - 1)^2 a term, up to 2048 terms, and the largest n.
    for (const ulong n : {~ulong(0), ~ulong(0) - 58, ulong(2)})
        for (const slong inner : {slong(1), slong(16), slong(2048)}) {
            NmodMat a(40, inner, n), b(inner, 70, n), ours(40, 70, n), theirs(40, 70, n);
            set_top(a.m);
            set_top(b.m);
            ::nmod_mat_mul(theirs.m, a.m, b.m);
            ASSERT_EQ(zgpu_nmod_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << context(40, inner, 70, n);
        }
}

TEST_P(MatEntryPoints, ProductsLargeEnoughForTheGpuMatchFlint)
{
    // Shapes the automatic choice sends to the GPU, and one past a million entries a matrix.
    for (const auto& s : {std::vector<slong>{300, 500, 400}, std::vector<slong>{1025, 1000, 1030}}) {
        const ulong n = (ulong(1) << 62) + 135;
        NmodMat a(s[0], s[1], n), b(s[1], s[2], n), ours(s[0], s[2], n), theirs(s[0], s[2], n);
        nmod_mat_randfull(a.m, state_);
        nmod_mat_randfull(b.m, state_);
        ::nmod_mat_mul(theirs.m, a.m, b.m);
        ASSERT_EQ(zgpu_nmod_mat_mul(ours.m, a.m, b.m), 0) << zgpu_last_error();
        EXPECT_TRUE(nmod_mat_equal(ours.m, theirs.m)) << context(s[0], s[1], s[2], n);
        EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");
    }
}

TEST_P(MatEntryPoints, AliasedResults)
{
    const ulong n = kernels::ntt_primes(1)[0];
    NmodMat a(70, 70, n), b(70, 70, n), expected(70, 70, n);
    nmod_mat_randtest(a.m, state_);
    nmod_mat_randtest(b.m, state_);
    ::nmod_mat_mul(expected.m, a.m, b.m);
    NmodMat c(70, 70, n);
    nmod_mat_set(c.m, a.m);
    ASSERT_EQ(zgpu_nmod_mat_mul(c.m, c.m, b.m), 0) << zgpu_last_error();  // c == a
    EXPECT_TRUE(nmod_mat_equal(c.m, expected.m));
    nmod_mat_set(c.m, b.m);
    ASSERT_EQ(zgpu_nmod_mat_mul(c.m, a.m, c.m), 0) << zgpu_last_error();  // c == b
    EXPECT_TRUE(nmod_mat_equal(c.m, expected.m));
    ::nmod_mat_mul(expected.m, a.m, a.m);
    nmod_mat_set(c.m, a.m);
    ASSERT_EQ(zgpu_nmod_mat_mul(c.m, c.m, c.m), 0) << zgpu_last_error();  // a square in place
    EXPECT_TRUE(nmod_mat_equal(c.m, expected.m));
}

TEST_P(MatEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    NmodMat a(3, 4, 7), b(4, 5, 7), c(3, 5, 7), wrong(4, 5, 7), other(4, 5, 11), copy(3, 5, 7);
    nmod_mat_randtest(c.m, state_);
    nmod_mat_set(copy.m, c.m);
    EXPECT_EQ(zgpu_nmod_mat_mul(c.m, a.m, a.m), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("zgpu_nmod_mat_mul: shapes do not match: a 3 x 4, b 3 x 4, c 3 x 5"),
              std::string::npos)
        << zgpu_last_error();
    EXPECT_EQ(zgpu_nmod_mat_mul(wrong.m, a.m, b.m), -1);  // c of the wrong shape
    EXPECT_EQ(zgpu_nmod_mat_mul(c.m, a.m, other.m), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("different moduli: a mod 7, b mod 11, c mod 7"), std::string::npos)
        << zgpu_last_error();
    EXPECT_EQ(zgpu_nmod_mat_mul(c.m, nullptr, b.m), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_mat_mul: a is NULL");
    EXPECT_TRUE(nmod_mat_equal(c.m, copy.m));
    EXPECT_THROW(zgpu::nmod_mat_mul(c.m, a.m, other.m), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, MatEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// A GPU that fails: automatic, the host computes the product with a warning; forced, the error
// stands and c is untouched. Runs without a GPU (the failure is a stand-in).
TEST(NmodMatGpuPath, AFailureIsFinishedByTheHostUnlessTheGpuWasForced)
{
    flint_rand_t state;
    random_init(state);
    const ulong n = 1000003;
    NmodMat a(20, 30, n), b(30, 10, n), c(20, 10, n), expected(20, 10, n), before(20, 10, n);
    nmod_mat_randtest(a.m, state);
    nmod_mat_randtest(b.m, state);
    nmod_mat_randtest(c.m, state);
    nmod_mat_set(before.m, c.m);
    ::nmod_mat_mul(expected.m, a.m, b.m);
    const matrix::NmodMatGpu failing = [](nmod_mat_struct*, const nmod_mat_struct*, const nmod_mat_struct*) {
        throw Error("out of device memory (a stand-in)");
    };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(matrix::nmod_mat_product_on(Backend::gpu, c.m, a.m, b.m, failing), Backend::cpu);
    const std::string warning = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("the GPU failed on a matrix product (zgpu: out of device memory"), std::string::npos) << warning;
    EXPECT_TRUE(nmod_mat_equal(c.m, expected.m));
    nmod_mat_set(c.m, before.m);
    setenv("ZGPU_BACKEND", "cpu", 1);  // forced (to cpu, so that no GPU is needed for the check)
    EXPECT_THROW(matrix::nmod_mat_product_on(Backend::gpu, c.m, a.m, b.m, failing), Error);
    unsetenv("ZGPU_BACKEND");
    EXPECT_TRUE(nmod_mat_equal(c.m, before.m));
    random_clear(state);
}

TEST(NmodMatChoice, SmallProductsStayOnTheHostLargeOnesGoToTheGpu)
{
    EXPECT_FALSE(matrix::gpu_pays_for_nmod_mat_mul({16, 16, 16, 62}, 16));
    EXPECT_FALSE(matrix::gpu_pays_for_nmod_mat_mul({1, 100000, 1, 62}, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_nmod_mat_mul({2048, 2048, 2048, 62}, 16));
    EXPECT_TRUE(matrix::gpu_pays_for_nmod_mat_mul({300, 500, 400, 62}, 16));
    EXPECT_GT(matrix::flint_nmod_mat_seconds({100, 100, 100, 62}), matrix::flint_nmod_mat_seconds({100, 100, 100, 20}));
}

}  // namespace
}  // namespace zgpu::testing
