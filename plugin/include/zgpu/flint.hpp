// C++ forms of the FLINT-style entry points of zgpu.h: same semantics, errors thrown as
// zgpu::Error (nothing written) instead of returned.
#pragma once

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>

#include "zgpu/error.hpp"

namespace zgpu {

void fmpz_vec_add(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_sub(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_poly_add(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);
void fmpz_poly_sub(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);
void fmpz_vec_mul(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_sqr(fmpz* res, const fmpz* vec, slong len);
void fmpz_vec_scalar_mul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c);
void fmpz_poly_scalar_mul_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);
void fmpz_vec_scalar_addmul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c);
void fmpz_vec_scalar_submul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c);
void fmpz_vec_divexact(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_divexact_checked(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_scalar_divexact_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c);
void fmpz_vec_scalar_divexact_fmpz_checked(fmpz* res, const fmpz* vec, slong len, const fmpz_t c);
void fmpz_vec_fdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_tdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len);
void fmpz_vec_scalar_mod_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t p);
void fmpz_poly_scalar_divexact_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);
void fmpz_poly_scalar_mod_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);

}  // namespace zgpu
