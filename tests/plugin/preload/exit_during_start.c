/* One product over Z long enough for the plugin to start the GPU, then, after a pause given in
   microseconds, the end of the process: it may end while the plugin's GPU start still runs.
   exit_during_start.sh runs it with the plugin. */
#include <stdlib.h>
#include <unistd.h>

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>

int main(int argc, char ** argv)
{
    const slong length = 4096;
    const long pause_us = argc > 1 ? atol(argv[1]) : 0;
    fmpz_poly_t a, b, c;
    fmpz_poly_init(a), fmpz_poly_init(b), fmpz_poly_init(c);
    for (slong i = 0; i < length; i++)
    {
        fmpz_poly_set_coeff_ui(a, i, (ulong) i * 2654435761u + 1);
        fmpz_poly_set_coeff_ui(b, i, (ulong) i * 40503u + 7);
    }
    fmpz_poly_scalar_mul_2exp(a, a, 900);
    fmpz_poly_scalar_mul_2exp(b, b, 900);
    fmpz_poly_mul(c, a, b);
    if (pause_us > 0) usleep((useconds_t) pause_us);
    flint_printf("%wd %wu\n", c->length, fmpz_bits(c->coeffs + length));
    fmpz_poly_clear(a), fmpz_poly_clear(b), fmpz_poly_clear(c);
    return 0;
}
