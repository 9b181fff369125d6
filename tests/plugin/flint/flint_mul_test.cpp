// zgpu_fmpz_vec_mul, zgpu_fmpz_vec_scalar_mul_fmpz and NTL's mul against FLINT and NTL.
#include <algorithm>
#include <string>
#include <utility>

#include <NTL/ZZ.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/ulong_extras.h>
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

TEST_P(MulEntryPoints, PolyScalarMulMatchesFlint)
{
    for (const slong length : {slong(0), slong(1), slong(40), slong(3000)}) {
        fmpz_poly_t poly, ours, theirs;
        fmpz_poly_init(poly);
        fmpz_poly_init(ours);
        fmpz_poly_init(theirs);
        fmpz_poly_fit_length(poly, length);  // dense: every coefficient random, of random size and sign
        for (slong i = 0; i < length; ++i) {
            fmpz_randbits(poly->coeffs + i, state_, 1 + n_randint(state_, 3000));
            if (i % 3 == 1) fmpz_neg(poly->coeffs + i, poly->coeffs + i);
        }
        _fmpz_poly_set_length(poly, length);
        fmpz_t x;
        fmpz_init(x);
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(0), flint_bitcnt_t(1), flint_bitcnt_t(64), flint_bitcnt_t(5000)}) {
            fmpz_randtest(x, state_, bits);  // 0 among them
            fmpz_poly_scalar_mul_fmpz(theirs, poly, x);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_mul_fmpz(ours, poly, x), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "length " << length << ", " << bits << "-bit x";
            fmpz_poly_set(ours, poly);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_mul_fmpz(ours, ours, x), 0) << zgpu_last_error();  // res == poly
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "res == poly";
        }
        if (poly->length > 0) {  // x a coefficient of res
            fmpz_poly_set(ours, poly);
            fmpz_poly_scalar_mul_fmpz(theirs, poly, poly->coeffs);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_mul_fmpz(ours, ours, ours->coeffs), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "x aliasing a coefficient, res == poly";
            fmpz_poly_zero(ours);  // res of length 1, grown (reallocated) to poly's length
            fmpz_poly_set_coeff_si(ours, 0, -12345);
            fmpz_poly_scalar_mul_fmpz(theirs, poly, ours->coeffs);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_mul_fmpz(ours, poly, ours->coeffs), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "x aliasing a coefficient of a reallocated res";
        }
        fmpz_clear(x);
        fmpz_poly_clear(poly);
        fmpz_poly_clear(ours);
        fmpz_poly_clear(theirs);
    }
}

TEST_P(MulEntryPoints, NtlPolynomialTimesScalarMatchesNtl)
{
    NTL::SetSeed(NTL::ZZ(4));
    for (const long degree : {-1L, 0L, 40L, 3000L}) {
        NTL::ZZX a, x, expected;
        for (long i = 0; i <= degree; ++i) NTL::SetCoeff(a, i, NTL::RandomBits_ZZ(NTL::RandomBnd(3000)) * (i % 4 == 1 ? -1 : 1));
        for (const NTL::ZZ& c : {-NTL::RandomBits_ZZ(700), NTL::ZZ(1), NTL::ZZ(0), NTL::RandomBits_ZZ(9000)}) {
            NTL::mul(expected, a, c);
            zgpu::mul(x, a, c);
            EXPECT_EQ(x, expected) << "degree " << degree << ", scalar of " << NTL::NumBits(c) << " bits";
            x = a;
            zgpu::mul(x, x, c);  // x == a
            EXPECT_EQ(x, expected) << "x == a, degree " << degree;
            x = a;
            zgpu::mul(x, x, NTL::coeff(x, 0));  // the scalar is a coefficient of x
            NTL::mul(expected, a, NTL::coeff(a, 0));
            EXPECT_EQ(x, expected) << "scalar aliasing a coefficient, degree " << degree;
        }
    }
}

