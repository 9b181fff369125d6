/* An ordinary FLINT program that knows nothing of zgpu: it factors a random polynomial of
   degree n modulo a 62-bit prime and raises x + 1 to the power p modulo another of degree 16 n,
   and prints the time each took. scripts/flint-plugin-example runs it without and with the
   FLINT plugin; the factors and the power are the same either way.
   Arguments: [n (default 2000)] [threads (default: all)]. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <flint/flint.h>
#include <flint/nmod_poly.h>
#include <flint/nmod_poly_factor.h>

#if __FLINT_RELEASE < 30000
#define flint_rand_init flint_randinit
#define flint_rand_clear flint_randclear
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

int main(int argc, char ** argv)
{
    const ulong p = UWORD(4611686018427387847);
    slong n = argc > 1 ? atol(argv[1]) : 2000;
    int threads = argc > 2 ? atoi(argv[2]) : (int) sysconf(_SC_NPROCESSORS_ONLN);
    flint_rand_t state;
    nmod_poly_t f, m, x1, r;
    nmod_poly_factor_t factors;
    double t;

    flint_set_num_threads(threads);
    flint_rand_init(state);
    nmod_poly_init(f, p), nmod_poly_init(m, p), nmod_poly_init(x1, p), nmod_poly_init(r, p);
    nmod_poly_randtest_monic(f, state, n + 1);
    nmod_poly_randtest_monic(m, state, 16 * n + 1);
    nmod_poly_set_coeff_ui(x1, 1, 1), nmod_poly_set_coeff_ui(x1, 0, 1);

    t = now();
    nmod_poly_factor_init(factors);
    nmod_poly_factor(factors, f);
    printf("factored a polynomial of degree %ld modulo %lu in %.3f s: factors of degree", (long) n, p, now() - t);
    for (slong i = 0; i < factors->num; i++) printf(" %ld", (long) nmod_poly_degree(factors->p + i));
    printf("\n");

    t = now();
    nmod_poly_powmod_ui_binexp(r, x1, p, m);
    printf("(x + 1)^p modulo a polynomial of degree %ld in %.3f s; its value at x = 2 is %lu\n",
           (long) (16 * n), now() - t, nmod_poly_evaluate_nmod(r, 2));

    nmod_poly_factor_clear(factors);
    nmod_poly_clear(f), nmod_poly_clear(m), nmod_poly_clear(x1), nmod_poly_clear(r);
    flint_rand_clear(state);
    flint_cleanup_master();
    return 0;
}
