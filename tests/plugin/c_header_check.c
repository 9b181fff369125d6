/* zgpu.h alone declares every family of C entry points: a C program that includes it and calls
   one function of each compiles without an implicit declaration (the build fails otherwise). */
#include "zgpu/zgpu.h"

int zgpu_c_header_check(fmpz * v, nmod_mat_t m, fmpz_mat_t z, fmpz_poly_t p, fmpz_t d);

int zgpu_c_header_check(fmpz * v, nmod_mat_t m, fmpz_mat_t z, fmpz_poly_t p, fmpz_t d)
{
    ulong det = 0;
    slong rank = 0;
    return zgpu_fmpz_vec_add(v, v, v, 1) + zgpu_nmod_mat_det(&det, m) + zgpu_nmod_mat_rank(&rank, m) +
           zgpu_fmpz_mat_det(d, z) + zgpu_fmpz_poly_pow(p, p, 3) + zgpu_fmpz_poly_compose(p, p, p) + zgpu_fmpz_poly_resultant(d, p, p);
}
