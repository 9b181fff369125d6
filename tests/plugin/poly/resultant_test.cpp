// zgpu_fmpz_poly_resultant against FLINT's fmpz_poly_resultant on each backend: degrees 0 to 80,
// coefficients of 1 to 1000 bits with signs, a common factor (0), leading coefficients divisible
// by many small primes, a polynomial with itself and with its derivative, zero polynomials,
// res a coefficient of a; bad input; the bound; the GPU's failure by a stand-in.
#include <gmp.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/resultant_sequence.hpp"
#include "plugin/poly/resultant.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/poly.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace zgpu::testing {
namespace {

class Resultants : public OnBackendWithFlint {
protected:
    void expect_flints(const fmpz_poly_t a, const fmpz_poly_t b, const std::string& what)
    {
        FmpzValue ours, theirs;
        fmpz_set_si(ours.v, 12345);  // overwritten
        ::fmpz_poly_resultant(theirs.v, a, b);
        ASSERT_EQ(zgpu_fmpz_poly_resultant(ours.v, a, b), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_equal(ours.v, theirs.v)) << what << ": lengths " << a->length << " and " << b->length;
    }
};

TEST_P(Resultants, RandomPolynomialsMatchFlint)
{
    for (const slong la : {0, 1, 2, 3, 17, 80})
        for (const slong lb : {0, 1, 2, 40})
            for (const flint_bitcnt_t bits : {1, 64, 300, 4096}) {
                FmpzPoly a, b;
                fmpz_poly_randtest(a.p, state_, la, bits);
                fmpz_poly_randtest(b.p, state_, lb, bits);
                expect_flints(a.p, b.p, std::to_string(bits) + " bits");
            }
}

TEST_P(Resultants, SpecialCasesMatchFlint)
{
    FmpzPoly a, b, c, d;
    fmpz_poly_randtest_not_zero(a.p, state_, 30, 100);
    fmpz_poly_randtest_not_zero(b.p, state_, 20, 100);
    fmpz_poly_randtest_not_zero(c.p, state_, 5, 50);
    ::fmpz_poly_mul(a.p, a.p, c.p);
    ::fmpz_poly_mul(b.p, b.p, c.p);
    expect_flints(a.p, b.p, "a common factor");
    expect_flints(a.p, a.p, "a with itself");
    fmpz_poly_derivative(d.p, a.p);
    expect_flints(a.p, d.p, "a with its derivative");
    // Leading coefficients 2^k 3^k 5^k ... (primes divide them, none of the 62-bit ones).
    FmpzValue lead;
    fmpz_primorial(lead.v, 200);
    fmpz_pow_ui(lead.v, lead.v, 3);
    fmpz_poly_set_coeff_fmpz(a.p, a.p->length - 1, lead.v);
    fmpz_poly_set_coeff_fmpz(b.p, b.p->length - 1, lead.v);
    expect_flints(a.p, b.p, "leading coefficients divisible by the primes below 200");
}

TEST_P(Resultants, ResultIntoACoefficientOfAnOperand)
{
    FmpzPoly a, b;
    fmpz_poly_randtest_not_zero(a.p, state_, 12, 40);
    fmpz_poly_randtest_not_zero(b.p, state_, 9, 40);
    FmpzValue expected;
    ::fmpz_poly_resultant(expected.v, a.p, b.p);
    ASSERT_EQ(zgpu_fmpz_poly_resultant(a.p->coeffs, a.p, b.p), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_equal(a.p->coeffs, expected.v));
}

TEST_P(Resultants, NullIsReported)
{
    FmpzPoly a;
    FmpzValue r;
    EXPECT_EQ(zgpu_fmpz_poly_resultant(r.v, a.p, nullptr), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_fmpz_poly_resultant: b is NULL");
}

INSTANTIATE_TEST_SUITE_P(Backends, Resultants, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// Resultants modulo a prime: against FLINT's nmod_poly_resultant on each backend, for primes from
// 2 to the largest below 2^64, lengths 0 to 300, a common factor, a polynomial with itself and
// leading coefficients that make the degrees' rules matter in FLINT's own sequence.
using NmodResultants = OnBackendWithFlint;

TEST_P(NmodResultants, RandomPolynomialsMatchFlint)
{
    for (const ulong n : {ulong(2), ulong(3), ulong(65537), kernels::ntt_primes(1)[0], (ulong(1) << 62) - 57, ~ulong(0) - 58})
        for (const slong la : {0, 1, 2, 3, 40, 300})
            for (const slong lb : {0, 1, 5, 299}) {
                NmodPoly a(n), b(n);
                nmod_poly_randtest(a.p, state_, la);
                nmod_poly_randtest(b.p, state_, lb);
                ulong ours = 12345;
                ASSERT_EQ(zgpu_nmod_poly_resultant(&ours, a.p, b.p), 0) << zgpu_last_error();
                EXPECT_EQ(ours, ::nmod_poly_resultant(a.p, b.p)) << "lengths " << a.p->length << " and " << b.p->length << " mod " << n;
                nmod_poly_t c;
                nmod_poly_init(c, n);
                nmod_poly_randtest_not_zero(c, state_, 4);
                ::nmod_poly_mul(a.p, a.p, c);
                ::nmod_poly_mul(b.p, b.p, c);
                ASSERT_EQ(zgpu_nmod_poly_resultant(&ours, a.p, b.p), 0) << zgpu_last_error();
                EXPECT_EQ(ours, ::nmod_poly_resultant(a.p, b.p)) << "a common factor mod " << n;
                ASSERT_EQ(zgpu_nmod_poly_resultant(&ours, a.p, a.p), 0) << zgpu_last_error();
                EXPECT_EQ(ours, ::nmod_poly_resultant(a.p, a.p)) << "a with itself mod " << n;
                nmod_poly_clear(c);
            }
}

TEST_P(NmodResultants, BadArgumentsAreReported)
{
    NmodPoly a(7), b(7), c(11), d(15);
    nmod_poly_set_coeff_ui(a.p, 1, 1);
    nmod_poly_set_coeff_ui(c.p, 1, 1);
    nmod_poly_set_coeff_ui(d.p, 1, 1);
    ulong res = 99;
    EXPECT_EQ(zgpu_nmod_poly_resultant(nullptr, a.p, b.p), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_poly_resultant: res is NULL");
    EXPECT_EQ(zgpu_nmod_poly_resultant(&res, a.p, nullptr), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_poly_resultant: b is NULL");
    EXPECT_EQ(zgpu_nmod_poly_resultant(&res, a.p, c.p), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_poly_resultant: different moduli: a mod 7, b mod 11");
    EXPECT_EQ(zgpu_nmod_poly_resultant(&res, d.p, d.p), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_poly_resultant: the modulus 15 is not prime");
    EXPECT_EQ(res, 99u);
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodResultants, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

TEST(ResultantRules, TheBoundAndAFailingGpu)
{
    // deg(b) = 2 rows of a (||a||^2 of 5 bits: below 2^3) and deg(a) = 3 rows of b (3 bits: 2^2).
    EXPECT_EQ(poly::resultant_bits(4, 5, 3, 3), 2u * 3u + 3u * 2u);
    EXPECT_EQ(poly::resultant_bits(1, 5, 1, 7), 1u) << "two constants: |Res| = 1 < 2^1";
    // Measured on the H200 (64-bit coefficients): the GPU from length 10 (0.07 ms, FLINT 0.1 ms).
    EXPECT_FALSE(poly::gpu_pays_for_resultant(5, 5, 600));
    EXPECT_TRUE(poly::gpu_pays_for_resultant(10, 10, 1161));
    EXPECT_TRUE(poly::gpu_pays_for_resultant(1000, 1000, 521444));
    // Modulo one prime, measured: FLINT wins at 1000 (1.18 ms, the GPU's block 1.9) and from 10000.
    EXPECT_FALSE(poly::gpu_pays_for_nmod_resultant(300, 300));
    EXPECT_FALSE(poly::gpu_pays_for_nmod_resultant(1000, 1000));
    EXPECT_FALSE(poly::gpu_pays_for_nmod_resultant(10000, 10000));

    flint_rand_t state;
    random_init(state);
    FmpzPoly a, b;
    fmpz_poly_randtest_not_zero(a.p, state, 10, 60);
    fmpz_poly_randtest_not_zero(b.p, state, 8, 60);
    FmpzValue expected, res;
    ::fmpz_poly_resultant(expected.v, a.p, b.p);
    const poly::ZPoly za{host_operand(adapters::FmpzReader(a.p->coeffs), std::size_t(a.p->length), "a"), std::size_t(a.p->length), 60};
    const poly::ZPoly zb{host_operand(adapters::FmpzReader(b.p->coeffs), std::size_t(b.p->length), "b"), std::size_t(b.p->length), 60};
    const poly::ResultantResiduesOnGpu failing = [](const poly::ZPoly&, const poly::ZPoly&, const PrimeSet&, const auto&) -> std::vector<limb_t> {
        throw Error("a stand-in failure");
    };
    const auto on_cpu = [&] { ::fmpz_poly_resultant(res.v, a.p, b.p); };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(poly::resultant_on(Backend::gpu, res.v, za, zb, 2000, on_cpu, failing), Backend::cpu);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("the GPU failed on a resultant"), std::string::npos);
    EXPECT_TRUE(fmpz_equal(res.v, expected.v));
    random_clear(state);
}

// The modular path on the host: each prime's residue by the GPU's own sequence
// (resultant_sequence.hpp) on coefficients reduced by FLINT, then the bound's primes and the
// CRT as on the GPU, against FLINT's resultant, down to the bound's tightest cases.
TEST(ResultantRules, TheModularPathOnTheHostMatchesFlint)
{
    const poly::ResultantResiduesOnGpu on_host = [](const poly::ZPoly& a, const poly::ZPoly& b, const PrimeSet& set,
                                                    const std::function<void(std::uint64_t)>& primes_done) {
        const auto coefficients = [](const poly::ZPoly& x) {
            std::vector<limb_t> limbs(x.length * std::max<std::uint64_t>(x.coeffs.max_limbs, 1));
            std::vector<std::int32_t> sizes(x.length);
            x.coeffs.pack(0, {limbs.data(), sizes.data(), x.length, std::uint32_t(std::max<std::uint64_t>(x.coeffs.max_limbs, 1))});
            return std::pair{limbs, sizes};
        };
        const auto [al, as] = coefficients(a);
        const auto [bl, bs] = coefficients(b);
        std::vector<limb_t> out;
        for (const limb_t p : set.moduli()) {
            const auto reduce = [&](const std::vector<limb_t>& limbs, const std::vector<std::int32_t>& sizes, std::size_t n) {
                const std::size_t stride = limbs.size() / n;
                std::vector<limb_t> r(n);
                for (std::size_t i = 0; i < n; ++i) {
                    mpz_t v;
                    mpz_init(v);
                    mpz_import(v, std::size_t(std::abs(sizes[i])), -1, sizeof(limb_t), 0, 0, limbs.data() + i * stride);
                    if (sizes[i] < 0) mpz_neg(v, v);
                    r[i] = mpz_fdiv_ui(v, p);
                    mpz_clear(v);
                }
                return r;
            };
            std::vector<limb_t> ar = reduce(al, as, a.length), br = reduce(bl, bs, b.length);
            out.push_back(kernels::resultant_mod(kernels::SingleLane{}, ar.data(), a.length - 1, br.data(), b.length - 1,
                                                kernels::make_modulus(p)));
            if (primes_done) primes_done(1);
        }
        return out;
    };
    flint_rand_t state;
    random_init(state);
    for (const slong la : {1, 2, 9, 40})
        for (const slong lb : {1, 3, 25})
            for (const flint_bitcnt_t bits : {1, 62, 200}) {
                FmpzPoly a, b;
                fmpz_poly_randtest_not_zero(a.p, state, la, bits);
                fmpz_poly_randtest_not_zero(b.p, state, lb, bits);
                if (la == 40) {  // every coefficient at the maximum, signs alternating: the bound's tightest
                    for (slong i = 0; i < a.p->length; ++i) {
                        fmpz_one(a.p->coeffs + i);
                        fmpz_mul_2exp(a.p->coeffs + i, a.p->coeffs + i, bits);
                        fmpz_sub_ui(a.p->coeffs + i, a.p->coeffs + i, 1);
                        if (i % 2) fmpz_neg(a.p->coeffs + i, a.p->coeffs + i);
                    }
                }
                FmpzValue expected, got;
                ::fmpz_poly_resultant(expected.v, a.p, b.p);
                const auto norm_bits = [](const fmpz_poly_t x) {
                    FmpzValue n;
                    for (slong i = 0; i < x->length; ++i) fmpz_addmul(n.v, x->coeffs + i, x->coeffs + i);
                    return std::uint64_t(fmpz_bits(n.v));
                };
                const std::uint64_t bound = poly::resultant_bits(std::size_t(a.p->length), norm_bits(a.p), std::size_t(b.p->length), norm_bits(b.p));
                const poly::ZPoly za{host_operand(adapters::FmpzReader(a.p->coeffs), std::size_t(a.p->length), "a"), std::size_t(a.p->length), bits};
                const poly::ZPoly zb{host_operand(adapters::FmpzReader(b.p->coeffs), std::size_t(b.p->length), "b"), std::size_t(b.p->length), bits};
                EXPECT_EQ(poly::resultant_on(Backend::gpu, got.v, za, zb, bound, [] { FAIL() << "the host's fallback ran"; }, on_host),
                          Backend::gpu);
                EXPECT_TRUE(fmpz_equal(got.v, expected.v)) << "lengths " << a.p->length << " and " << b.p->length << ", " << bits << " bits";
            }
    random_clear(state);
}

// Progress lines for a resultant that FLINT would take seconds for (by the cost model): the
// primes of the bound as the total, a line a tenth of them done. The stand-in reports each prime
// and gives residues 0.
TEST(ResultantRules, ProgressLinesCountThePrimes)
{
    FmpzPoly a, b;
    for (slong i = 0; i < 800; ++i) fmpz_poly_set_coeff_si(a.p, i, 1 + i % 5), fmpz_poly_set_coeff_si(b.p, i, 2 - i % 3);
    const std::uint64_t bound = 60000;
    ASSERT_GE(poly::flint_resultant_seconds(800, 800, bound), 1.0);
    const poly::ZPoly za{host_operand(adapters::FmpzReader(a.p->coeffs), 800, "a"), 800, 3};
    const poly::ZPoly zb{host_operand(adapters::FmpzReader(b.p->coeffs), 800, "b"), 800, 3};
    std::size_t primes = 0;
    const poly::ResultantResiduesOnGpu reporting = [&](const poly::ZPoly&, const poly::ZPoly&, const PrimeSet& set,
                                                       const std::function<void(std::uint64_t)>& primes_done) {
        primes = set.moduli().size();
        for (std::size_t k = 0; k < primes; ++k) primes_done(1);
        return std::vector<limb_t>(primes, 0);
    };
    FmpzValue res;
    zgpu_set_progress(1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(poly::resultant_on(Backend::gpu, res.v, za, zb, bound, [] { FAIL() << "the host ran"; }, reporting), Backend::gpu);
    const std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);
    EXPECT_TRUE(fmpz_is_zero(res.v));
    EXPECT_NE(text.find("zgpu: fmpz_poly_resultant, lengths 800 and 800, a bound of 60000 bits: started"), std::string::npos) << text;
    EXPECT_NE(text.find("50 % (" + std::to_string(primes / 2) + " of " + std::to_string(primes) + ")"), std::string::npos) << text;
    EXPECT_NE(text.find("done on the gpu"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 11) << text;
}

}  // namespace
}  // namespace zgpu::testing
