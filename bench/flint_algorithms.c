/* FLINT's own algorithms, timed as an unmodified FLINT program: the rows of the FLINT plugin's
   table. Run it as it is and under LD_PRELOAD=libzgpu_flint.so (bench/flint_plugin.sh does
   both in one run); each row prints its seconds, twice (a first call and a second one), and a
   checksum of its result, which must be the same with and without the plugin. The clock times
   the FLINT call alone: the checksum reads the result after it stops (on the long results of
   the power and the composition it took as long as the plugin's call).
   Arguments: [threads (default: all)] [row names (default: all rows)]. With BENCH_CALLS=N
   (N > 2) a row is called N times, and "second s" is the median of calls 2 to N: FLINT's and the
   plugin's times move by 10 to 30 % from call to call on a busy host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <flint/flint.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_poly_factor.h>
#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <flint/nmod_poly.h>
#include <flint/nmod_poly_factor.h>
#if __FLINT_RELEASE >= 30000
#include <flint/arb_poly.h>
#endif

#if __FLINT_RELEASE < 30000
#define flint_rand_init flint_randinit
#define flint_rand_clear flint_randclear
#endif

/* A prime below 2^62 for the nmod rows, and 2^61 - 1 for the checksums. */
static const ulong kPrime62 = UWORD(4611686018427387847);
static const ulong kCheck = (UWORD(1) << 61) - 1;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static ulong mix(ulong h, ulong x) { return (h * UWORD(1000003) + x) % kCheck; }

static ulong check_fmpz(ulong h, const fmpz_t x) { return mix(h, fmpz_fdiv_ui(x, kCheck)); }

static ulong check_fmpz_poly(const fmpz_poly_t p)
{
    ulong h = (ulong) p->length;
    for (slong i = 0; i < p->length; i++) h = check_fmpz(h, p->coeffs + i);
    return h;
}

static ulong check_nmod_poly(const nmod_poly_t p)
{
    ulong h = (ulong) p->length;
    for (slong i = 0; i < p->length; i++) h = mix(h, p->coeffs[i] % kCheck);
    return h;
}

/* A polynomial of `length` coefficients of `bits` bits, signed. */
static void random_fmpz_poly(fmpz_poly_t p, flint_rand_t state, slong length, flint_bitcnt_t bits)
{
    fmpz_poly_randtest_not_zero(p, state, length, bits);
    while (p->length < length)
        fmpz_poly_randtest_not_zero(p, state, length, bits);
}

static void random_nmod_poly(nmod_poly_t p, flint_rand_t state, slong length)
{
    nmod_poly_randtest(p, state, length);
    nmod_poly_set_coeff_ui(p, length - 1, 1 + n_randint(state, p->mod.n - 1));
}

/* Each row sets up its input, then runs `call` twice, timing each, and checks each result. */
typedef struct
{
    const char * name;
    void * (*setup)(flint_rand_t state);
    void (*call)(void * data);
    ulong (*check)(void * data);
    void (*clear)(void * data);
} row_t;

/* fmpz_poly_pow, length 1024 x 64 bits, exponent 64. */
typedef struct { fmpz_poly_t a, r; } poly_pair;
static void * setup_pow(flint_rand_t s)
{
    poly_pair * d = malloc(sizeof *d);
    fmpz_poly_init(d->a), fmpz_poly_init(d->r);
    random_fmpz_poly(d->a, s, 1024, 64);
    return d;
}
static void run_pow(void * v) { poly_pair * d = v; fmpz_poly_pow(d->r, d->a, 64); }
static ulong check_pair(void * v) { poly_pair * d = v; return check_fmpz_poly(d->r); }
static void clear_pair(void * v) { poly_pair * d = v; fmpz_poly_clear(d->a), fmpz_poly_clear(d->r); free(d); }

/* fmpz_poly_compose, 256 o 256, 64 bits. */
typedef struct { fmpz_poly_t a, b, r; } poly_triple;
static poly_triple * new_poly_triple(void)
{
    poly_triple * d = malloc(sizeof *d);
    fmpz_poly_init(d->a), fmpz_poly_init(d->b), fmpz_poly_init(d->r);
    return d;
}
static void * setup_compose(flint_rand_t s)
{
    poly_triple * d = new_poly_triple();
    random_fmpz_poly(d->a, s, 256, 64);
    random_fmpz_poly(d->b, s, 256, 64);
    return d;
}
static void run_compose(void * v) { poly_triple * d = v; fmpz_poly_compose(d->r, d->a, d->b); }
static ulong check_triple(void * v) { poly_triple * d = v; return check_fmpz_poly(d->r); }
static void clear_triple(void * v) { poly_triple * d = v; fmpz_poly_clear(d->a), fmpz_poly_clear(d->b), fmpz_poly_clear(d->r); free(d); }

