// zgpu_fmpz_poly_mul, _mullow, _sqr and _zgpu_fmpz_poly_mul against FLINT on each backend:
// lengths around powers of two, coefficient bits from 1 to 2^16, signs, zero polynomials, every
// coefficient at the maximum, aliasing, truncations, bad input.
#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

const slong kLengths[] = {0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 255, 256, 257};

// Every coefficient sign * (2^bits - 1): the bound's tightest case when a and b share the sign.
void set_top(fmpz_poly_t p, slong len, flint_bitcnt_t bits, int sign)
{
    set_extreme(p, len, bits, sign < 0 ? Signs::negative : Signs::positive);
}

// Whether p has a nonzero coefficient below x^n: a product mod x^n reads no others.
bool nonzero_below(const fmpz_poly_t p, slong n)
{
    for (slong i = 0; i < std::min(n, p->length); ++i)
        if (!fmpz_is_zero(p->coeffs + i)) return true;
    return false;
}

class FmpzPolyEntryPoints : public OnBackendWithFlint {
protected:
    // The backend of a product: FLINT's for zero products.
    const char* expected_backend(bool nonzero) const { return GetParam() == Backend::gpu && nonzero ? "gpu" : "cpu"; }

    // res = a * b through zgpu against FLINT, and the backend that ran.
    void expect_mul(const fmpz_poly_t a, const fmpz_poly_t b, const std::string& what)
    {
        FmpzPoly ours, theirs;
        // Overwritten: longer than many products, with large coefficients, for the ones written in place.
        fmpz_poly_randtest(ours.p, state_, 600, 200);
        ::fmpz_poly_mul(theirs.p, a, b);
        ASSERT_EQ(zgpu_fmpz_poly_mul(ours.p, a, b), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << what;
        EXPECT_STREQ(zgpu_last_backend(), expected_backend(a->length && b->length)) << what;
    }
};

TEST_P(FmpzPolyEntryPoints, MulMatchesFlint)
{
    for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(64), flint_bitcnt_t(1000)})
        for (const slong la : kLengths)
            for (const slong lb : {slong(0), slong(1), slong(2), slong(17), la}) {
                FmpzPoly a, b;
                fmpz_poly_randtest(a.p, state_, la, bits);
                fmpz_poly_randtest(b.p, state_, lb, bits);
                expect_mul(a.p, b.p, std::to_string(la) + " x " + std::to_string(lb) + ", " + std::to_string(bits) + " bits");
            }
}

TEST_P(FmpzPolyEntryPoints, CoefficientsUpTo65536Bits)
{
    std::vector<slong> lengths = {1, 2, 16, 17};
    if (GetParam() == Backend::gpu) lengths.insert(lengths.end(), {255, 1025});
    for (const flint_bitcnt_t bits : {flint_bitcnt_t(2), flint_bitcnt_t(65), flint_bitcnt_t(4096), flint_bitcnt_t(65536)})
        for (const slong len : lengths) {
            FmpzPoly a, b;
            fmpz_poly_randtest_not_zero(a.p, state_, len, bits);
            fmpz_poly_randtest_not_zero(b.p, state_, len + 1, bits / 2 + 1);
            expect_mul(a.p, b.p, "random, length " + std::to_string(len) + ", " + std::to_string(bits) + " bits");
            set_top(a.p, len, bits, 1);
            set_top(b.p, len, bits, -1);
            expect_mul(a.p, b.p, "+- maximum, length " + std::to_string(len) + ", " + std::to_string(bits) + " bits");
        }
}

