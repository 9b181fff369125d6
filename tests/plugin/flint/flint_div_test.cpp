// The division entry points against FLINT: exact (checked and not), with remainder, modulus,
// on each backend (ZGPU_BACKEND), and the automatic choice between them.
#include <cstdlib>
#include <string>
#include <utility>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "base/parallel.hpp"
#include "flint_fixture.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

class Division : public OnBackendWithFlint {
protected:
    // A divisor of about `bits` bits, nonzero: random sign, sometimes many trailing zero bits,
    // sometimes +-1.
    void random_divisor(fmpz_t d, flint_bitcnt_t bits, slong i)
    {
        switch (i % 5) {
        case 0: fmpz_set_si(d, i % 2 ? -1 : 1); break;
        case 1: fmpz_randtest_not_zero(d, state_, bits); fmpz_mul_2exp(d, d, 64 * (i % 7) + i % 61); break;
        default: fmpz_randtest_not_zero(d, state_, bits);
        }
        if (i % 3 == 0) fmpz_neg(d, d);
    }

    // a[i] = q[i] * b[i] with random quotients (zero among them), and b[i] nonzero.
    void exact_pairs(Vec& a, Vec& b, flint_bitcnt_t dividend_bits, flint_bitcnt_t divisor_bits)
    {
        fmpz_t q;
        fmpz_init(q);
        for (slong i = 0; i < a.n; ++i) {
            random_divisor(b.v + i, divisor_bits, i);
            if (i % 11 == 4) fmpz_zero(q);
            else fmpz_randtest(q, state_, dividend_bits);
            fmpz_mul(a.v + i, q, b.v + i);
        }
        fmpz_clear(q);
    }

    // Random dividends of up to `bits` bits, every size and sign, zero among them.
    void random_dividends(fmpz* a, slong n, flint_bitcnt_t bits)
    {
        for (slong i = 0; i < n; ++i) {
            fmpz_randbits(a + i, state_, i % 17 == 3 ? 0 : 1 + n_randint(state_, bits));
            if (i % 2) fmpz_neg(a + i, a + i);
        }
    }

    // Random dividends and divisors.
    void random_vec_pairs(Vec& a, Vec& b, flint_bitcnt_t dividend_bits, flint_bitcnt_t divisor_bits)
    {
        random_dividends(a.v, a.n, dividend_bits);
        for (slong i = 0; i < b.n; ++i) random_divisor(b.v + i, divisor_bits, i);
    }
};

TEST_P(Division, ExactDivisionMatchesFlint)
{
    for (const slong n : {slong(0), slong(1), slong(33), slong(3001)}) {
        for (const auto& [qbits, dbits] : {std::pair{40, 30}, std::pair{64, 64}, std::pair{1000, 1500}, std::pair{20000, 9000}}) {
            Vec a(n), b(n), ours(n), theirs(n);
            exact_pairs(a, b, qbits, dbits);
            for (slong i = 0; i < n; ++i) fmpz_divexact(theirs.v + i, a.v + i, b.v + i);
            ASSERT_EQ(zgpu_fmpz_vec_divexact(ours.v, a.v, b.v, n), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, n)) << n << " quotients of " << qbits << " bits";
            EXPECT_EQ(std::string(zgpu_last_backend()), backend_name(GetParam()));
            _fmpz_vec_zero(ours.v, n);
            ASSERT_EQ(zgpu_fmpz_vec_divexact_checked(ours.v, a.v, b.v, n), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, n)) << "checked";
            Vec x(n);
            _fmpz_vec_set(x.v, a.v, n);
            ASSERT_EQ(zgpu_fmpz_vec_divexact_checked(x.v, x.v, b.v, n), 0) << zgpu_last_error();  // res == vec1
            EXPECT_TRUE(_fmpz_vec_equal(x.v, theirs.v, n)) << "res == vec1";
            _fmpz_vec_set(x.v, a.v, n);
            ASSERT_EQ(zgpu_fmpz_vec_divexact(x.v, x.v, b.v, n), 0) << zgpu_last_error();  // res == vec1, unchecked
            EXPECT_TRUE(_fmpz_vec_equal(x.v, theirs.v, n)) << "res == vec1, unchecked";
        }
    }
}