/* fmpz_poly_div, exact, 2^15 / 2^14 coefficients of 1024 bits. */
static void * setup_div(flint_rand_t s)
{
    poly_triple * d = new_poly_triple();
    random_fmpz_poly(d->b, s, 1 << 14, 1024);
    random_fmpz_poly(d->r, s, (1 << 14) + 1, 1024);
    fmpz_poly_mul(d->a, d->b, d->r);
    return d;
}
static void run_div(void * v) { poly_triple * d = v; fmpz_poly_div(d->r, d->a, d->b); }

/* fmpz_poly_factor of a product of two random polynomials of degree 400, 64 bits. */
typedef struct { fmpz_poly_t a; fmpz_poly_factor_t f; } fmpz_factoring;
static void * setup_factor_z(flint_rand_t s)
{
    fmpz_factoring * d = malloc(sizeof *d);
    fmpz_poly_t b, c;
    fmpz_poly_init(d->a), fmpz_poly_init(b), fmpz_poly_init(c);
    fmpz_poly_factor_init(d->f);
    random_fmpz_poly(b, s, 401, 64);
    random_fmpz_poly(c, s, 401, 64);
    fmpz_poly_mul(d->a, b, c);
    fmpz_poly_clear(b), fmpz_poly_clear(c);
    return d;
}
static void run_factor_z(void * v)
{
    fmpz_factoring * d = v;
    fmpz_poly_factor_clear(d->f);
    fmpz_poly_factor_init(d->f);
    fmpz_poly_factor(d->f, d->a);
}
static ulong check_factor_z(void * v)
{
    fmpz_factoring * d = v;
    ulong h = 0;
    for (slong i = 0; i < d->f->num; i++) h ^= mix(check_fmpz_poly(d->f->p + i), (ulong) d->f->exp[i]);
    return h;
}
static void clear_factor_z(void * v)
{
    fmpz_factoring * d = v;
    fmpz_poly_clear(d->a), fmpz_poly_factor_clear(d->f);
    free(d);
}

/* nmod_poly_powmod_ui_binexp: a random polynomial to the power p modulo one of degree 2^16. */
typedef struct { nmod_poly_t base, modulus, r; } nmod_triple;
static nmod_triple * new_nmod_triple(void)
{
    nmod_triple * d = malloc(sizeof *d);
    nmod_poly_init(d->base, kPrime62), nmod_poly_init(d->modulus, kPrime62), nmod_poly_init(d->r, kPrime62);
    return d;
}
static void * setup_powmod(flint_rand_t s)
{
    nmod_triple * d = new_nmod_triple();
    random_nmod_poly(d->modulus, s, (1 << 16) + 1);
    random_nmod_poly(d->base, s, 1 << 16);
    return d;
}
static void run_powmod(void * v)
{
    nmod_triple * d = v;
    nmod_poly_powmod_ui_binexp(d->r, d->base, kPrime62, d->modulus);
}
static ulong check_powmod(void * v) { nmod_triple * d = v; return check_nmod_poly(d->r); }
static void clear_nmod_triple(void * v)
{
    nmod_triple * d = v;
    nmod_poly_clear(d->base), nmod_poly_clear(d->modulus), nmod_poly_clear(d->r);
    free(d);
}

/* nmod_poly_factor of a random polynomial of degree 3000. */
typedef struct { nmod_poly_t a; nmod_poly_factor_t f; } nmod_factoring;
static void * setup_factor_p(flint_rand_t s)
{
    nmod_factoring * d = malloc(sizeof *d);
    nmod_poly_init(d->a, kPrime62);
    nmod_poly_factor_init(d->f);
    random_nmod_poly(d->a, s, 3001);
    nmod_poly_make_monic(d->a, d->a);
    return d;
}
static void run_factor_p(void * v)
{
    nmod_factoring * d = v;
    nmod_poly_factor_clear(d->f);
    nmod_poly_factor_init(d->f);
    nmod_poly_factor(d->f, d->a);
}
static ulong check_factor_p(void * v)
{
    nmod_factoring * d = v;
    ulong h = 0;
    for (slong i = 0; i < d->f->num; i++) h ^= mix(check_nmod_poly(d->f->p + i), (ulong) d->f->exp[i]);
    return h;
}
static void clear_factor_p(void * v)
{
    nmod_factoring * d = v;
    nmod_poly_clear(d->a), nmod_poly_factor_clear(d->f);
    free(d);
}