TEST_P(FmpzPolyEntryPoints, EveryCoefficientAtTheMaximum)
{
    std::vector<slong> lengths = {1, 2, 255, 256, 257};
    if (GetParam() == Backend::gpu) lengths.insert(lengths.end(), {4095, 4097, 65537});
    for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(64), flint_bitcnt_t(1000)})
        for (const slong len : lengths)
            for (const int sign : {1, -1}) {
                if (len > 4097 && bits > 64) continue;
                FmpzPoly a, b, ours, theirs;
                set_top(a.p, len, bits, sign);
                set_top(b.p, len, bits, sign);
                const std::string what = "length " + std::to_string(len) + ", " + std::to_string(bits) + " bits, sign " +
                                         std::to_string(sign);
                expect_mul(a.p, b.p, what);
                ::fmpz_poly_sqr(theirs.p, a.p);
                ASSERT_EQ(zgpu_fmpz_poly_sqr(ours.p, a.p), 0) << zgpu_last_error();
                EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << "square, " << what;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(true));
            }
}

TEST_P(FmpzPolyEntryPoints, UnbalancedLengths)
{
    const slong longest = GetParam() == Backend::gpu ? slong(1) << 20 : slong(1) << 12;
    for (const slong lb : {slong(1), slong(3)}) {
        FmpzPoly a, b;
        fmpz_poly_randtest_not_zero(a.p, state_, longest, 64);
        fmpz_poly_set_coeff_ui(a.p, longest - 1, 1);
        set_top(b.p, lb, 100, -1);
        expect_mul(a.p, b.p, std::to_string(longest) + " x " + std::to_string(lb));
        expect_mul(b.p, a.p, std::to_string(lb) + " x " + std::to_string(longest));
    }
}

// Products whose buffers exceed the device's memory (here ZGPU_GPU_MEMORY_LIMIT, 8 MiB against
// about 30 MiB for 2^14 x 2^14 coefficients of 1024 bits), and a transform above the GPU's
// limit: in pieces on the GPU, added up on the host.
TEST_P(FmpzPolyEntryPoints, ProductsBeyondTheDeviceGoInPieces)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "the device's limits concern the GPU path only";
    struct MemoryLimit {
        MemoryLimit() { setenv("ZGPU_GPU_MEMORY_LIMIT", "8388608", 1); }
        ~MemoryLimit() { unsetenv("ZGPU_GPU_MEMORY_LIMIT"); }
    };
    {
        const MemoryLimit limit;
        const slong len = slong(1) << 14;
        for (const int sign : {1, -1}) {
            FmpzPoly a, b, ours, theirs;
            set_top(a.p, len, 1024, sign);
            set_top(b.p, len - 5, 1024, 1);
            expect_mul(a.p, b.p, "at the maximum, sign " + std::to_string(sign));
            ::fmpz_poly_sqr(theirs.p, a.p);
            ASSERT_EQ(zgpu_fmpz_poly_sqr(ours.p, a.p), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << "square, sign " << sign;
            EXPECT_STREQ(zgpu_last_backend(), "gpu");
            fmpz_poly_randtest_not_zero(a.p, state_, len, 1024);
            fmpz_poly_randtest_not_zero(b.p, state_, 3 * len, 700);
            expect_mul(a.p, b.p, "random, sign " + std::to_string(sign));
            ::fmpz_poly_mullow(theirs.p, a.p, b.p, len + 77);
            ASSERT_EQ(zgpu_fmpz_poly_mullow(ours.p, a.p, b.p, len + 77), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << "truncated, sign " << sign;
        }
    }
    FmpzPoly a, b;
    const slong longest = slong(gpu::kMaxPolyTransform);
    fmpz_poly_randtest_not_zero(a.p, state_, longest, 20);
    fmpz_poly_set_coeff_si(a.p, longest - 1, -1);
    set_top(b.p, 2, 30, -1);
    expect_mul(a.p, b.p, "a transform above the limit");
}

// The longest lengths the grid names: 2^22 coefficients on both sides, at 2^22 + 1 and
// 2^22 - 1, small coefficients of both signs.
TEST_P(FmpzPolyEntryPoints, LengthsOfTwoToThe22)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "FLINT's own products on the CPU backend; long ones on the GPU only";
    const slong len = slong(1) << 22;
    FmpzPoly a, b;
    fmpz_poly_randtest_not_zero(a.p, state_, len, 12);
    fmpz_poly_set_coeff_si(a.p, len - 1, -3);
    fmpz_poly_randtest_not_zero(b.p, state_, len + 1, 8);
    fmpz_poly_set_coeff_si(b.p, len, 5);
    expect_mul(a.p, b.p, "2^22 x 2^22 + 1");
    fmpz_poly_truncate(b.p, len - 1);
    expect_mul(a.p, b.p, "2^22 x 2^22 - 1 or fewer");
}

