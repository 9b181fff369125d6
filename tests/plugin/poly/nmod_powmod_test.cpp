// zgpu's products and powers of nmod polynomials modulo another (the raw forms
// _zgpu_nmod_poly_mulmod_preinv, _zgpu_nmod_poly_powmod_ui_binexp, its _preinv form and
// _zgpu_nmod_poly_powmod_x_ui_preinv, and the object form) against FLINT's own functions on each
// backend.
#include <gmp.h>

#include <string>
#include <vector>

#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace zgpu::testing {
namespace {

// Primes and composites: n = 2, a small composite, an NTT prime, a prime above 2^62, the largest
// prime below 2^64 and 2^64 - 1 (composite).
const std::vector<ulong>& moduli()
{
    static const std::vector<ulong> m = {2, 255, kernels::ntt_primes(1)[0], (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};
    return m;
}

class NmodPowmod : public OnBackendWithFlint {
protected:
    // A modulus of degree m whose leading coefficient is invertible mod n: monic.
    void random_modulus(NmodPoly& f, slong m)
    {
        nmod_poly_randtest(f.p, state_, m + 1);
        nmod_poly_fit_length(f.p, m + 1);
        for (slong i = f.p->length; i < m; ++i) f.p->coeffs[i] = 0;
        f.p->coeffs[m] = 1;
        _nmod_poly_set_length(f.p, m + 1);
    }
    // m coefficients below n, random.
    std::vector<ulong> random_base(slong m, ulong n)
    {
        std::vector<ulong> base(static_cast<std::size_t>(m));
        for (ulong& c : base) c = n_randlimb(state_) % n;
        return base;
    }
    // The first lenf coefficients of the inverse of f reversed, by FLINT.
    static std::vector<ulong> inverse_of_reversed(const NmodPoly& f)
    {
        const slong lenf = f.p->length;
        std::vector<ulong> reversed(static_cast<std::size_t>(lenf)), inverse(static_cast<std::size_t>(lenf));
        _nmod_poly_reverse(reversed.data(), f.p->coeffs, lenf, lenf);
        _nmod_poly_inv_series(inverse.data(), reversed.data(), lenf, lenf, f.p->mod);
        return inverse;
    }
    const char* expected_backend(slong m, ulong e) const { return GetParam() == Backend::gpu && m >= 2 && e >= 2 ? "gpu" : "cpu"; }
};

TEST_P(NmodPowmod, RawPowersMatchFlint)
{
    const std::vector<slong> degrees = {1, 2, 3, 17, 255, 256, 1023, 3000};
    for (const ulong n : moduli())
        for (const slong m : degrees)
            for (const ulong e : {ulong(1), ulong(2), ulong(3), ulong(64), n - 1, ~ulong(0)}) {
                // The largest exponents on the shorter moduli: FLINT's reference takes a while.
                if (m > 256 && e > 64) continue;
                NmodPoly f(n);
                random_modulus(f, m);
                const std::vector<ulong> base = random_base(m, n);
                std::vector<ulong> ours(static_cast<std::size_t>(m), 7), theirs(static_cast<std::size_t>(m));
                _nmod_poly_powmod_ui_binexp(theirs.data(), base.data(), e, f.p->coeffs, m + 1, f.p->mod);
                ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp(ours.data(), base.data(), e, f.p->coeffs, m + 1, f.p->mod), 0)
                    << zgpu_last_error();
                ASSERT_EQ(ours, theirs) << "degree " << m << ", e = " << e << " mod " << n;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, e));
            }
}

TEST_P(NmodPowmod, PreinvAndPowersOfXMatchFlint)
{
    for (const ulong n : moduli())
        for (const slong m : {slong(2), slong(3), slong(100), slong(2048), slong(3001)})
            for (const ulong e : {ulong(2), ulong(5), n, ~ulong(0)}) {
                if (e < 2 || (m > 100 && e > 5)) continue;
                NmodPoly f(n);
                random_modulus(f, m);
                const std::vector<ulong> finv = inverse_of_reversed(f), base = random_base(m, n);
                const slong lenf = m + 1;
                std::vector<ulong> ours(static_cast<std::size_t>(m)), theirs(static_cast<std::size_t>(m));
                _nmod_poly_powmod_ui_binexp_preinv(theirs.data(), base.data(), e, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod);
                ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp_preinv(ours.data(), base.data(), e, f.p->coeffs, lenf, finv.data(), lenf,
                                                                  f.p->mod),
                          0)
                    << zgpu_last_error();
                ASSERT_EQ(ours, theirs) << "degree " << m << ", e = " << e << " mod " << n;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, e));
                _nmod_poly_powmod_x_ui_preinv(theirs.data(), e, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod);
                ASSERT_EQ(_zgpu_nmod_poly_powmod_x_ui_preinv(ours.data(), e, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod), 0)
                    << zgpu_last_error();
                ASSERT_EQ(ours, theirs) << "x^" << e << " mod f of degree " << m << " mod " << n;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, e));
            }
}

