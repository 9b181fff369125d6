// zgpu's compositions mod f (zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv and _vec_preinv)
// against FLINT's own functions on each backend: every coefficient of every result the same.
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace zgpu::testing {
namespace {

// n = 2, a small composite, an NTT prime, a prime above 2^62, the largest prime below 2^64 and
// 2^64 - 1 (composite).
const std::vector<ulong>& moduli()
{
    static const std::vector<ulong> m = {2, 255, kernels::ntt_primes(1)[0], (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};
    return m;
}

// An array of polynomials, as FLINT's vec form takes them.
struct NmodPolys {
    NmodPolys(slong count, ulong n) : p(std::size_t(count))
    {
        for (nmod_poly_struct& x : p) nmod_poly_init(&x, n);
    }
    ~NmodPolys()
    {
        for (nmod_poly_struct& x : p) nmod_poly_clear(&x);
    }
    NmodPolys(const NmodPolys&) = delete;
    NmodPolys& operator=(const NmodPolys&) = delete;
    std::vector<nmod_poly_struct> p;
};

class NmodCompose : public OnBackendWithFlint {
protected:
    // A monic modulus of degree m (its leading coefficient invertible for every n) and its
    // reversed inverse; with all_top, every other coefficient n - 1.
    void random_modulus(NmodPoly& f, NmodPoly& finv, slong m, bool all_top)
    {
        const ulong n = f.p->mod.n;
        nmod_poly_fit_length(f.p, m + 1);
        for (slong i = 0; i < m; ++i) f.p->coeffs[i] = all_top ? n - 1 : n_randlimb(state_) % n;
        f.p->coeffs[m] = 1;
        _nmod_poly_set_length(f.p, m + 1);
        nmod_poly_reverse(finv.p, f.p, m + 1);
        nmod_poly_inv_series(finv.p, finv.p, m + 1);
    }
    // `length` coefficients, every one n - 1 where all_top, else random below n.
    void random_poly(nmod_poly_struct* a, slong length, bool all_top)
    {
        nmod_poly_fit_length(a, length);
        for (slong i = 0; i < length; ++i) a->coeffs[i] = all_top ? a->mod.n - 1 : n_randlimb(state_) % a->mod.n;
        _nmod_poly_set_length(a, length);
        _nmod_poly_normalise(a);
    }
    const char* expected(bool gpu_can) const { return GetParam() == Backend::gpu && gpu_can ? "gpu" : "cpu"; }

    // FLINT's precomp composition of poly1 (len1 coefficients) by the powers of a random g
    // against zgpu's; res is poly1 where aliased.
    void check_precomp(ulong n, slong m, slong len1, bool all_top, bool aliased)
    {
        NmodPoly f(n), finv(n), g(n), poly1(n), ours(n), theirs(n);
        random_modulus(f, finv, m, all_top);
        random_poly(g.p, m, all_top);
        random_poly(poly1.p, len1, all_top);
        NmodMat powers(slong(n_sqrt(ulong(m))) + 1, m, n);
        nmod_poly_precompute_matrix(powers.m, g.p, f.p, finv.p);
        nmod_poly_compose_mod_brent_kung_precomp_preinv(theirs.p, poly1.p, powers.m, f.p, finv.p);
        nmod_poly_set(ours.p, poly1.p);
        const int status = zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(ours.p, aliased ? ours.p : poly1.p, powers.m, f.p, finv.p);
        ASSERT_EQ(status, 0) << zgpu_last_error();
        EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "degree " << m << ", " << len1 << " coefficients mod " << n;
        EXPECT_STREQ(zgpu_last_backend(), expected(m >= 2 && poly1.p->length >= 2));
    }

    // FLINT's vec composition of the first `count` of count + 1 polynomials with a random g against
    // zgpu's; the last of res stays untouched.
    void check_vec(ulong n, slong m, slong count, bool all_top)
    {
        NmodPoly f(n), finv(n), g(n);
        random_modulus(f, finv, m, all_top);
        random_poly(g.p, m, all_top);
        NmodPolys polys(count + 1, n), ours(count + 1, n), theirs(count + 1, n);
        for (slong i = 0; i <= count; ++i) {
            random_poly(&polys.p[std::size_t(i)], i == 0 ? m : 1 + slong(n_randint(state_, ulong(m))), all_top);
            nmod_poly_set_coeff_ui(&ours.p[std::size_t(i)], 0, 1);
        }
        nmod_poly_compose_mod_brent_kung_vec_preinv(theirs.p.data(), polys.p.data(), count + 1, count, g.p, f.p, finv.p);
        ASSERT_EQ(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(ours.p.data(), polys.p.data(), count + 1, count, g.p, f.p, finv.p), 0)
            << zgpu_last_error();
        for (slong i = 0; i < count; ++i)
            EXPECT_TRUE(nmod_poly_equal(&ours.p[std::size_t(i)], &theirs.p[std::size_t(i)]))
                << "degree " << m << ", polynomial " << i << " of " << count << " mod " << n;
        EXPECT_EQ(ours.p[std::size_t(count)].length, 1) << "past n: untouched";
        EXPECT_STREQ(zgpu_last_backend(), expected(m >= 2));
    }
};

TEST_P(NmodCompose, PrecompMatchesFlint)
{
    for (const ulong n : moduli())
        for (const slong m : {1, 2, 3, 17, 255, 256, 1000, 3000})
            for (const slong len1 : {slong(1), slong(2), m / 2 + 1, m})
                if (len1 <= m) check_precomp(n, m, len1, false, false);
}

TEST_P(NmodCompose, PrecompAtTheMaximumAndAliased)
{
    for (const ulong n : moduli())
        for (const slong m : {2, 3, 64, 1023}) {
            check_precomp(n, m, m, true, false);
            check_precomp(n, m, m, false, true);
        }
}

// FLINT's value for any matrix of the right shape: C = B A, and h from its version's two rows of A.
TEST_P(NmodCompose, PrecompWithAnyMatrixMatchesFlint)
{
    for (const ulong n : moduli())
        for (const slong m : {5, 100, 700}) {
            NmodPoly f(n), finv(n), poly1(n), ours(n), theirs(n);
            random_modulus(f, finv, m, false);
            random_poly(poly1.p, m, false);
            NmodMat a(slong(n_sqrt(ulong(m))) + 1, m, n);
            nmod_mat_randfull(a.m, state_);
            nmod_poly_compose_mod_brent_kung_precomp_preinv(theirs.p, poly1.p, a.m, f.p, finv.p);
            ASSERT_EQ(zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(ours.p, poly1.p, a.m, f.p, finv.p), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "degree " << m << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), expected(poly1.p->length >= 2));
        }
}

TEST_P(NmodCompose, VecMatchesFlint)
{
    for (const ulong n : moduli())
        for (const slong m : {2, 3, 17, 300, 1000})
            for (const slong count : {1, 2, 7, 32}) check_vec(n, m, count, count == 7);
}

// Polynomials of lengths 0 and 1 among the others, g zero or a constant.
TEST_P(NmodCompose, VecWithZeroAndConstantsMatchesFlint)
{
    for (const ulong n : {ulong(2), kernels::ntt_primes(1)[0], ~ulong(0)})
        for (const slong glen : {0, 1, 299}) {
            const slong m = 300;
            NmodPoly f(n), finv(n), g(n);
            random_modulus(f, finv, m, false);
            random_poly(g.p, glen, false);
            if (glen > 0) nmod_poly_set_coeff_ui(g.p, glen - 1, 1);
            NmodPolys polys(4, n), ours(4, n), theirs(4, n);
            random_poly(&polys.p[2], 1, true);
            random_poly(&polys.p[3], m, false);
            nmod_poly_compose_mod_brent_kung_vec_preinv(theirs.p.data(), polys.p.data(), 4, 4, g.p, f.p, finv.p);
            ASSERT_EQ(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(ours.p.data(), polys.p.data(), 4, 4, g.p, f.p, finv.p), 0)
                << zgpu_last_error();
            for (slong i = 0; i < 4; ++i)
                EXPECT_TRUE(nmod_poly_equal(&ours.p[std::size_t(i)], &theirs.p[std::size_t(i)]))
                    << "g of " << glen << " coefficients, polynomial " << i << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), expected(true));
        }
}

