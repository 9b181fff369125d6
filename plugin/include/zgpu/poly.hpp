// C++ forms of the entry points of zgpu_poly.h: same semantics, errors thrown as zgpu::Error
// (nothing written) instead of returned.
#pragma once

#include <flint/fmpz_poly.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

#include "zgpu/error.hpp"

namespace zgpu {

void nmod_poly_mul(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b);
void nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n);
void nmod_poly_sqr(nmod_poly_t res, const nmod_poly_t a);
void nmod_poly_mul_many(nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b, slong count);
ulong nmod_poly_resultant(const nmod_poly_t a, const nmod_poly_t b);
void _nmod_poly_mul(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, nmod_t mod);
void _nmod_poly_mullow(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, slong n, nmod_t mod);
void _nmod_poly_sqr(ulong* res, const ulong* a, slong len, nmod_t mod);
void _nmod_poly_mulmod_preinv(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, const ulong* f, slong lenf,
                              const ulong* finv, slong lenfinv, nmod_t mod);
void nmod_poly_powmod_ui_binexp(nmod_poly_t res, const nmod_poly_t poly, ulong e, const nmod_poly_t f);
void _nmod_poly_powmod_ui_binexp(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, nmod_t mod);
void _nmod_poly_powmod_ui_binexp_preinv(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, const ulong* finv,
                                        slong lenfinv, nmod_t mod);
void _nmod_poly_powmod_x_ui_preinv(ulong* res, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod);
void nmod_poly_compose_mod_brent_kung_precomp_preinv(nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A,
                                                     const nmod_poly_t poly3, const nmod_poly_t poly3inv);
void nmod_poly_compose_mod_brent_kung_vec_preinv(nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1, slong n,
                                                 const nmod_poly_t g, const nmod_poly_t poly, const nmod_poly_t polyinv);

void fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b);
void fmpz_poly_mullow(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, slong n);
void fmpz_poly_sqr(fmpz_poly_t res, const fmpz_poly_t a);
void _fmpz_poly_mul(fmpz* res, const fmpz* a, slong lena, const fmpz* b, slong lenb);
void fmpz_poly_pow(fmpz_poly_t res, const fmpz_poly_t poly, ulong e);
void _fmpz_poly_pow(fmpz* res, const fmpz* poly, slong len, ulong e);
void fmpz_poly_compose(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);
void _fmpz_poly_compose(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2);
void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b);

// Progress lines on stderr for products, resultants and determinants that FLINT would take a
// second or more for on one thread, as zgpu_set_progress; overrides ZGPU_PROGRESS.
void set_progress(bool on);

}  // namespace zgpu