// Every coefficient of the base and of f at n - 1 (f's leading one invertible for these n), the
// largest exponent at degree 2 and 2^20 + 1 above; on the GPU also a modulus of degree 2^16.
TEST_P(NmodPowmod, EveryCoefficientAtTheMaximum)
{
    std::vector<slong> degrees = {2, 4096};
    if (GetParam() == Backend::gpu) degrees.push_back(slong(1) << 16);
    for (const ulong n : {~ulong(0) - 58, ~ulong(0), ulong(3)})
        for (const slong m : degrees) {
            const ulong e = m > 2 ? (ulong(1) << 20) + 1 : ~ulong(0);
            NmodPoly f(n);
            nmod_poly_fit_length(f.p, m + 1);
            for (slong i = 0; i <= m; ++i) f.p->coeffs[i] = n - 1;
            _nmod_poly_set_length(f.p, m + 1);
            const std::vector<ulong> base(static_cast<std::size_t>(m), n - 1);
            std::vector<ulong> ours(static_cast<std::size_t>(m)), theirs(static_cast<std::size_t>(m));
            _nmod_poly_powmod_ui_binexp(theirs.data(), base.data(), e, f.p->coeffs, m + 1, f.p->mod);
            ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp(ours.data(), base.data(), e, f.p->coeffs, m + 1, f.p->mod), 0)
                << zgpu_last_error();
            ASSERT_EQ(ours, theirs) << "degree " << m << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, e));
        }
}

TEST_P(NmodPowmod, ObjectFormMatchesFlintWithAliasing)
{
    const ulong n = ~ulong(0) - 58;
    for (const slong lenf : {slong(1), slong(2), slong(3), slong(600)})
        for (const slong len : {slong(0), slong(1), lenf - 1, lenf, 2 * lenf + 3})
            for (const ulong e : {ulong(0), ulong(1), ulong(2), ulong(3), ulong(1000)}) {
                NmodPoly f(n), poly(n), ours(n), theirs(n);
                nmod_poly_randtest_not_zero(f.p, state_, lenf);
                while (f.p->length < lenf) nmod_poly_randtest_not_zero(f.p, state_, lenf);
                nmod_poly_randtest(poly.p, state_, len);
                nmod_poly_randtest(ours.p, state_, 50);
                ::nmod_poly_powmod_ui_binexp(theirs.p, poly.p, e, f.p);
                ASSERT_EQ(zgpu_nmod_poly_powmod_ui_binexp(ours.p, poly.p, e, f.p), 0) << zgpu_last_error();
                ASSERT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "lengths " << len << " and " << lenf << ", e = " << e;
                // poly's length, not len: randtest may leave it shorter.
                const bool raw_form = lenf >= 3 && e >= 3 && poly.p->length > 0 && poly.p->length < lenf;
                EXPECT_STREQ(zgpu_last_backend(), raw_form ? expected_backend(lenf - 1, e) : "cpu") << len << ", " << lenf << ", " << e;
                // res the base, then res the modulus.
                nmod_poly_set(ours.p, poly.p);
                ASSERT_EQ(zgpu_nmod_poly_powmod_ui_binexp(ours.p, ours.p, e, f.p), 0) << zgpu_last_error();
                ASSERT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "res = poly, lengths " << len << " and " << lenf;
                NmodPoly g(n);
                nmod_poly_set(g.p, f.p);
                ASSERT_EQ(zgpu_nmod_poly_powmod_ui_binexp(g.p, poly.p, e, g.p), 0) << zgpu_last_error();
                ASSERT_TRUE(nmod_poly_equal(g.p, theirs.p)) << "res = f, lengths " << len << " and " << lenf;
            }
}