// Batches in chunks: on the GPU, powers and products past one batch's memory (degree 2^15: 73
// products a batch; 363 powers of g, 4 groups of 91 rows, one group a batch).
TEST_P(NmodCompose, VecInChunksMatchesFlint)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "the chunks are the GPU's; the CPU runs FLINT's function";
    check_vec(kernels::ntt_primes(1)[0], slong(1) << 15, 4, false);
}

TEST_P(NmodCompose, BadArgumentsWriteNothing)
{
    const ulong n = 101;
    NmodPoly f(n), finv(n), g(n), poly1(n), res(n);
    random_modulus(f, finv, 40, false);
    random_poly(g.p, 40, false);
    nmod_poly_set_coeff_ui(res.p, 3, 5);
    NmodMat powers(slong(n_sqrt(40)) + 1, 40, n), wrong(3, 40, n);
    nmod_poly_precompute_matrix(powers.m, g.p, f.p, finv.p);
    random_poly(poly1.p, 41, false);  // as long as f
    nmod_poly_set_coeff_ui(poly1.p, 40, 1);
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(res.p, poly1.p, powers.m, f.p, finv.p), 0);
    random_poly(poly1.p, 20, false);
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(res.p, poly1.p, wrong.m, f.p, finv.p), 0);
    nmod_mat_entry(powers.m, 2, 7) = n;  // not reduced
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(res.p, poly1.p, powers.m, f.p, finv.p), 0);
    EXPECT_EQ(res.p->length, 4);
    EXPECT_EQ(nmod_poly_get_coeff_ui(res.p, 3), 5u);

    NmodPolys polys(2, n), out(2, n);
    random_poly(&polys.p[0], 10, false);
    random_poly(&polys.p[1], 41, false);  // the second of len1 = 2, though n = 1: FLINT checks every one
    nmod_poly_set_coeff_ui(&polys.p[1], 40, 1);
    nmod_poly_set_coeff_ui(&out.p[0], 2, 9);
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(out.p.data(), polys.p.data(), 2, 1, g.p, f.p, finv.p), 0);
    random_poly(&polys.p[1], 10, false);
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(out.p.data(), polys.p.data(), 2, 3, g.p, f.p, finv.p), 0);
    random_poly(g.p, 41, false);  // not reduced mod f
    nmod_poly_set_coeff_ui(g.p, 40, 1);
    EXPECT_NE(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(out.p.data(), polys.p.data(), 2, 2, g.p, f.p, finv.p), 0);
    EXPECT_EQ(out.p[0].length, 3);
    EXPECT_EQ(out.p[1].length, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, NmodCompose, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
