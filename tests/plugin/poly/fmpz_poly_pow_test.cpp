// zgpu_fmpz_poly_pow and _zgpu_fmpz_poly_pow against FLINT on each backend: exponents from 0 to
// 300, lengths from 0 to 1000, coefficients of 1 to 2000 bits with every sign pattern, every
// coefficient at the maximum (the bound ||f||_1^e at its tightest for two coefficients of one
// sign), aliasing, zeros on top of the raw form's operand, bad input.
#include <gmp.h>

#include <string>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

class FmpzPolyPow : public OnBackendWithFlint {
protected:
    // res = poly^e through zgpu against FLINT, res overwritten, and the backend: the GPU's where it
    // is forced and the power is not one FLINT answers at once.
    void expect_pow(const fmpz_poly_t poly, ulong e, const std::string& what)
    {
        FmpzPoly ours, theirs;
        fmpz_poly_randtest(ours.p, state_, 50, 300);
        ::fmpz_poly_pow(theirs.p, poly, e);
        ASSERT_EQ(zgpu_fmpz_poly_pow(ours.p, poly, e), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << what;
        const bool gpu = GetParam() == Backend::gpu && poly->length >= 2 && e >= 3;
        EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu") << what;
    }
};

TEST_P(FmpzPolyPow, MatchesFlint)
{
    for (const slong len : {slong(0), slong(1), slong(2), slong(3), slong(17), slong(256)})
        for (const flint_bitcnt_t bits : {1u, 10u, 64u, 65u, 300u})
            for (const ulong e : {0ul, 1ul, 2ul, 3ul, 4ul, 5ul, 7ul, 8ul, 31ul}) {
                FmpzPoly a;
                fmpz_poly_randtest(a.p, state_, len, bits);
                expect_pow(a.p, e, std::to_string(len) + " coefficients of " + std::to_string(bits) + " bits to the " + std::to_string(e));
            }
}

TEST_P(FmpzPolyPow, LongAndWidePolynomials)
{
    FmpzPoly a;
    fmpz_poly_randtest(a.p, state_, 1000, 64);
    expect_pow(a.p, 6, "1000 coefficients of 64 bits to the 6");
    fmpz_poly_randtest(a.p, state_, 40, 2000);
    expect_pow(a.p, 9, "40 coefficients of 2000 bits to the 9");
    fmpz_poly_set_str(a.p, "2  1 1");
    expect_pow(a.p, 300, "(x + 1)^300");
}

TEST_P(FmpzPolyPow, EveryCoefficientAtTheMaximum)
{
    for (const slong len : {slong(2), slong(3), slong(64)})
        for (const flint_bitcnt_t bits : {1u, 63u, 64u, 200u})
            for (const Signs signs : {Signs::positive, Signs::negative, Signs::alternating}) {
                FmpzPoly a;
                set_extreme(a.p, len, bits, signs);
                for (const ulong e : {3ul, 16ul, 17ul})
                    expect_pow(a.p, e, std::to_string(len) + " coefficients +-(2^" + std::to_string(bits) + " - 1), signs " +
                                           std::to_string(int(signs)) + ", to the " + std::to_string(e));
            }
}

TEST_P(FmpzPolyPow, Aliasing)
{
    for (const slong len : {slong(1), slong(2), slong(40)}) {
        FmpzPoly a, theirs;
        fmpz_poly_randtest(a.p, state_, len, 100);
        ::fmpz_poly_pow(theirs.p, a.p, 5);
        ASSERT_EQ(zgpu_fmpz_poly_pow(a.p, a.p, 5), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(a.p, theirs.p)) << "res == poly, length " << len;
    }
}

TEST_P(FmpzPolyPow, RawFormWritesEveryCoefficientAsFlint)
{
    for (const slong len : {slong(1), slong(2), slong(30)})
        for (const ulong e : {1ul, 2ul, 3ul, 10ul}) {
            const slong out = slong(e) * (len - 1) + 1;
            Vec a(len), ours(out), theirs(out);
            random_vec(a, 90);
            if (len > 1) fmpz_zero(a.v + len - 1);  // zeros on top: the power's top coefficients are written as 0
            random_vec(ours, 20);
            ::_fmpz_poly_pow(theirs.v, a.v, len, e);
            ASSERT_EQ(_zgpu_fmpz_poly_pow(ours.v, a.v, len, e), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, out)) << len << " coefficients to the " << e;
        }
}

TEST_P(FmpzPolyPow, BadInputIsReportedAndNothingIsWritten)
{
    FmpzPoly a, res, copy;
    fmpz_poly_randtest(a.p, state_, 20, 100);
    fmpz_poly_randtest(res.p, state_, 20, 100);
    fmpz_poly_set(copy.p, res.p);
    EXPECT_EQ(zgpu_fmpz_poly_pow(res.p, nullptr, 3), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_poly_pow: poly is NULL");
    EXPECT_EQ(zgpu_fmpz_poly_pow(nullptr, a.p, 3), -1);
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_TRUE(fmpz_poly_equal(res.p, copy.p));

    Vec x(10), out(30), before(30);
    random_vec(x, 50);
    random_vec(out, 50);
    _fmpz_vec_set(before.v, out.v, 30);
    EXPECT_EQ(_zgpu_fmpz_poly_pow(out.v, x.v, 0, 3), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_pow: len is 0, at least 1 is needed");
    EXPECT_EQ(_zgpu_fmpz_poly_pow(out.v, x.v, 3, 0), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_pow: e is 0, at least 1 is needed");
    EXPECT_EQ(_zgpu_fmpz_poly_pow(nullptr, x.v, 3, 2), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_pow(out.v, nullptr, 3, 2), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_pow(out.v, x.v, 3, ~0ul), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_pow: the power's length overflows a slong");
    EXPECT_TRUE(_fmpz_vec_equal(out.v, before.v, 30));
    EXPECT_THROW(zgpu::_fmpz_poly_pow(out.v, x.v, -1, 2), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzPolyPow, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