TEST_P(MulEntryPoints, VecSqrMatchesFlint)
{
    for (const slong n : {slong(0), slong(1), slong(33), slong(20000)}) {
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(64), flint_bitcnt_t(2000), flint_bitcnt_t(16000), flint_bitcnt_t(70000)}) {
            const slong count = bits > 20000 ? std::min<slong>(n, 200) : n;
            Vec a(count), ours(count), theirs(count);
            _fmpz_vec_randtest(a.v, state_, count, bits);
            for (slong i = 0; i < count; ++i) fmpz_mul(theirs.v + i, a.v + i, a.v + i);
            ASSERT_EQ(zgpu_fmpz_vec_sqr(ours.v, a.v, count), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, count)) << count << " squares of up to " << bits << " bits";
            _fmpz_vec_zero(ours.v, count);
            ASSERT_EQ(zgpu_fmpz_vec_mul(ours.v, a.v, a.v, count), 0) << zgpu_last_error();  // vec1 == vec2 squares
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, count)) << "vec1 == vec2";
            ASSERT_EQ(zgpu_fmpz_vec_sqr(a.v, a.v, count), 0) << zgpu_last_error();  // res == vec
            EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, count)) << "res == vec";
        }
    }
    EXPECT_EQ(zgpu_fmpz_vec_sqr(nullptr, nullptr, 3), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("fmpz_vec_sqr"), std::string::npos) << zgpu_last_error();
}

TEST_P(MulEntryPoints, ScalarThatIsAnEntryOfTheResult)
{
    // c aliases an entry of res: zgpu reads it once, before res changes. FLINT does the same
    // for a c that fits a word, which these are, so the results agree.
    Vec a(5), r(5), theirs(5);
    random_vec(a, 200);
    random_vec(r, 100);
    fmpz_set_si(r.v + 2, -12345);
    _fmpz_vec_set(theirs.v, r.v, 5);
    _fmpz_vec_scalar_addmul_fmpz(theirs.v, a.v, 5, theirs.v + 2);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_addmul_fmpz(r.v, a.v, 5, r.v + 2), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(r.v, theirs.v, 5)) << "addmul, c == res + 2";

    fmpz_set_si(a.v, 987);
    _fmpz_vec_set(theirs.v, a.v, 5);
    _fmpz_vec_scalar_mul_fmpz(theirs.v, theirs.v, 5, theirs.v);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_mul_fmpz(a.v, a.v, 5, a.v), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, 5)) << "scalar mul, c == res == vec";

    NTL::Vec<NTL::ZZ> x;
    x.SetLength(3);
    x[0] = 7;
    x[1] = -5;
    x[2] = 11;
    zgpu::mul(x, x, x[2]);  // b is an entry of x, as NTL allows
    EXPECT_EQ(x[0], 77);
    EXPECT_EQ(x[1], -55);
    EXPECT_EQ(x[2], 121);
}

TEST_P(MulEntryPoints, NullScalarIsReportedWhateverTheLength)
{
    Vec a(1), res(1);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mul_fmpz(res.v, a.v, 0, nullptr), -1);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_addmul_fmpz(res.v, a.v, 0, nullptr), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("c is NULL"), std::string::npos) << zgpu_last_error();
}

TEST_P(MulEntryPoints, GpuRefusalsWriteNothing)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "the CPU backend multiplies any size";
    Vec a(3), b(3), res(3), before(3);
    random_vec(a, 500);
    random_vec(b, 500);
    random_vec(res, 500);
    fmpz_one(a.v + 1);
    fmpz_mul_2exp(a.v + 1, a.v + 1, 64 * 33000);  // a product of 66002 limbs: above a batch's 65536
    fmpz_set(b.v + 1, a.v + 1);
    _fmpz_vec_set(before.v, res.v, 3);
    EXPECT_EQ(zgpu_fmpz_vec_mul(res.v, a.v, b.v, 3), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("limbs of a batch"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 3));
}