TEST_P(Division, CheckedDivisionReportsTheFirstInexactEntryAndWritesNothing)
{
    Vec a(100), b(100), res(100), before(100);
    exact_pairs(a, b, 500, 300);
    for (slong i = 0; i < 100; ++i) fmpz_randtest(res.v + i, state_, 100);
    _fmpz_vec_set(before.v, res.v, 100);
    for (const slong bad : {slong(0), slong(57), slong(99)}) {
        if (fmpz_is_pm1(b.v + bad)) {  // +-1 divides everything: make it 7, still exact
            fmpz_set_ui(b.v + bad, 7);
            fmpz_mul_ui(a.v + bad, a.v + bad, 7);
        }
        fmpz_add_ui(a.v + bad, a.v + bad, 1);  // off by one unit in the last place
        EXPECT_EQ(zgpu_fmpz_vec_divexact_checked(res.v, a.v, b.v, 100), -1);
        EXPECT_NE(std::string(zgpu_last_error()).find("entry " + std::to_string(bad) + " does not divide exactly"),
                  std::string::npos)
            << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 100)) << "nothing written";
        fmpz_sub_ui(a.v + bad, a.v + bad, 1);
    }
    fmpz_t c;
    fmpz_init_set_ui(c, 3);
    Vec v(5);
    for (slong i = 0; i < 5; ++i) fmpz_set_si(v.v + i, 3 * (i - 2));
    fmpz_set_si(v.v + 3, 4);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz_checked(res.v, v.v, 5, c), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("entry 3"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 100)) << "nothing written";
    fmpz_clear(c);
}

TEST_P(Division, ScalarExactDivisionMatchesFlint)
{
    for (const flint_bitcnt_t bits : {flint_bitcnt_t(20), flint_bitcnt_t(64), flint_bitcnt_t(700), flint_bitcnt_t(9000)}) {
        for (slong k = 0; k < 4; ++k) {
            fmpz_t c;
            fmpz_init(c);
            random_divisor(c, bits, k);
            Vec a(2000), ours(2000), theirs(2000);
            for (slong i = 0; i < a.n; ++i) {
                fmpz_randtest(a.v + i, state_, 3 * bits);
                fmpz_mul(a.v + i, a.v + i, c);
            }
            _fmpz_vec_scalar_divexact_fmpz(theirs.v, a.v, a.n, c);
            ASSERT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(ours.v, a.v, a.n, c), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, a.n)) << "divisor of " << bits << " bits";
            ASSERT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz_checked(a.v, a.v, a.n, c), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, a.n)) << "checked, res == vec";
            fmpz_clear(c);
        }
    }
    // c an entry of res: read once, before res changes.
    Vec a(3);
    fmpz_set_si(a.v + 0, 6);
    fmpz_set_si(a.v + 1, -12);
    fmpz_set_si(a.v + 2, 18);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(a.v, a.v, 3, a.v + 0), 0) << zgpu_last_error();
    EXPECT_EQ(fmpz_get_si(a.v + 0), 1);
    EXPECT_EQ(fmpz_get_si(a.v + 1), -2);
    EXPECT_EQ(fmpz_get_si(a.v + 2), 3);
}

