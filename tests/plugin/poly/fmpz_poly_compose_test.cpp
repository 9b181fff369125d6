// zgpu_fmpz_poly_compose and _zgpu_fmpz_poly_compose against FLINT on each backend: lengths from
// 0 to 64 each, coefficients of 1 to 300 bits with every sign pattern and at the maximum,
// results that fill their transform exactly (64, 2048 and 4096 coefficients), aliasing of res
// with either operand, zeros on top of the raw form's operands, bad input.
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

class FmpzPolyCompose : public OnBackendWithFlint {
protected:
    // res = f(h) through zgpu against FLINT, res overwritten, and the backend: the GPU's where it
    // is forced and both have two coefficients or more.
    void expect_compose(const fmpz_poly_t f, const fmpz_poly_t h, const std::string& what)
    {
        FmpzPoly ours, theirs;
        fmpz_poly_randtest(ours.p, state_, 50, 300);
        ::fmpz_poly_compose(theirs.p, f, h);
        ASSERT_EQ(zgpu_fmpz_poly_compose(ours.p, f, h), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << what;
        const bool gpu = GetParam() == Backend::gpu && f->length >= 2 && h->length >= 2;
        EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu") << what;
    }
};

TEST_P(FmpzPolyCompose, MatchesFlint)
{
    for (const slong len1 : {slong(0), slong(1), slong(2), slong(3), slong(5), slong(17), slong(64)})
        for (const slong len2 : {slong(0), slong(1), slong(2), slong(3), slong(17), slong(64)})
            for (const flint_bitcnt_t bits : {1u, 64u, 65u, 300u}) {
                FmpzPoly f, h;
                fmpz_poly_randtest(f.p, state_, len1, bits);
                fmpz_poly_randtest(h.p, state_, len2, bits);
                expect_compose(f.p, h.p, std::to_string(len1) + " of " + std::to_string(len2) + " coefficients of " + std::to_string(bits) + " bits");
            }
}

// (len1 - 1)(len2 - 1) + 1 = 64, 2048 (one tile of the transform) and 4096 (a pass above it).
TEST_P(FmpzPolyCompose, ResultsThatFillTheirTransform)
{
    for (const auto& [len1, len2] : {std::pair<slong, slong>{8, 10}, {24, 90}, {16, 274}}) {
        FmpzPoly f, h;
        fmpz_poly_randtest(f.p, state_, len1, 64);
        fmpz_poly_randtest_not_zero(h.p, state_, len2, 64);
        fmpz_poly_set_coeff_si(f.p, len1 - 1, -3);
        fmpz_poly_set_coeff_si(h.p, len2 - 1, 5);
        expect_compose(f.p, h.p, std::to_string(len1) + " of " + std::to_string(len2) + " coefficients");
    }
}

TEST_P(FmpzPolyCompose, EveryCoefficientAtTheMaximum)
{
    for (const auto& [len1, len2] : {std::pair<slong, slong>{2, 2}, {5, 3}, {40, 30}})
        for (const flint_bitcnt_t bits : {1u, 64u, 200u})
            for (const Signs signs : {Signs::positive, Signs::negative, Signs::alternating}) {
                FmpzPoly f, h;
                set_extreme(f.p, len1, bits, signs);
                set_extreme(h.p, len2, bits, signs);
                expect_compose(f.p, h.p, std::to_string(len1) + " of " + std::to_string(len2) + " coefficients +-(2^" +
                                             std::to_string(bits) + " - 1), signs " + std::to_string(int(signs)));
            }
}

TEST_P(FmpzPolyCompose, Aliasing)
{
    for (const slong len : {slong(1), slong(2), slong(30)}) {
        FmpzPoly f, h, theirs;
        fmpz_poly_randtest(f.p, state_, len, 100);
        fmpz_poly_randtest(h.p, state_, len + 3, 100);
        ::fmpz_poly_compose(theirs.p, f.p, h.p);
        FmpzPoly first, second;
        fmpz_poly_set(first.p, f.p);
        ASSERT_EQ(zgpu_fmpz_poly_compose(first.p, first.p, h.p), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(first.p, theirs.p)) << "res == poly1, length " << len;
        fmpz_poly_set(second.p, h.p);
        ASSERT_EQ(zgpu_fmpz_poly_compose(second.p, f.p, second.p), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(second.p, theirs.p)) << "res == poly2, length " << len;
        ::fmpz_poly_compose(theirs.p, h.p, h.p);
        ASSERT_EQ(zgpu_fmpz_poly_compose(h.p, h.p, h.p), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(h.p, theirs.p)) << "res == poly1 == poly2, length " << len + 3;
    }
}

// FLINT's raw form writes every coefficient where poly2 has no zeros on top, zeros on top of
// poly1 included; where poly2 has, it leaves the result's top coefficients unwritten, and the GPU
// writes their true value, 0.
TEST_P(FmpzPolyCompose, RawFormWritesEveryCoefficientAsFlint)
{
    for (const slong len1 : {slong(1), slong(2), slong(20)})
        for (const slong len2 : {slong(1), slong(2), slong(3), slong(25)})
            for (const bool zero_on_top_of_poly2 : {false, true}) {
                if (zero_on_top_of_poly2 && len2 < 3) continue;
                const slong out = (len1 - 1) * (len2 - 1) + 1;
                Vec f(len1), h(len2), ours(out), theirs(out);
                random_vec(f, 90);
                random_vec(h, 90);
                if (len1 > 1) fmpz_zero(f.v + len1 - 1);
                if (zero_on_top_of_poly2) fmpz_zero(h.v + len2 - 1);
                else random_vec(ours, 20);
                ::_fmpz_poly_compose(theirs.v, f.v, len1, h.v, len2);
                ASSERT_EQ(_zgpu_fmpz_poly_compose(ours.v, f.v, len1, h.v, len2), 0) << zgpu_last_error();
                EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, out))
                    << len1 << " of " << len2 << " coefficients" << (zero_on_top_of_poly2 ? ", a zero on top of poly2" : "");
            }
}