INSTANTIATE_TEST_SUITE_P(Backends, MulEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// ZGPU_BACKEND unset: zgpu picks the backend by the operands' sizes and their count
// (host_choice.hpp), and every choice gives FLINT's results.
TEST(MulAutomaticChoice, EveryShapeSucceedsOnTheBackendItCallsFor)
{
    unsetenv("ZGPU_BACKEND");
    flint_rand_t state;
    random_init(state);
    const auto run = [&](std::uint32_t limbs_a, std::uint32_t limbs_b, slong count, const char* expected_backend) {
        Vec a(count), b(count), ours(count), theirs(count);
        for (slong i = 0; i < count; ++i) {
            fmpz_randbits(a.v + i, state, 64 * limbs_a);
            fmpz_randbits(b.v + i, state, 64 * limbs_b);
            fmpz_mul(theirs.v + i, a.v + i, b.v + i);
        }
        ASSERT_EQ(zgpu_fmpz_vec_mul(ours.v, a.v, b.v, count), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, count)) << limbs_a << " x " << limbs_b << " limbs";
        EXPECT_STREQ(zgpu_last_backend(), expected_backend) << count << " products of " << limbs_a << " x " << limbs_b << " limbs";
    };
    const char* gpu_if_present = gpu_available() ? "gpu" : "cpu";
    // The batch sizes are on either side of the rule for up to 64 host threads.
    run(8, 8, 5000, "cpu");               // too few limb products a limb moved, at any count
    run(16, 16, 40, "cpu");               // too few products to pay for the GPU path
    run(64, 64, 8, "cpu");                // likewise
    run(64, 64, 1600, gpu_if_present);    // enough
    run(256, 1, 5000, "cpu");             // a long operand times a one-limb one: cheap on the host
    run(300, 4, 5000, "cpu");             // a long operand times a short one: cheap on the host
    run(300, 16, 1600, gpu_if_present);   // unequal sizes above the crossover
    run(33000, 33000, 2, "cpu");          // products above a batch's kMaxLimbs

    // addmul with an entry of r far longer than the products stays on the CPU.
    Vec r(33), v(33), expected(33);
    for (slong i = 0; i < 33; ++i) fmpz_randbits(v.v + i, state, 2048);
    fmpz_one(r.v);
    fmpz_mul_2exp(r.v, r.v, 64 * 62000);
    fmpz_t c;
    fmpz_init(c);
    fmpz_randbits(c, state, 2048);
    _fmpz_vec_set(expected.v, r.v, 33);
    _fmpz_vec_scalar_addmul_fmpz(expected.v, v.v, 33, c);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_addmul_fmpz(r.v, v.v, 33, c), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(r.v, expected.v, 33));
    EXPECT_STREQ(zgpu_last_backend(), "cpu");
    fmpz_clear(c);
    random_clear(state);
}

// On the GPU forced, addmul whose sums would exceed a batch's kMaxLimbs is refused with nothing
// written (the automatic choice keeps it on the host).
TEST(MulForcedGpu, AddmulWhoseSumsExceedABatchIsRefusedWithNothingWritten)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
    const ScopedBackend gpu("gpu");
    Vec r(3), v(3), before(3);
    for (slong i = 0; i < 3; ++i) fmpz_set_si(v.v + i, 5 - 3 * i);
    fmpz_one(r.v + 1);
    fmpz_mul_2exp(r.v + 1, r.v + 1, 64 * 62000);  // its size class, 65536 limbs, leaves no room for a carry
    _fmpz_vec_set(before.v, r.v, 3);
    fmpz_t c;
    fmpz_init_set_ui(c, 7);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_addmul_fmpz(r.v, v.v, 3, c), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("exceed"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(r.v, before.v, 3));
    fmpz_clear(c);
}

}  // namespace
}  // namespace zgpu::testing