TEST_P(FmpzPolyEntryPoints, Aliasing)
{
    for (const slong len : {slong(1), slong(2), slong(33), slong(1000)}) {
        FmpzPoly a, b, theirs, copy;
        fmpz_poly_randtest(a.p, state_, len, 200);
        fmpz_poly_randtest(b.p, state_, len + 3, 100);
        ::fmpz_poly_mul(theirs.p, a.p, b.p);
        fmpz_poly_set(copy.p, a.p);
        ASSERT_EQ(zgpu_fmpz_poly_mul(copy.p, copy.p, b.p), 0) << zgpu_last_error();  // res == a
        EXPECT_TRUE(fmpz_poly_equal(copy.p, theirs.p)) << "res == a, length " << len;
        fmpz_poly_set(copy.p, b.p);
        ASSERT_EQ(zgpu_fmpz_poly_mul(copy.p, a.p, copy.p), 0) << zgpu_last_error();  // res == b
        EXPECT_TRUE(fmpz_poly_equal(copy.p, theirs.p)) << "res == b, length " << len;

        ::fmpz_poly_mul(theirs.p, a.p, a.p);
        ASSERT_EQ(zgpu_fmpz_poly_mul(b.p, a.p, a.p), 0) << zgpu_last_error();  // a == b
        EXPECT_TRUE(fmpz_poly_equal(b.p, theirs.p)) << "a == b, length " << len;
        fmpz_poly_set(copy.p, a.p);
        ASSERT_EQ(zgpu_fmpz_poly_mul(copy.p, copy.p, copy.p), 0) << zgpu_last_error();  // all one
        EXPECT_TRUE(fmpz_poly_equal(copy.p, theirs.p)) << "res == a == b, length " << len;
        ASSERT_EQ(zgpu_fmpz_poly_sqr(a.p, a.p), 0) << zgpu_last_error();  // sqr, res == a
        EXPECT_TRUE(fmpz_poly_equal(a.p, theirs.p)) << "sqr, res == a, length " << len;
    }
}

TEST_P(FmpzPolyEntryPoints, MullowMatchesFlint)
{
    for (const slong la : {slong(0), slong(1), slong(5), slong(64), slong(300)})
        for (const slong lb : {slong(1), slong(7), slong(300)}) {
            const slong full = la + lb - 1;
            for (const slong trunc : {slong(0), slong(1), full / 2, full - 1, full, full + 5}) {
                if (trunc < 0) continue;
                FmpzPoly a, b, ours, theirs;
                fmpz_poly_randtest(a.p, state_, la, 300);
                fmpz_poly_randtest(b.p, state_, lb, 70);
                const std::string what = std::to_string(la) + " x " + std::to_string(lb) + " mod x^" + std::to_string(trunc);
                ::fmpz_poly_mullow(theirs.p, a.p, b.p, trunc);
                ASSERT_EQ(zgpu_fmpz_poly_mullow(ours.p, a.p, b.p, trunc), 0) << zgpu_last_error();
                EXPECT_TRUE(fmpz_poly_equal(ours.p, theirs.p)) << what;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(nonzero_below(a.p, trunc) && nonzero_below(b.p, trunc))) << what;
                ASSERT_EQ(zgpu_fmpz_poly_mullow(a.p, a.p, b.p, trunc), 0) << zgpu_last_error();  // res == a
                EXPECT_TRUE(fmpz_poly_equal(a.p, theirs.p)) << "res == a, " << what;
                ::fmpz_poly_mullow(theirs.p, b.p, b.p, trunc);
                ASSERT_EQ(zgpu_fmpz_poly_mullow(b.p, b.p, b.p, trunc), 0) << zgpu_last_error();  // all one
                EXPECT_TRUE(fmpz_poly_equal(b.p, theirs.p)) << "square, " << what;
            }
        }
}

