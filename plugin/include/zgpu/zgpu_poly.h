/* Polynomial products with FLINT's semantics: modulo a word-size n (2 <= n < 2^64, prime or
   not) and over Z. res may be a or b, zero polynomials and lengths 0 allowed, the result
   normalised. On the GPU they are NTT products (mod n: one 62-bit prime where n is a suitable
   prime, else five 29-bit primes for short products and three 62-bit ones for long ones, and
   one reduction mod n; over Z as many primes as the product's coefficients need, then one
   CRT), in pieces added up on the host where one transform would exceed 2^24 or, over Z, the
   device's memory; on the CPU backend FLINT's own functions, so the results are FLINT's either
   way. Each returns 0, or -1 with nothing written and zgpu_last_error()
   saying why (a NULL argument, a negative length, operands and result of different moduli). */
#ifndef ZGPU_ZGPU_POLY_H
#define ZGPU_ZGPU_POLY_H

#include <flint/fmpz_poly.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

#ifdef __cplusplus
extern "C" {
#endif

/* res = a * b, as nmod_poly_mul. */
int zgpu_nmod_poly_mul(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b);

/* res = a * b mod x^n, as nmod_poly_mullow; n >= 0. */
int zgpu_nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n);

/* res = a^2, as nmod_poly_mul(res, a, a) (one transform a square where the GPU uses the NTT). */
int zgpu_nmod_poly_sqr(nmod_poly_t res, const nmod_poly_t a);

/* res[i] = a[i] * b[i], 0 <= i < count: independent products, each with its own length and
   modulus, which a[i], b[i] and res[i] share (checked: a mismatch is an error naming the index).
   On the GPU one call for the whole batch. Every operand is read before any res[i] is
   written, so res[i] may be any a[j] or b[j] (the res[i] distinct); a == b squares. */
int zgpu_nmod_poly_mul_many(nmod_poly_struct * res, const nmod_poly_struct * a, const nmod_poly_struct * b,
                            slong count);

/* (res, lena + lenb - 1) = (a, lena) * (b, lenb) mod n, as _nmod_poly_mul: lena >= lenb >= 1,
   every coefficient below mod.n (checked), every coefficient of res written. res may overlap
   the operands (every operand is read before res is written). */
int _zgpu_nmod_poly_mul(ulong * res, const ulong * a, slong lena, const ulong * b, slong lenb, nmod_t mod);

/* (res, n) = (a, lena) * (b, lenb) mod x^n, as _nmod_poly_mullow: the same, 1 <= n <= lena + lenb - 1. */
int _zgpu_nmod_poly_mullow(ulong * res, const ulong * a, slong lena, const ulong * b, slong lenb, slong n, nmod_t mod);

/* (res, 2 len - 1) = (a, len)^2: _zgpu_nmod_poly_mul(res, a, len, a, len, mod), one forward
   transform where the GPU uses the NTT. */
int _zgpu_nmod_poly_sqr(ulong * res, const ulong * a, slong len, nmod_t mod);

/* (res, lenf - 1) = (poly1, len1) * (poly2, len2) mod (f, lenf), as _nmod_poly_mulmod_preinv, with
   finv (lenfinv coefficients) the inverse of f reversed: 1 <= len1, len2 < lenf and
   len1 + len2 > lenf (lenf = 2 aside), every coefficient below mod.n and f's leading one nonzero
   (checked). res may be poly1 or poly2. On the GPU one product and the remainder by finv. */
int _zgpu_nmod_poly_mulmod_preinv(ulong * res, const ulong * poly1, slong len1, const ulong * poly2, slong len2, const ulong * f,
                                  slong lenf, const ulong * finv, slong lenfinv, nmod_t mod);

/* res = poly^e mod f, as nmod_poly_powmod_ui_binexp (aliasing included). On the GPU every
   step stays on the device (a product and a remainder by f's inverse); the choice follows f's
   degree and e. */
int zgpu_nmod_poly_powmod_ui_binexp(nmod_poly_t res, const nmod_poly_t poly, ulong e, const nmod_poly_t f);

/* (res, lenf - 1) = (poly, lenf - 1)^e mod (f, lenf), as _nmod_poly_powmod_ui_binexp: lenf >= 2,
   e >= 1, every coefficient below mod.n and f's leading one nonzero (checked). res may be poly. */
int _zgpu_nmod_poly_powmod_ui_binexp(ulong * res, const ulong * poly, ulong e, const ulong * f, slong lenf, nmod_t mod);

/* The same with finv (lenfinv coefficients) the inverse of f reversed, as
   _nmod_poly_powmod_ui_binexp_preinv. */
int _zgpu_nmod_poly_powmod_ui_binexp_preinv(ulong * res, const ulong * poly, ulong e, const ulong * f, slong lenf,
                                            const ulong * finv, slong lenfinv, nmod_t mod);