/* nmod_mat_inv and nmod_mat_det, 4096 x 4096. */
typedef struct { nmod_mat_t a, r; int invertible; ulong det; } nmod_mats;
static void * setup_nmod_mat(flint_rand_t s)
{
    nmod_mats * d = malloc(sizeof *d);
    nmod_mat_init(d->a, 4096, 4096, kPrime62), nmod_mat_init(d->r, 4096, 4096, kPrime62);
    nmod_mat_randfull(d->a, s);
    return d;
}
static void run_nmod_inv(void * v) { nmod_mats * d = v; d->invertible = nmod_mat_inv(d->r, d->a); }
static ulong check_nmod_inv(void * v)
{
    nmod_mats * d = v;
    ulong h = (ulong) d->invertible;
    for (slong i = 0; i < d->r->r; i += 97) h = mix(h, nmod_mat_entry(d->r, i, (i * 31) % d->r->c) % kCheck);
    return h;
}
static void run_nmod_det(void * v) { nmod_mats * d = v; d->det = nmod_mat_det(d->a); }
static ulong check_nmod_det(void * v) { nmod_mats * d = v; return d->det; }
static void clear_nmod_mats(void * v) { nmod_mats * d = v; nmod_mat_clear(d->a), nmod_mat_clear(d->r); free(d); }

/* fmpz_mat_det 1000 x 1000 and fmpz_mat_solve 500 x 500 with one column, 64-bit entries. */
typedef struct { fmpz_mat_t a, b, x; fmpz_t den; int solved; } fmpz_mats;
static void * setup_fmpz_mats(flint_rand_t s, slong n)
{
    fmpz_mats * d = malloc(sizeof *d);
    fmpz_mat_init(d->a, n, n), fmpz_mat_init(d->b, n, 1), fmpz_mat_init(d->x, n, 1), fmpz_init(d->den);
    for (slong i = 0; i < n; i++)
    {
        for (slong j = 0; j < n; j++) fmpz_randbits(fmpz_mat_entry(d->a, i, j), s, 64);
        fmpz_randbits(fmpz_mat_entry(d->b, i, 0), s, 64);
    }
    return d;
}
static void * setup_det(flint_rand_t s) { return setup_fmpz_mats(s, 1000); }
static void * setup_solve(flint_rand_t s) { return setup_fmpz_mats(s, 500); }
static void run_det(void * v) { fmpz_mats * d = v; fmpz_mat_det(d->den, d->a); }
static ulong check_det(void * v) { fmpz_mats * d = v; return check_fmpz(0, d->den); }
static void run_solve(void * v) { fmpz_mats * d = v; d->solved = fmpz_mat_solve(d->x, d->den, d->a, d->b); }
static ulong check_solve(void * v)
{
    fmpz_mats * d = v;
    ulong h = check_fmpz((ulong) d->solved, d->den);
    for (slong i = 0; i < d->x->r; i++) h = check_fmpz(h, fmpz_mat_entry(d->x, i, 0));
    return h;
}
static void clear_fmpz_mats(void * v)
{
    fmpz_mats * d = v;
    fmpz_mat_clear(d->a), fmpz_mat_clear(d->b), fmpz_mat_clear(d->x), fmpz_clear(d->den);
    free(d);
}

/* nmod_mat_nullspace of 4096 x 4096 of rank 4000: rows from 4000 on are sums of two earlier ones. */
typedef struct { nmod_mat_t a, x; slong nullity; } nmod_null;
static void * setup_nullspace(flint_rand_t s)
{
    nmod_null * d = malloc(sizeof *d);
    nmod_mat_init(d->a, 4096, 4096, kPrime62), nmod_mat_init(d->x, 4096, 4096, kPrime62);
    nmod_mat_randfull(d->a, s);
    for (slong i = 4000; i < 4096; i++)
        for (slong j = 0; j < 4096; j++)
            nmod_mat_entry(d->a, i, j) = n_addmod(nmod_mat_entry(d->a, i - 4000, j), nmod_mat_entry(d->a, i - 3999, j), kPrime62);
    return d;
}
static void run_nullspace(void * v) { nmod_null * d = v; d->nullity = nmod_mat_nullspace(d->x, d->a); }
static ulong check_nullspace(void * v)
{
    nmod_null * d = v;
    ulong h = (ulong) d->nullity;
    for (slong i = 0; i < d->x->r; i += 7) h = mix(h, nmod_mat_entry(d->x, i, i % 96) % kCheck);
    return h;
}
static void clear_nullspace(void * v) { nmod_null * d = v; nmod_mat_clear(d->a), nmod_mat_clear(d->x); free(d); }

