// zgpu_fmpz_vec_mul, zgpu_fmpz_vec_scalar_mul_fmpz and NTL's mul against FLINT and NTL.
#include <string>
#include <utility>

#include <NTL/ZZ.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

class MulEntryPoints : public OnBackendWithFlint {};

TEST_P(MulEntryPoints, VecMulAndScalarMulMatchFlint)
{
    for (const slong n : {slong(0), slong(1), slong(33), slong(20000)}) {
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(30), flint_bitcnt_t(64), flint_bitcnt_t(300), flint_bitcnt_t(16000)}) {
            Vec a(n), b(n), ours(n), theirs(n);
            _fmpz_vec_randtest(a.v, state_, n, bits);
            _fmpz_vec_randtest(b.v, state_, n, bits);
            for (slong i = 0; i < n; ++i) fmpz_mul(theirs.v + i, a.v + i, b.v + i);
            ASSERT_EQ(zgpu_fmpz_vec_mul(ours.v, a.v, b.v, n), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, n)) << n << " products of up to " << bits << " bits";
            EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");

            ASSERT_EQ(zgpu_fmpz_vec_mul(a.v, a.v, b.v, n), 0) << zgpu_last_error();  // res == vec1
            EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, n)) << "res == vec1";

            fmpz_t c;
            fmpz_init(c);
            fmpz_randtest(c, state_, bits / 2 + 1);
            _fmpz_vec_scalar_mul_fmpz(theirs.v, b.v, n, c);
            ASSERT_EQ(zgpu_fmpz_vec_scalar_mul_fmpz(b.v, b.v, n, c), 0) << zgpu_last_error();  // res == vec
            EXPECT_TRUE(_fmpz_vec_equal(b.v, theirs.v, n)) << "scalar product";
            fmpz_clear(c);
        }
    }
}

TEST_P(MulEntryPoints, ScalarAddmulAndSubmulMatchFlint)
{
    for (const slong n : {slong(0), slong(1), slong(33), slong(10000)}) {
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(40), flint_bitcnt_t(200), flint_bitcnt_t(3000)}) {
            Vec a(n), r(n), ours(n), theirs(n);
            random_vec(a, bits);
            random_vec(r, bits + 64);
            fmpz_t c;
            fmpz_init(c);
            fmpz_randtest(c, state_, bits);
            using Ours = int (*)(fmpz*, const fmpz*, slong, const fmpz_t);
            using Theirs = void (*)(fmpz*, const fmpz*, slong, const fmpz_t);
            const std::pair<Ours, Theirs> ops[] = {{zgpu_fmpz_vec_scalar_addmul_fmpz, _fmpz_vec_scalar_addmul_fmpz},
                                                   {zgpu_fmpz_vec_scalar_submul_fmpz, _fmpz_vec_scalar_submul_fmpz}};
            for (const auto& [zgpu_op, flint_op] : ops) {
                _fmpz_vec_set(theirs.v, r.v, n);
                flint_op(theirs.v, a.v, n, c);
                _fmpz_vec_set(ours.v, r.v, n);
                ASSERT_EQ(zgpu_op(ours.v, a.v, n, c), 0) << zgpu_last_error();
                EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, n)) << n << " elements of " << bits << " bits";

                _fmpz_vec_set(theirs.v, a.v, n);
                flint_op(theirs.v, theirs.v, n, c);
                _fmpz_vec_set(ours.v, a.v, n);
                ASSERT_EQ(zgpu_op(ours.v, ours.v, n, c), 0) << zgpu_last_error();  // res == vec
                EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, n)) << "res == vec";
            }
            fmpz_clear(c);
        }
    }
}

TEST_P(MulEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    Vec a(3), res(3), before(3);
    _fmpz_vec_randtest(a.v, state_, 3, 100);
    _fmpz_vec_randtest(res.v, state_, 3, 100);
    _fmpz_vec_set(before.v, res.v, 3);
    EXPECT_EQ(zgpu_fmpz_vec_mul(res.v, a.v, nullptr, 3), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("vec2 is NULL"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mul_fmpz(res.v, a.v, 3, nullptr), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("c is NULL"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_mul(res.v, a.v, a.v, -2), -1);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_addmul_fmpz(nullptr, a.v, 3, a.v), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("res is NULL"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 3));
}

TEST_P(MulEntryPoints, NtlScalarAndPointwiseMatchNtl)
{
    NTL::SetSeed(NTL::ZZ(3));
    for (const long n : {0L, 1L, 33L, 5000L}) {
        NTL::Vec<NTL::ZZ> a, b, x, expected;
        a.SetLength(n);
        b.SetLength(n);
        for (long i = 0; i < n; ++i) {
            a[i] = NTL::RandomBits_ZZ(NTL::RandomBnd(2000));
            b[i] = NTL::RandomBits_ZZ(NTL::RandomBnd(2000));
            if (i % 3 == 0) NTL::negate(b[i], b[i]);
        }
        const NTL::ZZ c = -NTL::RandomBits_ZZ(500);
        NTL::mul(expected, a, c);
        zgpu::mul(x, a, c);
        EXPECT_EQ(x, expected) << n << " entries, scalar";
        expected.SetLength(n);
        for (long i = 0; i < n; ++i) NTL::mul(expected[i], a[i], b[i]);
        x = a;
        zgpu::mul(x, x, b);
        EXPECT_EQ(x, expected) << n << " entries, pointwise, x == a";
    }
    NTL::Vec<NTL::ZZ> a, b, x;
    a.SetLength(2);
    b.SetLength(3);
    EXPECT_THROW(zgpu::mul(x, a, b), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, MulEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