/* (res, lenf - 1) = x^e mod (f, lenf), as _nmod_poly_powmod_x_ui_preinv. */
int _zgpu_nmod_poly_powmod_x_ui_preinv(ulong * res, ulong e, const ulong * f, slong lenf, const ulong * finv, slong lenfinv,
                                       nmod_t mod);

/* res = poly1(g) mod poly3, as nmod_poly_compose_mod_brent_kung_precomp_preinv: A the matrix of
   the powers of g mod poly3 from nmod_poly_precompute_matrix, poly3inv the inverse of poly3
   reversed (res may be any argument; the value is FLINT's for any A of the right shape). On the
   GPU the blocks' matrix product and the evaluation of its rows (all the products of a round in
   one batch) stay on the device. */
int zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A,
                                                         const nmod_poly_t poly3, const nmod_poly_t poly3inv);

/* res[i] = polys[i](g) mod poly for i < n <= len1, as nmod_poly_compose_mod_brent_kung_vec_preinv
   (every one of the len1 polynomials shorter than poly, g reduced mod poly). On the GPU the powers
   of g, the matrix product and every composition's evaluation, a batch a round. */
int zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(nmod_poly_struct * res, const nmod_poly_struct * polys, slong len1, slong n,
                                                     const nmod_poly_t g, const nmod_poly_t poly, const nmod_poly_t polyinv);

/* *res = Res(a, b), as nmod_poly_resultant: 0 where a or b is zero, and where a and b are the same
   polynomial (FLINT's answer, a nonzero constant included); a and b of the same modulus,
   which must be prime (FLINT assumes it; here a composite one is an error). On the GPU one
   block runs the remainder sequence; the choice follows the lengths. */
int zgpu_nmod_poly_resultant(ulong * res, const nmod_poly_t a, const nmod_poly_t b);

/* res = a * b over Z, as fmpz_poly_mul. */
int zgpu_fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b);

/* res = a * b mod x^n, as fmpz_poly_mullow; n >= 0. */
int zgpu_fmpz_poly_mullow(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, slong n);

/* res = a^2, as fmpz_poly_sqr. */
int zgpu_fmpz_poly_sqr(fmpz_poly_t res, const fmpz_poly_t a);

/* (res, lena + lenb - 1) = (a, lena) * (b, lenb), as _fmpz_poly_mul: lena >= lenb >= 1, res
   overlaps neither operand. */
int _zgpu_fmpz_poly_mul(fmpz * res, const fmpz * a, slong lena, const fmpz * b, slong lenb);

/* res = poly^e, as fmpz_poly_pow (res may be poly). On the GPU poly is reduced modulo primes
   enough for the bound ||poly||_1^e once, raised to the power there by squarings and products,
   and reconstructed by one CRT: nothing crosses PCIe between the steps. FLINT's function answers
   where poly has fewer than two coefficients or e < 3. */
int zgpu_fmpz_poly_pow(fmpz_poly_t res, const fmpz_poly_t poly, ulong e);

/* (res, e (len - 1) + 1) = (poly, len)^e, as _fmpz_poly_pow: len >= 1, e >= 1, res does not
   overlap poly; every coefficient written. */
int _zgpu_fmpz_poly_pow(fmpz * res, const fmpz * poly, slong len, ulong e);

/* res = poly1(poly2), as fmpz_poly_compose (res may be either). On the GPU both are reduced
   modulo primes enough for the bound ||poly1||_1 max(1, ||poly2||_1)^(len1 - 1) once, poly1 is
   evaluated at the points of poly2's transform modulo each prime and the transform inverted, and
   one CRT reconstructs the result: exact on every input. FLINT's function answers where either
   has fewer than two coefficients. */
int zgpu_fmpz_poly_compose(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);

/* (res, (len1 - 1)(len2 - 1) + 1) = (poly1, len1)(poly2, len2), as _fmpz_poly_compose:
   len1 >= 1, len2 >= 1, res overlaps neither; every coefficient written. */
int _zgpu_fmpz_poly_compose(fmpz * res, const fmpz * poly1, slong len1, const fmpz * poly2, slong len2);

/* res = Res(a, b), as fmpz_poly_resultant (0 where a or b is zero; res may be a coefficient of a
   or b). On the GPU modulo as many primes as Hadamard's bound on the Sylvester matrix needs,
   each prime's remainder sequence run by a warp, and one CRT: exact on every input. */
int zgpu_fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b);

/* Progress lines on stderr (on != 0) for products, resultants and determinants that FLINT would
   take a second or more for on one thread: as such a call starts, at each tenth of its work where
   it comes in parts (the products of a batch, chunks of coefficients, primes) with the time left,
   and as it ends, with the seconds taken and the backend that ran. Overrides the environment
   variable ZGPU_PROGRESS (off unless set to something other than 0). */
void zgpu_set_progress(int on);

#ifdef __cplusplus
}
#endif

#endif