TEST_P(FmpzPolyCompose, BadInputIsReportedAndNothingIsWritten)
{
    FmpzPoly f, res, copy;
    fmpz_poly_randtest(f.p, state_, 20, 100);
    fmpz_poly_randtest(res.p, state_, 20, 100);
    fmpz_poly_set(copy.p, res.p);
    EXPECT_EQ(zgpu_fmpz_poly_compose(res.p, nullptr, f.p), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_poly_compose: poly1 is NULL");
    EXPECT_EQ(zgpu_fmpz_poly_compose(res.p, f.p, nullptr), -1);
    EXPECT_EQ(zgpu_fmpz_poly_compose(nullptr, f.p, f.p), -1);
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_TRUE(fmpz_poly_equal(res.p, copy.p));

    Vec x(10), out(100), before(100);
    random_vec(x, 50);
    random_vec(out, 50);
    _fmpz_vec_set(before.v, out.v, 100);
    EXPECT_EQ(_zgpu_fmpz_poly_compose(out.v, x.v, 0, x.v, 3), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_compose: len1 and len2 are 0 and 3, at least 1 each is needed");
    EXPECT_EQ(_zgpu_fmpz_poly_compose(out.v, x.v, 3, x.v, 0), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_compose(nullptr, x.v, 3, x.v, 2), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_compose(out.v, nullptr, 3, x.v, 2), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_compose: poly1 is NULL");
    EXPECT_EQ(_zgpu_fmpz_poly_compose(out.v, x.v, 3, nullptr, 2), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_compose(out.v, x.v, WORD_MAX / 2, x.v, 4), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_compose: the composition's length overflows a slong");
    EXPECT_TRUE(_fmpz_vec_equal(out.v, before.v, 100));
    EXPECT_THROW(zgpu::_fmpz_poly_compose(out.v, x.v, -1, x.v, 2), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzPolyCompose, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
