// Divisions of FLINT vectors on the GPU in many chunks: the device memory limit
// (ZGPU_GPU_MEMORY_LIMIT) set below the vectors' bytes, so that each call runs in more than
// four chunks (counted from ZGPU_TIMING's report); counts that are no multiple of the chunk,
// all-ones limbs, every sign, outputs aliasing inputs, and an inexact element in a late chunk.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

// gmp.h first: FLINT 3 declares fmpz_set_mpz and fmpz_get_mpz only after it.
#include <gmp.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "pipeline_chunks.hpp"
#include "random_integers.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

// 64 KiB: a few hundred of these elements a chunk, against vectors of about 200 KiB.
constexpr const char* kMemoryLimit = "65536";
constexpr slong kCount = 2003;  // prime: no multiple of any chunk

class ChunkedDivision : public ::testing::Test {
protected:
    void SetUp() override
    {
        ZGPU_SKIP_WITHOUT(Backend::gpu);
        setenv("ZGPU_BACKEND", "gpu", 1);
        setenv("ZGPU_GPU_MEMORY_LIMIT", kMemoryLimit, 1);
        setenv("ZGPU_TIMING", "1", 1);
    }
    void TearDown() override
    {
        unsetenv("ZGPU_BACKEND");
        unsetenv("ZGPU_GPU_MEMORY_LIMIT");
        unsetenv("ZGPU_TIMING");
    }

    // x[i] of up to max_limbs limbs, of every shape and sign; nonzero if asked.
    void fill(Vec& x, std::uint32_t max_limbs, bool nonzero)
    {
        mpz_t z;
        mpz_init(z);
        for (slong i = 0; i < x.n; ++i) {
            const std::uint32_t limbs = std::uint32_t(nonzero ? 1 + source_.below(max_limbs) : source_.below(max_limbs + 1));
            const Shape shape = i % 4 == 0 ? Shape::all_ones : i % 4 == 1 ? Shape::power : Shape::random;
            source_.set(z, limbs, shape, i % 3 == 1);
            fmpz_set_mpz(x.v + i, z);
        }
        mpz_clear(z);
    }

    IntegerSource source_{29};
};

TEST_F(ChunkedDivision, QuotientAndRemainderMatchFlint)
{
    using Ours = int (*)(fmpz*, fmpz*, const fmpz*, const fmpz*, slong);
    using Theirs = void (*)(fmpz_t, fmpz_t, const fmpz_t, const fmpz_t);
    const std::pair<Ours, Theirs> ops[] = {{zgpu_fmpz_vec_fdiv_qr, fmpz_fdiv_qr}, {zgpu_fmpz_vec_tdiv_qr, fmpz_tdiv_qr}};
    for (const auto& [ours_op, theirs_op] : ops) {
        Vec a(kCount), b(kCount), q(kCount), r(kCount), eq(kCount), er(kCount);
        fill(a, 8, false);
        fill(b, 3, true);
        for (slong i = 0; i < kCount; ++i) theirs_op(eq.v + i, er.v + i, a.v + i, b.v + i);
        EXPECT_GT(chunks_of([&] { ASSERT_EQ(ours_op(q.v, r.v, a.v, b.v, kCount), 0) << zgpu_last_error(); }), 4u);
        EXPECT_EQ(std::string(zgpu_last_backend()), "gpu");
        EXPECT_TRUE(_fmpz_vec_equal(q.v, eq.v, kCount)) << "quotients";
        EXPECT_TRUE(_fmpz_vec_equal(r.v, er.v, kCount)) << "remainders";
        // q == vec1 and r == vec2: chunk k's results are written after chunk k was read.
        EXPECT_GT(chunks_of([&] { ASSERT_EQ(ours_op(a.v, b.v, a.v, b.v, kCount), 0) << zgpu_last_error(); }), 4u);
        EXPECT_TRUE(_fmpz_vec_equal(a.v, eq.v, kCount) && _fmpz_vec_equal(b.v, er.v, kCount)) << "aliased";
    }
}