// Products mod f: both operands as long as f's degree, one long and one short (the shortest
// quotient), squares, and res the first operand.
TEST_P(NmodPowmod, ProductsModFMatchFlint)
{
    for (const ulong n : moduli())
        for (const slong m : {slong(2), slong(3), slong(255), slong(256), slong(700), slong(3000)}) {
            NmodPoly f(n);
            random_modulus(f, m);
            const std::vector<ulong> finv = inverse_of_reversed(f), a = random_base(m, n);
            const slong lenf = m + 1;
            for (const slong lb : {m, slong(2), m / 2 + 1}) {
                const std::vector<ulong> b = random_base(lb, n);
                std::vector<ulong> ours(static_cast<std::size_t>(m)), theirs(static_cast<std::size_t>(m));
                _nmod_poly_mulmod_preinv(theirs.data(), a.data(), m, b.data(), lb, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod);
                ASSERT_EQ(_zgpu_nmod_poly_mulmod_preinv(ours.data(), a.data(), m, b.data(), lb, f.p->coeffs, lenf, finv.data(), lenf,
                                                        f.p->mod),
                          0)
                    << zgpu_last_error();
                ASSERT_EQ(ours, theirs) << "degree " << m << ", " << m << " x " << lb << " mod " << n;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, 2));
            }
            std::vector<ulong> ours = a, theirs(static_cast<std::size_t>(m));
            _nmod_poly_mulmod_preinv(theirs.data(), a.data(), m, a.data(), m, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod);
            ASSERT_EQ(_zgpu_nmod_poly_mulmod_preinv(ours.data(), ours.data(), m, ours.data(), m, f.p->coeffs, lenf, finv.data(), lenf,
                                                    f.p->mod),
                      0)
                << zgpu_last_error();
            ASSERT_EQ(ours, theirs) << "square in place, degree " << m << " mod " << n;
        }
}

// f's inverse shorter than the longest quotient, as FLINT's normalised inverses may be: the
// missing coefficients are read as zeros, as FLINT's division reads them.
TEST_P(NmodPowmod, ShortInversesReadAsFlintReadsThem)
{
    const ulong n = kernels::ntt_primes(1)[0];
    const slong m = 700, lenf = m + 1;
    NmodPoly f(n);
    random_modulus(f, m);
    const std::vector<ulong> finv = inverse_of_reversed(f), base = random_base(m, n);
    for (const slong lenfinv : {m - 1, m - 2, m / 3, slong(1)}) {
        std::vector<ulong> ours(static_cast<std::size_t>(m)), theirs(static_cast<std::size_t>(m));
        _nmod_poly_powmod_ui_binexp_preinv(theirs.data(), base.data(), 12345, f.p->coeffs, lenf, finv.data(), lenfinv, f.p->mod);
        ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp_preinv(ours.data(), base.data(), 12345, f.p->coeffs, lenf, finv.data(), lenfinv,
                                                          f.p->mod),
                  0)
            << zgpu_last_error();
        ASSERT_EQ(ours, theirs) << "power, lenfinv " << lenfinv;
        EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, 2));
        const std::vector<ulong> b = random_base(m / 2, n);
        _nmod_poly_mulmod_preinv(theirs.data(), b.data(), m / 2, base.data(), m, f.p->coeffs, lenf, finv.data(), lenfinv, f.p->mod);
        ASSERT_EQ(_zgpu_nmod_poly_mulmod_preinv(ours.data(), b.data(), m / 2, base.data(), m, f.p->coeffs, lenf, finv.data(), lenfinv,
                                                f.p->mod),
                  0)
            << zgpu_last_error();
        ASSERT_EQ(ours, theirs) << "product, lenfinv " << lenfinv;
        EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, 2));
    }
}

