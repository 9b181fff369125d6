// Vectors of many small values and a few huge ones through the FLINT entry points: on the GPU
// they run in size groups (plugin/gpu/grouped_run.hpp), not padded to the largest element, and
// must still match FLINT, results in order, outputs aliasing inputs included.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

// gmp.h first: FLINT 3 declares fmpz_set_mpz and fmpz_get_mpz only after it.
#include <gmp.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "random_integers.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

constexpr slong kCount = slong(1) << 16;

// Positions of the huge values: `count` of them, shuffled by the seed.
std::vector<slong> huge_positions(std::size_t count, std::uint64_t seed)
{
    std::vector<slong> all(kCount);
    std::iota(all.begin(), all.end(), slong(0));
    std::shuffle(all.begin(), all.end(), std::mt19937_64(seed));
    all.resize(count);
    return all;
}

// One-limb values (zeros, all-ones limbs, inline fmpz, negatives) and values of `huge_limbs`
// at `huge` positions (all-ones limbs or random, either sign).
void fill_mixed(Vec& x, const std::vector<slong>& huge, std::uint32_t huge_limbs, std::uint64_t seed)
{
    IntegerSource source(seed);
    MpzArray value(1);
    for (slong i = 0; i < x.n; ++i) {
        const std::uint32_t limbs = i % 5 == 0 ? 0 : 1;
        source.set(value[0], limbs, i % 3 == 0 ? Shape::all_ones : Shape::random, i % 2 == 1);
        if (i % 11 == 0) mpz_tdiv_q_2exp(value[0], value[0], 10);  // inline in the fmpz
        fmpz_set_mpz(x.v + i, value[0]);
    }
    for (std::size_t k = 0; k < huge.size(); ++k) {
        source.set(value[0], huge_limbs, k % 2 ? Shape::all_ones : Shape::random, k % 3 == 1);
        fmpz_set_mpz(x.v + huge[k], value[0]);
    }
}

class MixedSizes : public OnBackendWithFlint {
protected:
    // Runs call() with ZGPU_TIMING set; on the GPU, expects a pipeline run of `huge` elements
    // (the huge values' own size group) among those reported.
    template <class Call>
    void expect_grouped(std::size_t huge, Call call)
    {
        setenv("ZGPU_TIMING", "1", 1);
        ::testing::internal::CaptureStderr();
        call();
        const std::string timing = ::testing::internal::GetCapturedStderr();
        unsetenv("ZGPU_TIMING");
        if (GetParam() == Backend::gpu) {
            EXPECT_NE(timing.find("zgpu: " + std::to_string(huge) + " elements on the GPU"), std::string::npos) << timing;
        }
    }
    const char* expected_backend() const { return GetParam() == Backend::gpu ? "gpu" : "cpu"; }
};

TEST_P(MixedSizes, ProductsAndSquaresMatchFlint)
{
    const auto huge = huge_positions(4, 1);
    Vec a(kCount), b(kCount), ours(kCount), theirs(kCount);
    fill_mixed(a, huge, 1 << 14, 2);
    fill_mixed(b, huge, 1 << 14, 3);
    for (slong i = 0; i < kCount; ++i) fmpz_mul(theirs.v + i, a.v + i, b.v + i);
    expect_grouped(4, [&] { ASSERT_EQ(zgpu_fmpz_vec_mul(ours.v, a.v, b.v, kCount), 0) << zgpu_last_error(); });
    EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, kCount));
    EXPECT_STREQ(zgpu_last_backend(), expected_backend());

    ASSERT_EQ(zgpu_fmpz_vec_mul(a.v, a.v, b.v, kCount), 0) << zgpu_last_error();  // res == vec1
    EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, kCount)) << "res == vec1";

    for (slong i = 0; i < kCount; ++i) fmpz_mul(theirs.v + i, b.v + i, b.v + i);
    ASSERT_EQ(zgpu_fmpz_vec_sqr(b.v, b.v, kCount), 0) << zgpu_last_error();  // squares, res == vec
    EXPECT_TRUE(_fmpz_vec_equal(b.v, theirs.v, kCount)) << "squares";
}