TEST_P(Division, QuotientAndRemainderMatchFlintForEverySign)
{
    using Ours = int (*)(fmpz*, fmpz*, const fmpz*, const fmpz*, slong);
    using Theirs = void (*)(fmpz_t, fmpz_t, const fmpz_t, const fmpz_t);
    const std::pair<Ours, Theirs> ops[] = {{zgpu_fmpz_vec_fdiv_qr, fmpz_fdiv_qr}, {zgpu_fmpz_vec_tdiv_qr, fmpz_tdiv_qr}};
    for (const auto& [ours_op, theirs_op] : ops) {
        for (const auto& [abits, bbits] : {std::pair{30, 20}, std::pair{2000, 1000}, std::pair{1000, 2000}, std::pair{20000, 64}}) {
            const slong n = 1001;
            Vec a(n), b(n), q(n), r(n), eq(n), er(n);
            random_vec_pairs(a, b, abits, bbits);
            for (slong i = 0; i < n; ++i) theirs_op(eq.v + i, er.v + i, a.v + i, b.v + i);
            ASSERT_EQ(ours_op(q.v, r.v, a.v, b.v, n), 0) << zgpu_last_error();
            EXPECT_TRUE(_fmpz_vec_equal(q.v, eq.v, n) && _fmpz_vec_equal(r.v, er.v, n)) << abits << " / " << bbits << " bits";
            ASSERT_EQ(ours_op(a.v, b.v, a.v, b.v, n), 0) << zgpu_last_error();  // q == vec1, r == vec2
            EXPECT_TRUE(_fmpz_vec_equal(a.v, eq.v, n) && _fmpz_vec_equal(b.v, er.v, n)) << "aliased";
        }
    }
    Vec a(2), b(2);
    fmpz_one(b.v);
    fmpz_one(b.v + 1);
    EXPECT_EQ(zgpu_fmpz_vec_fdiv_qr(a.v, a.v, a.v, b.v, 2), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("the same vector"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_fdiv_qr(nullptr, b.v, a.v, b.v, 2), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("q is NULL"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_tdiv_qr(nullptr, nullptr, nullptr, nullptr, 0), 0) << "empty vectors";
    fmpz_zero(b.v + 1);
    EXPECT_EQ(zgpu_fmpz_vec_fdiv_qr(a.v, b.v, a.v, b.v, 2), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("vec2[1] is 0"), std::string::npos) << zgpu_last_error();
}

TEST_P(Division, ScalarModMatchesFlint)
{
    for (const flint_bitcnt_t bits : {flint_bitcnt_t(10), flint_bitcnt_t(64), flint_bitcnt_t(65), flint_bitcnt_t(3000)}) {
        fmpz_t p;
        fmpz_init(p);
        fmpz_randtest_not_zero(p, state_, bits);
        fmpz_abs(p, p);
        Vec a(1500), ours(1500), theirs(1500);
        random_dividends(a.v, a.n, 3 * bits);
        _fmpz_vec_scalar_mod_fmpz(theirs.v, a.v, a.n, p);
        ASSERT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(ours.v, a.v, a.n, p), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, a.n)) << bits << "-bit modulus";
        ASSERT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(a.v, a.v, a.n, p), 0) << zgpu_last_error();  // res == vec
        EXPECT_TRUE(_fmpz_vec_equal(a.v, theirs.v, a.n)) << "res == vec";
        fmpz_clear(p);
    }
    Vec v(3);  // p an entry of res: read once
    fmpz_set_si(v.v + 0, 17);
    fmpz_set_si(v.v + 1, 5);
    fmpz_set_si(v.v + 2, -4);
    ASSERT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(v.v, v.v, 3, v.v + 1), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_equal_si(v.v + 0, 2) && fmpz_is_zero(v.v + 1) && fmpz_equal_si(v.v + 2, 1)) << "p aliasing res[1]";
    Vec a(2), res(2);
    fmpz_set_si(a.v, 5);
    fmpz_t p;
    fmpz_init_set_si(p, -3);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(res.v, a.v, 2, p), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("p > 0"), std::string::npos) << zgpu_last_error();
    fmpz_clear(p);
}

TEST_P(Division, ZeroDivisorsAndBadArgumentsWriteNothing)
{
    Vec a(40), b(40), res(40), r(40), before(40);
    exact_pairs(a, b, 300, 200);
    for (slong i = 0; i < 40; ++i) fmpz_set_si(res.v + i, i + 1000);
    _fmpz_vec_set(before.v, res.v, 40);
    fmpz_zero(b.v + 23);
    EXPECT_EQ(zgpu_fmpz_vec_divexact(res.v, a.v, b.v, 40), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("division by zero (vec2[23] is 0)"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_divexact_checked(res.v, a.v, b.v, 40), -1);
    EXPECT_EQ(zgpu_fmpz_vec_tdiv_qr(res.v, r.v, a.v, b.v, 40), -1);
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 40)) << "nothing written";
    fmpz_t zero;
    fmpz_init(zero);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(res.v, a.v, 40, zero), -1);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(res.v, a.v, 40, zero), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("division by zero"), std::string::npos) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 40)) << "nothing written";
    EXPECT_EQ(zgpu_fmpz_vec_divexact(res.v, a.v, b.v, -1), -1);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(res.v, a.v, 3, nullptr), -1);
    EXPECT_EQ(zgpu_fmpz_vec_fdiv_qr(res.v, nullptr, a.v, b.v, 3), -1);
    fmpz_clear(zero);
    EXPECT_EQ(zgpu_fmpz_vec_divexact(nullptr, nullptr, nullptr, 0), 0) << "empty vectors";
}