TEST_F(ChunkedDivision, ScalarModMatchesFlint)
{
    fmpz_t p;
    fmpz_init(p);
    for (const int modulus : {0, 1}) {
        if (modulus == 0) {  // 2^128 - 1: all-ones limbs
            fmpz_one(p);
            fmpz_mul_2exp(p, p, 128);
            fmpz_sub_ui(p, p, 1);
        } else {
            fmpz_set_ui(p, 1000003);
        }
        Vec a(kCount), ours(kCount), theirs(kCount);
        fill(a, 8, false);
        _fmpz_vec_scalar_mod_fmpz(theirs.v, a.v, kCount, p);
        EXPECT_GT(chunks_of([&] { ASSERT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(ours.v, a.v, kCount, p), 0) << zgpu_last_error(); }),
                  4u);
        EXPECT_EQ(std::string(zgpu_last_backend()), "gpu");
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, kCount)) << "modulus " << modulus;
        ASSERT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(a.v, a.v, kCount, p), 0) << zgpu_last_error();  // res == vec
        EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, kCount)) << "res == vec, modulus " << modulus;
    }
    fmpz_clear(p);
}

TEST_F(ChunkedDivision, CheckedExactDivisionWritesAllOrNothing)
{
    Vec q(kCount), b(kCount), a(kCount), res(kCount), before(kCount);
    fill(q, 5, false);
    fill(b, 3, true);
    for (slong i = 0; i < kCount; ++i) fmpz_mul(a.v + i, q.v + i, b.v + i);
    EXPECT_GT(chunks_of([&] { ASSERT_EQ(zgpu_fmpz_vec_divexact_checked(res.v, a.v, b.v, kCount), 0) << zgpu_last_error(); }),
              4u);
    EXPECT_EQ(std::string(zgpu_last_backend()), "gpu");
    EXPECT_TRUE(_fmpz_vec_equal(res.v, q.v, kCount));
    // An inexact element in the last chunks: an error naming it, and nothing written.
    for (slong i = 0; i < kCount; ++i) fmpz_set_si(res.v + i, i - 1000);
    _fmpz_vec_set(before.v, res.v, kCount);
    const slong bad = kCount - 7;
    fmpz_set_ui(b.v + bad, 7);
    fmpz_mul_ui(a.v + bad, q.v + bad, 7);
    fmpz_add_ui(a.v + bad, a.v + bad, 1);
    EXPECT_EQ(zgpu_fmpz_vec_divexact_checked(res.v, a.v, b.v, kCount), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("entry " + std::to_string(bad) + " does not divide exactly"),
              std::string::npos)
        << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, kCount)) << "nothing written";
    fmpz_sub_ui(a.v + bad, a.v + bad, 1);
    // res == vec1, exact again.
    ASSERT_EQ(zgpu_fmpz_vec_divexact_checked(a.v, a.v, b.v, kCount), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(a.v, q.v, kCount)) << "res == vec1";
}

TEST_F(ChunkedDivision, CheckedScalarDivisionReportsALateInexactEntry)
{
    fmpz_t c;
    fmpz_init(c);
    fmpz_one(c);
    fmpz_mul_2exp(c, c, 128);
    fmpz_sub_ui(c, c, 1);
    fmpz_neg(c, c);  // -(2^128 - 1)
    Vec q(kCount), a(kCount), res(kCount), before(kCount);
    fill(q, 6, false);
    _fmpz_vec_scalar_mul_fmpz(a.v, q.v, kCount, c);
    const slong bad = kCount - 1;
    fmpz_sub_ui(a.v + bad, a.v + bad, 1);
    _fmpz_vec_set(before.v, res.v, kCount);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz_checked(res.v, a.v, kCount, c), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("entry " + std::to_string(bad)), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, kCount)) << "nothing written";
    fmpz_add_ui(a.v + bad, a.v + bad, 1);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz_checked(res.v, a.v, kCount, c), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, q.v, kCount));
    fmpz_clear(c);
}

}  // namespace
}  // namespace zgpu::testing
