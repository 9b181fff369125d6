/* An unmodified FLINT program for the plugin's tests: it calls every function the plugin
   defines, at small and large sizes, with aliasing, zeros on top and empty operands, and the
   algorithms above them, and prints a checksum a line. compare_runs.sh runs it without the
   plugin and with it (loaded by LD_PRELOAD, or linked ahead of libflint) and compares. */
#include <stdio.h>

#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>
#include <flint/thread_support.h>
#include <flint/ulong_extras.h>

#if __FLINT_RELEASE < 30000
#define flint_rand_init flint_randinit
#define flint_rand_clear flint_randclear
#endif

static const ulong kCheck = (UWORD(1) << 61) - 1;

static ulong mix(ulong h, ulong x) { return (h * UWORD(1000003) + x) % kCheck; }

static ulong check_fmpz_vec(const fmpz * v, slong n)
{
    ulong h = (ulong) n;
    for (slong i = 0; i < n; i++) h = mix(h, fmpz_fdiv_ui(v + i, kCheck));
    return h;
}

static ulong check_ulong_vec(const ulong * v, slong n)
{
    ulong h = (ulong) n;
    for (slong i = 0; i < n; i++) h = mix(h, v[i] % kCheck);
    return h;
}

static void say(const char * what, ulong h) { flint_printf("%s %wu\n", what, h); }