/* fmpz_mat_mul of 1024 x 1024 by 1024 x 1024, entries of 1024 bits with random signs. */
typedef struct { fmpz_mat_t a, b, c; } fmpz_product;
static void * setup_fmpz_product(flint_rand_t s)
{
    fmpz_product * d = malloc(sizeof *d);
    fmpz_mat_init(d->a, 1024, 1024), fmpz_mat_init(d->b, 1024, 1024), fmpz_mat_init(d->c, 1024, 1024);
    for (slong i = 0; i < 1024; i++)
        for (slong j = 0; j < 1024; j++)
            fmpz_randbits(fmpz_mat_entry(d->a, i, j), s, 1024), fmpz_randbits(fmpz_mat_entry(d->b, i, j), s, 1024);
    return d;
}
static void run_fmpz_product(void * v) { fmpz_product * d = v; fmpz_mat_mul(d->c, d->a, d->b); }
static ulong check_fmpz_product(void * v)
{
    fmpz_product * d = v;
    ulong h = 0;
    for (slong i = 0; i < 1024; i++) h = check_fmpz(h, fmpz_mat_entry(d->c, i, (i * 7) % 1024));
    return h;
}
static void clear_fmpz_product(void * v)
{
    fmpz_product * d = v;
    fmpz_mat_clear(d->a), fmpz_mat_clear(d->b), fmpz_mat_clear(d->c);
    free(d);
}

/* fmpz_mat_inv of 100 x 100 and fmpz_mat_rank of 200 x 200 of rank 150, entries of about 64 bits. */
typedef struct { fmpz_mat_t a, b; fmpz_t den; slong answer; } fmpz_square;
static void * setup_square(flint_rand_t s, slong n, slong rank)
{
    fmpz_square * d = malloc(sizeof *d);
    fmpz_mat_t left, right;
    fmpz_mat_init(d->a, n, n), fmpz_mat_init(d->b, n, n), fmpz_init(d->den);
    fmpz_mat_init(left, n, rank), fmpz_mat_init(right, rank, n);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < rank; j++)
            fmpz_randbits(fmpz_mat_entry(left, i, j), s, 32), fmpz_randbits(fmpz_mat_entry(right, j, i), s, 32);
    if (rank == n)
        for (slong i = 0; i < n; i++)
            for (slong j = 0; j < n; j++) fmpz_randbits(fmpz_mat_entry(d->a, i, j), s, 64);
    else
        fmpz_mat_mul(d->a, left, right);
    fmpz_mat_clear(left), fmpz_mat_clear(right);
    return d;
}
static void * setup_fmpz_inv(flint_rand_t s) { return setup_square(s, 100, 100); }
static void * setup_fmpz_rank(flint_rand_t s) { return setup_square(s, 200, 150); }
static void run_fmpz_inv(void * v) { fmpz_square * d = v; d->answer = fmpz_mat_inv(d->b, d->den, d->a); }
static void run_fmpz_rank(void * v) { fmpz_square * d = v; d->answer = fmpz_mat_rank(d->a); }
static ulong check_square(void * v)
{
    fmpz_square * d = v;
    ulong h = check_fmpz((ulong) d->answer, d->den);
    for (slong i = 0; i < d->b->r; i++) h = check_fmpz(h, fmpz_mat_entry(d->b, i, (i * 7) % d->b->c));
    return h;
}
static void clear_square(void * v)
{
    fmpz_square * d = v;
    fmpz_mat_clear(d->a), fmpz_mat_clear(d->b), fmpz_clear(d->den);
    free(d);
}