// A product mod f whose result goes into its second operand, the shorter operand first; and a
// power with many products by the base.
TEST_P(NmodPowmod, ResultIntoTheSecondOperandAndManyProducts)
{
    const ulong n = ~ulong(0) - 58;
    const slong m = 900, lenf = m + 1;
    NmodPoly f(n);
    random_modulus(f, m);
    const std::vector<ulong> finv = inverse_of_reversed(f), a = random_base(m / 3, n);
    std::vector<ulong> ours = random_base(m, n), theirs(static_cast<std::size_t>(m));
    _nmod_poly_mulmod_preinv(theirs.data(), a.data(), m / 3, ours.data(), m, f.p->coeffs, lenf, finv.data(), lenf, f.p->mod);
    ASSERT_EQ(_zgpu_nmod_poly_mulmod_preinv(ours.data(), a.data(), m / 3, ours.data(), m, f.p->coeffs, lenf, finv.data(), lenf,
                                            f.p->mod),
              0)
        << zgpu_last_error();
    EXPECT_EQ(ours, theirs);
    const ulong e = 0xffffffULL;  // 23 squarings, 23 products by the base
    std::vector<ulong> base = a;
    base.resize(static_cast<std::size_t>(m), 0);
    _nmod_poly_powmod_ui_binexp(theirs.data(), base.data(), e, f.p->coeffs, lenf, f.p->mod);
    ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp(ours.data(), base.data(), e, f.p->coeffs, lenf, f.p->mod), 0) << zgpu_last_error();
    EXPECT_EQ(ours, theirs);
    EXPECT_STREQ(zgpu_last_backend(), expected_backend(m, e));
}

TEST_P(NmodPowmod, BadArgumentsWriteNothing)
{
    const ulong n = 101;
    NmodPoly f(n);
    random_modulus(f, 8);
    std::vector<ulong> base = random_base(8, n), res(8, 5);
    const std::vector<ulong> untouched = res;
    const auto fails = [&](int status, const char* what) {
        EXPECT_NE(status, 0) << what;
        EXPECT_EQ(res, untouched) << what;
    };
    fails(_zgpu_nmod_poly_powmod_ui_binexp(res.data(), base.data(), 0, f.p->coeffs, 9, f.p->mod), "e = 0");
    fails(_zgpu_nmod_poly_powmod_ui_binexp(res.data(), base.data(), 5, f.p->coeffs, 1, f.p->mod), "lenf = 1");
    base[3] = n;
    fails(_zgpu_nmod_poly_powmod_ui_binexp(res.data(), base.data(), 5, f.p->coeffs, 9, f.p->mod), "a coefficient of n");
    base[3] = 0;
    f.p->coeffs[8] = 0;
    fails(_zgpu_nmod_poly_powmod_ui_binexp(res.data(), base.data(), 5, f.p->coeffs, 9, f.p->mod), "a leading zero");
    fails(_zgpu_nmod_poly_powmod_x_ui_preinv(res.data(), 5, f.p->coeffs, 9, nullptr, 9, f.p->mod), "no finv");
    EXPECT_NE(std::string(zgpu_last_error()).find("finv"), std::string::npos) << zgpu_last_error();
    f.p->coeffs[8] = 1;
    const std::vector<ulong> finv(9, 1);
    fails(_zgpu_nmod_poly_mulmod_preinv(res.data(), base.data(), 8, base.data(), 9, f.p->coeffs, 9, finv.data(), 9, f.p->mod),
          "an operand as long as f");
    fails(_zgpu_nmod_poly_mulmod_preinv(res.data(), base.data(), 4, base.data(), 5, f.p->coeffs, 9, finv.data(), 9, f.p->mod),
          "a product shorter than f");
}

// Where f's leading coefficient has no inverse mod n, the _preinv form stays with FLINT (which
// takes finv as given).
TEST_P(NmodPowmod, ANonInvertibleLeadingCoefficientStaysWithFlint)
{
    const ulong n = 255, m = 500;
    NmodPoly f(n);
    random_modulus(f, slong(m));
    f.p->coeffs[m] = 5;
    std::vector<ulong> finv = random_base(slong(m) + 1, n), base = random_base(slong(m), n);
    std::vector<ulong> ours(m), theirs(m);
    _nmod_poly_powmod_ui_binexp_preinv(theirs.data(), base.data(), 77, f.p->coeffs, slong(m) + 1, finv.data(), slong(m) + 1, f.p->mod);
    ASSERT_EQ(_zgpu_nmod_poly_powmod_ui_binexp_preinv(ours.data(), base.data(), 77, f.p->coeffs, slong(m) + 1, finv.data(),
                                                      slong(m) + 1, f.p->mod),
              0)
        << zgpu_last_error();
    EXPECT_EQ(ours, theirs);
    EXPECT_STREQ(zgpu_last_backend(), "cpu");
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodPowmod, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