TEST_P(Division, PolynomialContentRemovalAndModulusMatchFlint)
{
    fmpz_poly_t poly, ours, theirs;
    fmpz_poly_init(poly);
    fmpz_poly_init(ours);
    fmpz_poly_init(theirs);
    fmpz_t x;
    fmpz_init(x);
    for (const slong length : {slong(0), slong(1), slong(60), slong(2000)}) {
        for (slong k = 0; k < 5; ++k) {
            random_divisor(x, 1 + 300 * k, k);
            fmpz_poly_fit_length(poly, length);
            random_dividends(poly->coeffs, length, 2000);
            _fmpz_poly_set_length(poly, length);
            _fmpz_poly_normalise(poly);
            fmpz_poly_scalar_mul_fmpz(poly, poly, x);  // x divides every coefficient
            fmpz_poly_scalar_divexact_fmpz(theirs, poly, x);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_divexact_fmpz(ours, poly, x), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "length " << length;
            fmpz_poly_set(ours, poly);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_divexact_fmpz(ours, ours, x), 0) << zgpu_last_error();  // res == poly
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "res == poly";

            fmpz_abs(x, x);
            fmpz_poly_fit_length(poly, length);
            random_dividends(poly->coeffs, length, 2000);
            _fmpz_poly_set_length(poly, length);
            _fmpz_poly_normalise(poly);
            fmpz_poly_scalar_mod_fmpz(theirs, poly, x);
            ASSERT_EQ(zgpu_fmpz_poly_scalar_mod_fmpz(ours, poly, x), 0) << zgpu_last_error();
            EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "mod, length " << length;
        }
    }
    // x a coefficient of res, in place and with res reallocated (res shorter than poly).
    fmpz_poly_zero(poly);
    for (slong i = 0; i < 50; ++i) fmpz_set_si(poly->coeffs + (fmpz_poly_fit_length(poly, i + 1), i), 6 * (i + 1));
    _fmpz_poly_set_length(poly, 50);
    fmpz_poly_scalar_divexact_fmpz(theirs, poly, poly->coeffs);
    fmpz_poly_set(ours, poly);
    ASSERT_EQ(zgpu_fmpz_poly_scalar_divexact_fmpz(ours, ours, ours->coeffs), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "x aliasing res's coefficient, res == poly";
    fmpz_poly_set_coeff_si(ours, 0, 3);  // res of length 1, x its only coefficient: res grows
    fmpz_poly_truncate(ours, 1);
    fmpz_poly_scalar_divexact_fmpz(theirs, poly, ours->coeffs);
    ASSERT_EQ(zgpu_fmpz_poly_scalar_divexact_fmpz(ours, poly, ours->coeffs), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "x aliasing res's coefficient, res reallocated";
    fmpz_poly_set_coeff_si(ours, 0, 7);
    fmpz_poly_truncate(ours, 1);
    fmpz_poly_scalar_mod_fmpz(theirs, poly, ours->coeffs);
    ASSERT_EQ(zgpu_fmpz_poly_scalar_mod_fmpz(ours, poly, ours->coeffs), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "mod, x aliasing res's coefficient";
    fmpz_poly_set(ours, poly);
    fmpz_poly_scalar_mod_fmpz(theirs, poly, x);
    ASSERT_EQ(zgpu_fmpz_poly_scalar_mod_fmpz(ours, ours, x), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(ours, theirs)) << "mod, res == poly";

    fmpz_zero(x);
    fmpz_poly_set(ours, poly);
    EXPECT_EQ(zgpu_fmpz_poly_scalar_divexact_fmpz(ours, poly, x), -1);
    EXPECT_EQ(zgpu_fmpz_poly_scalar_mod_fmpz(ours, poly, x), -1);
    EXPECT_TRUE(fmpz_poly_equal(ours, poly)) << "nothing written";
    EXPECT_EQ(zgpu_fmpz_poly_scalar_mod_fmpz(ours, nullptr, x), -1);
    fmpz_clear(x);
    fmpz_poly_clear(poly);
    fmpz_poly_clear(ours);
    fmpz_poly_clear(theirs);
}

INSTANTIATE_TEST_SUITE_P(Backends, Division, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// Without ZGPU_BACKEND, exact divisions go to the GPU where there is one and the batch pays for
// its path (host_choice.hpp): a single 32768-bit division stays on the host, 64 of 131072 bits go.
TEST(DivisionChoice, SmallBatchesStayOnTheHostLargeOnesGoToTheGpu)
{
    unsetenv("ZGPU_BACKEND");
    flint_rand_t state;
    random_init(state);
    for (const auto& [divisor_limbs, count] : {std::pair<std::uint64_t, slong>{256, 1}, {1024, 64}}) {
        Vec a(count), b(count), q(count), expected(count);
        for (slong i = 0; i < count; ++i) {
            fmpz_randbits(expected.v + i, state, 64 * divisor_limbs);
            fmpz_randbits(b.v + i, state, 64 * divisor_limbs);
            fmpz_mul(a.v + i, expected.v + i, b.v + i);
        }
        ASSERT_EQ(zgpu_fmpz_vec_divexact(q.v, a.v, b.v, count), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(q.v, expected.v, count));
        // 64 divisions of 131072 bits pay for the GPU's pipelined path on up to 32 host threads.
        const bool gpu = divisor_limbs == 1024 && gpu_available() && host_threads() <= 32;
        EXPECT_STREQ(zgpu_last_backend(), gpu ? "gpu" : "cpu") << count << " divisions by " << divisor_limbs << "-limb divisors";
    }
    random_clear(state);
}

}  // namespace
}  // namespace zgpu::testing