#if __FLINT_RELEASE >= 30000
/* arb_poly_exp_series, length 4096 at 4096 bits. */
typedef struct { arb_poly_t a, r; } arb_pair;
static void * setup_exp(flint_rand_t s)
{
    arb_pair * d = malloc(sizeof *d);
    arb_poly_init(d->a), arb_poly_init(d->r);
    arb_poly_fit_length(d->a, 4096);
    for (slong i = 1; i < 4096; i++) arb_set_si(d->a->coeffs + i, (slong) n_randint(s, 2001) - 1000);
    _arb_poly_set_length(d->a, 4096);
    return d;
}
static void run_exp(void * v) { arb_pair * d = v; arb_poly_exp_series(d->r, d->a, 4096, 4096); }
static ulong check_exp(void * v)
{
    arb_pair * d = v;
    ulong h = 0;
    fmpz_t m;
    fmpz_init(m);
    for (slong i = 0; i < d->r->length; i += 64)
    {
        arf_get_fmpz(m, arb_midref(d->r->coeffs + i), ARF_RND_DOWN);
        h = check_fmpz(h, m);
    }
    fmpz_clear(m);
    return h;
}
static void clear_exp(void * v) { arb_pair * d = v; arb_poly_clear(d->a), arb_poly_clear(d->r); free(d); }
#endif

static const row_t rows[] = {
    {"fmpz_poly_pow", setup_pow, run_pow, check_pair, clear_pair},
    {"fmpz_poly_compose", setup_compose, run_compose, check_triple, clear_triple},
    {"nmod_poly_powmod_ui_binexp", setup_powmod, run_powmod, check_powmod, clear_nmod_triple},
    {"nmod_poly_factor", setup_factor_p, run_factor_p, check_factor_p, clear_factor_p},
#if __FLINT_RELEASE >= 30000
    {"arb_poly_exp_series", setup_exp, run_exp, check_exp, clear_exp},
#endif
    {"fmpz_poly_div", setup_div, run_div, check_triple, clear_triple},
    {"nmod_mat_inv", setup_nmod_mat, run_nmod_inv, check_nmod_inv, clear_nmod_mats},
    {"nmod_mat_det", setup_nmod_mat, run_nmod_det, check_nmod_det, clear_nmod_mats},
    {"fmpz_mat_mul", setup_fmpz_product, run_fmpz_product, check_fmpz_product, clear_fmpz_product},
    {"fmpz_mat_det", setup_det, run_det, check_det, clear_fmpz_mats},
    {"fmpz_mat_solve", setup_solve, run_solve, check_solve, clear_fmpz_mats},
    {"nmod_mat_nullspace", setup_nullspace, run_nullspace, check_nullspace, clear_nullspace},
    {"fmpz_mat_inv", setup_fmpz_inv, run_fmpz_inv, check_square, clear_square},
    {"fmpz_mat_rank", setup_fmpz_rank, run_fmpz_rank, check_square, clear_square},
    {"fmpz_poly_factor", setup_factor_z, run_factor_z, check_factor_z, clear_factor_z},
};

static int compare_doubles(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* Calls 2 to `calls` of a row, after a pause of one second: their median. */
static double later_calls(const row_t * row, void * data, int calls)
{
    double times[64];
    sleep(1);
    for (int k = 0; k < calls - 1; k++)
    {
        double t0 = now();
        row->call(data);
        times[k] = now() - t0;
    }
    qsort(times, (size_t) calls - 1, sizeof times[0], compare_doubles);
    return (calls % 2 == 0) ? times[(calls - 2) / 2] : 0.5 * (times[(calls - 3) / 2] + times[(calls - 1) / 2]);
}

int main(int argc, char ** argv)
{
    const char * calls_text = getenv("BENCH_CALLS");
    int calls = calls_text ? atoi(calls_text) : 2;
    if (calls < 2 || calls > 65)
    {
        fprintf(stderr, "BENCH_CALLS must be 2 to 65, not %s\n", calls_text);
        return 2;
    }
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    if (threads <= 0) threads = (int) sysconf(_SC_NPROCESSORS_ONLN);
    flint_set_num_threads(threads);
    printf("FLINT %s, %d threads", flint_version, threads);
    if (calls > 2) printf(", second s: the median of calls 2 to %d", calls);
    printf("\n%-28s %10s %10s %20s\n", "row", "first s", "second s", "checksum");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    {
        int wanted = argc <= 2;
        for (int j = 2; j < argc; j++) wanted |= strcmp(argv[j], rows[i].name) == 0;
        if (!wanted) continue;
        flint_rand_t state;
        flint_rand_init(state);
        void * data = rows[i].setup(state);
        double t0 = now();
        rows[i].call(data);
        double t1 = now();
        ulong first = rows[i].check(data);
        double later = later_calls(&rows[i], data, calls);
        ulong second = rows[i].check(data);
        printf("%-28s %10.4f %10.4f %20lu%s\n", rows[i].name, t1 - t0, later, first,
               first == second ? "" : " (second differs)");
        fflush(stdout);
        rows[i].clear(data);
        flint_rand_clear(state);
    }
    flint_cleanup_master();
    return 0;
}