TEST_P(FmpzPolyEntryPoints, RawMulWritesEveryCoefficientAsFlint)
{
    for (const slong lena : {slong(1), slong(2), slong(17), slong(256)})
        for (const slong lenb : {slong(1), slong(2), slong(17), slong(256)}) {
            if (lenb > lena) continue;
            Vec a(lena), b(lenb), ours(lena + lenb - 1), theirs(lena + lenb - 1);
            random_vec(a, 150);
            random_vec(b, 80);
            fmpz_zero(a.v + lena - 1);  // top zeros: the product's top coefficients are written as 0
            random_vec(ours, 20);
            ::_fmpz_poly_mul(theirs.v, a.v, lena, b.v, lenb);
            ASSERT_EQ(_zgpu_fmpz_poly_mul(ours.v, a.v, lena, b.v, lenb), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, lena + lenb - 1)) << lena << " x " << lenb;
            if (lena != lenb) continue;
            ::_fmpz_poly_mul(theirs.v, a.v, lena, a.v, lena);
            ASSERT_EQ(_zgpu_fmpz_poly_mul(ours.v, a.v, lena, a.v, lena), 0) << zgpu_last_error();  // a == b
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, 2 * lena - 1)) << "square, length " << lena;
        }
}

TEST_P(FmpzPolyEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    FmpzPoly a, b, res, copy;
    fmpz_poly_randtest(a.p, state_, 20, 100);
    fmpz_poly_randtest(b.p, state_, 20, 100);
    fmpz_poly_randtest(res.p, state_, 20, 100);
    fmpz_poly_set(copy.p, res.p);
    EXPECT_EQ(zgpu_fmpz_poly_mul(res.p, a.p, nullptr), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_poly_mul: b is NULL");
    EXPECT_EQ(zgpu_fmpz_poly_mul(nullptr, a.p, b.p), -1);
    EXPECT_EQ(zgpu_fmpz_poly_sqr(res.p, nullptr), -1);
    EXPECT_EQ(zgpu_fmpz_poly_mullow(res.p, a.p, b.p, -1), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_poly_mullow: n is negative (-1)");
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_TRUE(fmpz_poly_equal(res.p, copy.p));

    Vec x(10), y(10), out(19), before(19);
    random_vec(x, 50);
    random_vec(y, 50);
    random_vec(out, 50);
    _fmpz_vec_set(before.v, out.v, 19);
    EXPECT_EQ(_zgpu_fmpz_poly_mul(out.v, x.v, 5, y.v, 6), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_mul: lena (5) is below lenb (6)");
    EXPECT_EQ(_zgpu_fmpz_poly_mul(out.v, x.v, 5, y.v, 0), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_fmpz_poly_mul: lenb is 0, at least 1 is needed");
    EXPECT_EQ(_zgpu_fmpz_poly_mul(out.v, x.v, -3, y.v, -4), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_mul(nullptr, x.v, 5, y.v, 3), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_mul(out.v, nullptr, 5, y.v, 3), -1);
    EXPECT_EQ(_zgpu_fmpz_poly_mul(out.v, x.v, 5, nullptr, 3), -1);
    EXPECT_TRUE(_fmpz_vec_equal(out.v, before.v, 19));
    EXPECT_THROW(zgpu::_fmpz_poly_mul(out.v, x.v, 2, y.v, 3), Error);
    EXPECT_THROW(zgpu::fmpz_poly_mullow(res.p, a.p, b.p, -2), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, FmpzPolyEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
