/* Polynomial products modulo a word-size n (2 <= n < 2^64, prime or not), with FLINT's
   semantics: res may be a or b, zero polynomials and lengths 0 allowed, the result normalised.
   On the GPU they are integer products by Kronecker substitution (coefficients packed into
   one integer a polynomial) where that fits a batch (2^22-bit products), and FLINT's own
   functions elsewhere and on the CPU backend, so the results are FLINT's. Each returns 0, or
   -1 with nothing written and zgpu_last_error() saying why (a NULL argument, a negative
   length, operands and result of different moduli). */
#ifndef ZGPU_ZGPU_POLY_H
#define ZGPU_ZGPU_POLY_H

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
   On the GPU one batch of integer products. Every operand is read before any res[i] is
   written, so res[i] may be any a[j] or b[j] (the res[i] distinct); a == b squares. */
int zgpu_nmod_poly_mul_many(nmod_poly_struct * res, const nmod_poly_struct * a, const nmod_poly_struct * b,
                            slong count);

#ifdef __cplusplus
}
#endif

#endif