static void fmpz_products(flint_rand_t state, slong length, flint_bitcnt_t bits)
{
    fmpz_poly_t a, b, c;
    fmpz_poly_init(a), fmpz_poly_init(b), fmpz_poly_init(c);
    fmpz_poly_randtest(a, state, length, bits);
    fmpz_poly_randtest_not_zero(b, state, length / 2 + 1, bits);
    flint_printf("fmpz products, length %wd, %wu bits\n", length, bits);
    fmpz_poly_mul(c, a, b), say("fmpz_poly_mul", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_mullow(c, a, b, length / 3 + 1), say("fmpz_poly_mullow", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_sqr(c, a), say("fmpz_poly_sqr", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_sqrlow(c, a, length), say("fmpz_poly_sqrlow", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_set(c, a), fmpz_poly_mul(c, c, c), say("fmpz_poly_mul aliased", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_pow(c, b, 3), say("fmpz_poly_pow", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_set(c, b), fmpz_poly_pow(c, c, 5), say("fmpz_poly_pow aliased", check_fmpz_vec(c->coeffs, c->length));
    if (a->length > 0 && b->length > 0 && a->length >= b->length)
    {
        /* Raw forms with a zero on top of the operands, every output coefficient written. */
        slong la = a->length + 1, lb = b->length + 1;
        fmpz * x = _fmpz_vec_init(la), * y = _fmpz_vec_init(lb), * r = _fmpz_vec_init(2 * la - 1);
        _fmpz_vec_set(x, a->coeffs, a->length), _fmpz_vec_set(y, b->coeffs, b->length);
        _fmpz_vec_set(r, x, la);
        _fmpz_poly_mul(r, x, la, y, lb), say("_fmpz_poly_mul", check_fmpz_vec(r, la + lb - 1));
        _fmpz_poly_mullow(r, x, la, y, lb, la), say("_fmpz_poly_mullow", check_fmpz_vec(r, la));
        _fmpz_poly_sqr(r, x, la), say("_fmpz_poly_sqr", check_fmpz_vec(r, 2 * la - 1));
        _fmpz_poly_sqrlow(r, y, lb, lb), say("_fmpz_poly_sqrlow", check_fmpz_vec(r, lb));
        if (3 * (lb - 1) + 1 <= 2 * la - 1)
            _fmpz_poly_pow(r, y, lb, 3), say("_fmpz_poly_pow", check_fmpz_vec(r, 3 * (lb - 1) + 1));
#if __FLINT_RELEASE >= 30000
        _fmpz_poly_mulmid(r, x, la, y, lb, lb / 2, la), say("_fmpz_poly_mulmid", check_fmpz_vec(r, la - lb / 2));
#endif
        _fmpz_vec_clear(x, la), _fmpz_vec_clear(y, lb), _fmpz_vec_clear(r, 2 * la - 1);
    }
    {
        /* An empty operand in the object forms, with many coefficients asked for. */
        fmpz_poly_t zero;
        fmpz_poly_init(zero);
        fmpz_poly_mullow(c, zero, b, length), say("fmpz_poly_mullow by zero", check_fmpz_vec(c->coeffs, c->length));
        fmpz_poly_mul(c, b, zero), say("fmpz_poly_mul by zero", check_fmpz_vec(c->coeffs, c->length));
        fmpz_poly_sqrlow(c, zero, length), say("fmpz_poly_sqrlow of zero", check_fmpz_vec(c->coeffs, c->length));
        fmpz_poly_clear(zero);
    }
    {
        /* Compositions: of a's first terms with b's, aliased, and a raw one with a zero on top of
           each operand. */
        fmpz_poly_t f, h;
        fmpz_poly_init(f), fmpz_poly_init(h);
        fmpz_poly_set_trunc(f, a, 30), fmpz_poly_set_trunc(h, b, 40);
        fmpz_poly_compose(c, f, h), say("fmpz_poly_compose", check_fmpz_vec(c->coeffs, c->length));
        fmpz_poly_set(c, h), fmpz_poly_compose(c, f, c), say("fmpz_poly_compose aliased", check_fmpz_vec(c->coeffs, c->length));
        if (f->length > 0 && h->length > 0)
        {
            slong l1 = f->length + 1, l2 = h->length + 1, lr = (l1 - 1) * (l2 - 1) + 1;
            fmpz * x = _fmpz_vec_init(l1), * y = _fmpz_vec_init(l2), * r = _fmpz_vec_init(lr);
            _fmpz_vec_set(x, f->coeffs, f->length), _fmpz_vec_set(y, h->coeffs, h->length);
            _fmpz_poly_compose(r, x, l1, y, l2), say("_fmpz_poly_compose", check_fmpz_vec(r, lr));
            _fmpz_vec_clear(x, l1), _fmpz_vec_clear(y, l2), _fmpz_vec_clear(r, lr);
        }
        fmpz_poly_clear(f), fmpz_poly_clear(h);
    }
    fmpz_poly_mul(c, a, b);
    fmpz_poly_div(c, c, b), say("fmpz_poly_div", check_fmpz_vec(c->coeffs, c->length) ^ (ulong) fmpz_poly_equal(c, a));
    fmpz_poly_zero(b), fmpz_poly_mul(c, a, b), say("fmpz_poly_mul by zero", check_fmpz_vec(c->coeffs, c->length));
    fmpz_poly_clear(a), fmpz_poly_clear(b), fmpz_poly_clear(c);
}

static void nmod_products(flint_rand_t state, slong length, ulong n)
{
    nmod_poly_t a, b, c;
    nmod_poly_init(a, n), nmod_poly_init(b, n), nmod_poly_init(c, n);
    nmod_poly_randtest(a, state, length);
    nmod_poly_randtest(b, state, length / 2 + 1);
    flint_printf("nmod products, length %wd, modulo %wu\n", length, n);
    nmod_poly_mul(c, a, b), say("nmod_poly_mul", check_ulong_vec(c->coeffs, c->length));
    nmod_poly_mullow(c, a, b, length / 3 + 1), say("nmod_poly_mullow", check_ulong_vec(c->coeffs, c->length));
    nmod_poly_mul(a, a, a), say("nmod_poly_mul aliased", check_ulong_vec(a->coeffs, a->length));
    if (a->length > 0 && b->length > 0)
    {
        slong la = a->length, lb = b->length;
        ulong * r = flint_malloc((la + lb) * sizeof(ulong));
        _nmod_poly_mul(r, a->coeffs, la, b->coeffs, lb, a->mod), say("_nmod_poly_mul", check_ulong_vec(r, la + lb - 1));
        _nmod_poly_mullow(r, a->coeffs, la, b->coeffs, lb, lb, a->mod), say("_nmod_poly_mullow", check_ulong_vec(r, lb));
#if __FLINT_RELEASE >= 30000
        _nmod_poly_mulmid(r, a->coeffs, la, b->coeffs, lb, lb / 2, la + lb - 1, a->mod);
        say("_nmod_poly_mulmid", check_ulong_vec(r, la + lb - 1 - lb / 2));
#endif
        flint_free(r);
    }
    if (n_is_prime(n) && a->length > 0)
    {
        nmod_poly_powmod_ui_binexp(c, b, n, a), say("nmod_poly_powmod_ui_binexp", check_ulong_vec(c->coeffs, c->length));
        say("nmod_poly_resultant", nmod_poly_resultant(a, b));
    }
    if (n_is_prime(n) && a->length > 2)
    {
        nmod_poly_t finv;
        nmod_poly_init(finv, n);
        nmod_poly_reverse(finv, a, a->length);
        nmod_poly_inv_series(finv, finv, a->length);
        nmod_poly_powmod_ui_binexp_preinv(c, b, n - 1, a, finv);
        say("nmod_poly_powmod_ui_binexp_preinv", check_ulong_vec(c->coeffs, c->length));
        nmod_poly_powmod_x_ui_preinv(c, n, a, finv), say("nmod_poly_powmod_x_ui_preinv", check_ulong_vec(c->coeffs, c->length));
        nmod_poly_mulmod_preinv(c, c, b, a, finv), say("nmod_poly_mulmod_preinv", check_ulong_vec(c->coeffs, c->length));
        if (b->length > 2)
        {
            /* Compositions mod b: by FLINT's matrix of the powers of c mod b, then three at once. */
            nmod_mat_t powers;
            nmod_poly_struct p[3], q[3];
            slong i;
            nmod_poly_reverse(finv, b, b->length);
            nmod_poly_inv_series(finv, finv, b->length);
            /* Dense operands (randtest's may be sparse). */
            nmod_poly_zero(c);
            for (i = 0; i < b->length - 1; i++)
                nmod_poly_set_coeff_ui(c, i, n_randint(state, n));
            nmod_mat_init(powers, n_sqrt(b->length - 1) + 1, b->length - 1, n);
            nmod_poly_precompute_matrix(powers, c, b, finv);
            for (i = 0; i < 3; i++)
            {
                slong j;
                nmod_poly_init(p + i, n), nmod_poly_init(q + i, n);
                for (j = 0; j < b->length - 1 - i; j++)
                    nmod_poly_set_coeff_ui(p + i, j, n_randint(state, n));
            }
            nmod_poly_compose_mod_brent_kung_precomp_preinv(p + 2, p + 2, powers, b, finv);
            say("nmod_poly_compose_mod_brent_kung_precomp_preinv", check_ulong_vec(p[2].coeffs, p[2].length));
            nmod_poly_compose_mod_brent_kung_vec_preinv(q, p, 3, 3, c, b, finv);
            for (i = 0; i < 3; i++)
                say("nmod_poly_compose_mod_brent_kung_vec_preinv", check_ulong_vec(q[i].coeffs, q[i].length));
            {
                /* The threaded form, on the threads FLINT hands out (none where it has none). */
                thread_pool_handle * threads;
                slong num_threads = flint_request_threads(&threads, 2);
                nmod_poly_compose_mod_brent_kung_vec_preinv_threaded_pool(q, p, 3, 3, c, b, finv, threads, num_threads);
                flint_give_back_threads(threads, num_threads);
                for (i = 0; i < 3; i++)
                    say("nmod_poly_compose_mod_brent_kung_vec_preinv_threaded_pool", check_ulong_vec(q[i].coeffs, q[i].length));
            }
            for (i = 0; i < 3; i++)
                nmod_poly_clear(p + i), nmod_poly_clear(q + i);
            nmod_mat_clear(powers);
        }
        nmod_poly_clear(finv);
    }
    nmod_poly_clear(a), nmod_poly_clear(b), nmod_poly_clear(c);
}

static void matrices(flint_rand_t state, slong dim, flint_bitcnt_t bits, ulong n)
{
    fmpz_mat_t a, b, c;
    nmod_mat_t x, y, z;
    fmpz_t det;
    flint_printf("matrices %wd x %wd, %wu bits, modulo %wu\n", dim, dim, bits, n);
    fmpz_mat_init(a, dim, dim), fmpz_mat_init(b, dim, dim + 3), fmpz_mat_init(c, dim, dim + 3), fmpz_init(det);
    fmpz_mat_randtest(a, state, bits), fmpz_mat_randtest(b, state, bits);
    fmpz_mat_mul(c, a, b), say("fmpz_mat_mul", check_fmpz_vec(c->entries, dim * (dim + 3)));
    fmpz_mat_det(det, a), say("fmpz_mat_det", check_fmpz_vec(det, 1));
    {
        /* c = a b has rank at most dim of its dim + 3 columns: the echelon form's certified way. */
        fmpz_mat_t nulls;
        fmpz_mat_init(nulls, dim + 3, dim + 3);
        say("fmpz_mat_rank", (ulong) fmpz_mat_rank(c));
        say("fmpz_mat_nullspace", (ulong) fmpz_mat_nullspace(nulls, c) ^ check_fmpz_vec(nulls->entries, (dim + 3) * (dim + 3)));
        fmpz_mat_clear(nulls);
    }
    {
        /* a x = den b for the first three columns of b, the solution into b itself. */
        fmpz_mat_t window;
        fmpz_mat_window_init(window, b, 0, 0, dim, 3);
        say("fmpz_mat_solve", (ulong) fmpz_mat_solve(window, det, a, window));
        say("fmpz_mat_solve's solution", check_fmpz_vec(det, 1) ^ check_fmpz_vec(b->entries, dim * (dim + 3)));
        fmpz_mat_window_clear(window);
    }
    {
        /* Of a's leading block of at most 40 rows (FLINT takes seconds beyond). */
        const slong m = FLINT_MIN(dim, 40);
        fmpz_mat_t inverse, block;
        fmpz_mat_init(inverse, m, m), fmpz_mat_window_init(block, a, 0, 0, m, m);
        say("fmpz_mat_inv", (ulong) fmpz_mat_inv(inverse, det, block) ^ check_fmpz_vec(det, 1) ^ check_fmpz_vec(inverse->entries, m * m));
        fmpz_mat_clear(inverse), fmpz_mat_window_clear(block);
    }
    nmod_mat_init(x, dim, dim, n), nmod_mat_init(y, dim, dim, n), nmod_mat_init(z, dim, dim, n);
    nmod_mat_randtest(x, state), nmod_mat_randtest(y, state);
    nmod_mat_mul(z, x, y), say("nmod_mat_mul", nmod_mat_det(z));
    nmod_mat_mul(x, x, y), say("nmod_mat_mul aliased", nmod_mat_trace(x));
    if (n_is_prime(n))
    {
        say("nmod_mat_rank", (ulong) nmod_mat_rank(y));
        say("nmod_mat_det", nmod_mat_det(y));
        say("nmod_mat_inv", (ulong) nmod_mat_inv(z, y) ^ nmod_mat_trace(z));
        {
            nmod_mat_t b3, x3;
            nmod_mat_init(b3, dim, 3, n), nmod_mat_init(x3, dim, 3, n);
            nmod_mat_randtest(b3, state);
            say("nmod_mat_solve", (ulong) nmod_mat_solve(x3, y, b3) ^ check_ulong_vec(x3->entries, dim * 3));
            nmod_mat_clear(b3), nmod_mat_clear(x3);
        }
        {
            /* The LU's pivots may differ with the plugin (FLINT's recursive LU against the
               classical one's); det(y), the sign of P times U's diagonal, may not. */
            nmod_mat_t lu, e, ns;
            slong * perm = flint_malloc(sizeof(slong) * dim);
            slong rank, i, j, inversions = 0;
            ulong d = 1;
            nmod_mat_init_set(lu, y), nmod_mat_init_set(e, y), nmod_mat_init(ns, dim, dim, n);
            rank = nmod_mat_lu(perm, lu, 0);
            for (i = 0; i < dim; i++)
            {
                d = n_mulmod2_preinv(d, nmod_mat_entry(lu, i, i), n, y->mod.ninv);
                for (j = i + 1; j < dim; j++) inversions += perm[i] > perm[j];
            }
            say("nmod_mat_lu", (ulong) rank ^ (inversions % 2 && d ? n - d : d));
            say("nmod_mat_rref", (ulong) nmod_mat_rref(e) ^ check_ulong_vec(e->entries, dim * dim));
            say("nmod_mat_nullspace", (ulong) nmod_mat_nullspace(ns, y) ^ check_ulong_vec(ns->entries, dim * dim));
            nmod_mat_clear(lu), nmod_mat_clear(e), nmod_mat_clear(ns), flint_free(perm);
        }
    }
    fmpz_mat_clear(a), fmpz_mat_clear(b), fmpz_mat_clear(c), fmpz_clear(det);
    nmod_mat_clear(x), nmod_mat_clear(y), nmod_mat_clear(z);
}

static void resultant_over_z(flint_rand_t state, slong length, flint_bitcnt_t bits)
{
    fmpz_poly_t a, b;
    fmpz_t r;
    fmpz_poly_init(a), fmpz_poly_init(b), fmpz_init(r);
    fmpz_poly_randtest(a, state, length, bits), fmpz_poly_randtest(b, state, length - 1, bits);
    fmpz_poly_resultant(r, a, b), say("fmpz_poly_resultant", check_fmpz_vec(r, 1));
    fmpz_poly_clear(a), fmpz_poly_clear(b), fmpz_clear(r);
}

int main(void)
{
    flint_rand_t state;
    flint_rand_init(state);
    fmpz_products(state, 12, 80);
    fmpz_products(state, 3000, 200);
    fmpz_products(state, 700, 3000);
    /* Products under 256 coefficients out whose sampled coefficients are large: sizes read. */
    fmpz_products(state, 120, 4096);
    nmod_products(state, 10, 7);
    nmod_products(state, 5000, 1);
    nmod_products(state, 6000, UWORD(4611686018427387847));
    nmod_products(state, 3000, UWORD(18446744073709551615));
    matrices(state, 5, 10, 101);
    matrices(state, 130, 64, UWORD(4611686018427387847));
    matrices(state, 140, 200, UWORD(1000000007));
    resultant_over_z(state, 8, 10);
    resultant_over_z(state, 120, 64);
    flint_rand_clear(state);
    flint_cleanup_master();
    return 0;
}