// The huge values of each vector at their own places: an element's group is that of its larger
// operand.
TEST_P(MixedSizes, ProductsWithHugeValuesAtDifferentPlacesMatchFlint)
{
    Vec a(kCount), b(kCount), ours(kCount), theirs(kCount);
    fill_mixed(a, huge_positions(3, 4), 1 << 13, 5);
    fill_mixed(b, huge_positions(5, 6), 1 << 12, 7);
    for (slong i = 0; i < kCount; ++i) fmpz_mul(theirs.v + i, a.v + i, b.v + i);
    ASSERT_EQ(zgpu_fmpz_vec_mul(ours.v, a.v, b.v, kCount), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, kCount));
    EXPECT_STREQ(zgpu_last_backend(), expected_backend());
}

TEST_P(MixedSizes, ScalarAddmulAndSubmulMatchFlint)
{
    const auto huge = huge_positions(4, 8);
    Vec vec(kCount), res(kCount), ours(kCount), theirs(kCount);
    fill_mixed(vec, huge, 1 << 13, 9);
    fill_mixed(res, huge_positions(4, 10), 1 << 12, 11);
    fmpz_t c;
    fmpz_init(c);
    fmpz_randtest_not_zero(c, state_, 300);
    for (const bool subtract : {false, true}) {
        _fmpz_vec_set(theirs.v, res.v, kCount);
        if (subtract) _fmpz_vec_scalar_submul_fmpz(theirs.v, vec.v, kCount, c);
        else _fmpz_vec_scalar_addmul_fmpz(theirs.v, vec.v, kCount, c);
        _fmpz_vec_set(ours.v, res.v, kCount);
        ASSERT_EQ((subtract ? zgpu_fmpz_vec_scalar_submul_fmpz : zgpu_fmpz_vec_scalar_addmul_fmpz)(ours.v, vec.v, kCount, c), 0)
            << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, kCount)) << (subtract ? "submul" : "addmul");
        EXPECT_STREQ(zgpu_last_backend(), expected_backend());
    }
    fmpz_clear(c);
}

TEST_P(MixedSizes, ExactQuotientsMatchFlint)
{
    Vec q(kCount), b(kCount), a(kCount), ours(kCount);
    fill_mixed(q, huge_positions(4, 12), 1 << 13, 13);
    fill_mixed(b, huge_positions(3, 14), 1 << 12, 15);
    for (slong i = 0; i < kCount; ++i) {
        if (fmpz_is_zero(b.v + i)) fmpz_set_si(b.v + i, i % 2 ? -7 : 3);
        fmpz_mul(a.v + i, q.v + i, b.v + i);
    }
    ASSERT_EQ(zgpu_fmpz_vec_divexact(ours.v, a.v, b.v, kCount), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(ours.v, q.v, kCount));
    EXPECT_STREQ(zgpu_last_backend(), expected_backend());
    ASSERT_EQ(zgpu_fmpz_vec_divexact(a.v, a.v, b.v, kCount), 0) << zgpu_last_error();  // res == vec1
    EXPECT_TRUE(_fmpz_vec_equal(a.v, q.v, kCount)) << "res == vec1";
}

TEST_P(MixedSizes, SumsAndDifferencesMatchFlint)
{
    const auto huge = huge_positions(4, 16);
    Vec a(kCount), b(kCount), ours(kCount), theirs(kCount);
    fill_mixed(a, huge, 1 << 14, 17);
    fill_mixed(b, huge_positions(2, 18), 1 << 13, 19);
    for (const bool subtract : {false, true}) {
        if (subtract) _fmpz_vec_sub(theirs.v, a.v, b.v, kCount);
        else _fmpz_vec_add(theirs.v, a.v, b.v, kCount);
        ASSERT_EQ((subtract ? zgpu_fmpz_vec_sub : zgpu_fmpz_vec_add)(ours.v, a.v, b.v, kCount), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, kCount)) << (subtract ? "sub" : "add");
        EXPECT_STREQ(zgpu_last_backend(), expected_backend());
    }
    _fmpz_vec_add(theirs.v, a.v, b.v, kCount);
    ASSERT_EQ(zgpu_fmpz_vec_add(a.v, a.v, b.v, kCount), 0) << zgpu_last_error();  // res == vec1
    EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, kCount)) << "res == vec1";
}

INSTANTIATE_TEST_SUITE_P(Backends, MixedSizes, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
