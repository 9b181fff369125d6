/* zgpu's C entry points, mirroring FLINT. Each has the semantics of the FLINT function it is
   named after, aliasing included (res may be vec1 or vec2; res may be poly1 or poly2).
   Each returns 0 on success. On bad input or a failure of the GPU runtime it returns -1 with
   nothing written, and zgpu_last_error() says why.
   The backend is chosen per call: ZGPU_BACKEND=cpu or gpu forces one, auto (the default)
   uses the GPU where it is faster. */
#ifndef ZGPU_ZGPU_H
#define ZGPU_ZGPU_H

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>

#ifdef __cplusplus
extern "C" {
#endif

/* res[i] = vec1[i] + vec2[i] (sub: -), 0 <= i < len, as _fmpz_vec_add / _fmpz_vec_sub. */
int zgpu_fmpz_vec_add(fmpz * res, const fmpz * vec1, const fmpz * vec2, slong len);
int zgpu_fmpz_vec_sub(fmpz * res, const fmpz * vec1, const fmpz * vec2, slong len);

/* res = poly1 + poly2 (sub: -), as fmpz_poly_add / fmpz_poly_sub. */
int zgpu_fmpz_poly_add(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);
int zgpu_fmpz_poly_sub(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2);

/* res[i] = vec1[i] * vec2[i], 0 <= i < len: full products, elementwise (FLINT has no such
   function; the semantics are fmpz_mul's, element by element). */
int zgpu_fmpz_vec_mul(fmpz * res, const fmpz * vec1, const fmpz * vec2, slong len);

/* res[i] = vec[i]^2, 0 <= i < len, as fmpz_sqr element by element; one transform a square
   where the GPU uses the NTT, so cheaper than zgpu_fmpz_vec_mul(res, vec, vec, len). */
int zgpu_fmpz_vec_sqr(fmpz * res, const fmpz * vec, slong len);

/* res[i] = vec[i] * c, as _fmpz_vec_scalar_mul_fmpz. Here and in addmul/submul c is read
   once, before res changes: when c is an entry of res, every res[i] uses its old value. */
int zgpu_fmpz_vec_scalar_mul_fmpz(fmpz * res, const fmpz * vec, slong len, const fmpz_t c);

/* res = poly * x, as fmpz_poly_scalar_mul_fmpz (coefficient by coefficient, on the GPU like
   zgpu_fmpz_vec_scalar_mul_fmpz). */
int zgpu_fmpz_poly_scalar_mul_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);

/* res[i] += vec[i] * c and res[i] -= vec[i] * c, as _fmpz_vec_scalar_addmul_fmpz and
   _fmpz_vec_scalar_submul_fmpz. */
int zgpu_fmpz_vec_scalar_addmul_fmpz(fmpz * res, const fmpz * vec, slong len, const fmpz_t c);
int zgpu_fmpz_vec_scalar_submul_fmpz(fmpz * res, const fmpz * vec, slong len, const fmpz_t c);

/* Division, on the host threads or the GPU: automatically where a cost model of the batch's
   sizes says the GPU pays (with remainder: by divisors up to 32768 bits), or as ZGPU_BACKEND
   says. A zero divisor is an error naming its index, with nothing written. */

/* res[i] = vec1[i] / vec2[i] where vec2[i] divides vec1[i], as fmpz_divexact element by
   element: like FLINT's, the result of a pair that does not divide exactly is unspecified. */
int zgpu_fmpz_vec_divexact(fmpz * res, const fmpz * vec1, const fmpz * vec2, slong len);
/* The same, verified: the first pair that does not divide exactly is reported by index, and
   res is left untouched. */
int zgpu_fmpz_vec_divexact_checked(fmpz * res, const fmpz * vec1, const fmpz * vec2, slong len);

/* res[i] = vec[i] / c, exact, as _fmpz_vec_scalar_divexact_fmpz; and verified. c is read once. */
int zgpu_fmpz_vec_scalar_divexact_fmpz(fmpz * res, const fmpz * vec, slong len, const fmpz_t c);
int zgpu_fmpz_vec_scalar_divexact_fmpz_checked(fmpz * res, const fmpz * vec, slong len, const fmpz_t c);

/* q[i], r[i] = floor (fdiv) or truncated (tdiv) quotient and remainder of vec1[i] by vec2[i],
   as fmpz_fdiv_qr and fmpz_tdiv_qr element by element. q and r must be different vectors;
   either may be vec1 or vec2. */
int zgpu_fmpz_vec_fdiv_qr(fmpz * q, fmpz * r, const fmpz * vec1, const fmpz * vec2, slong len);
int zgpu_fmpz_vec_tdiv_qr(fmpz * q, fmpz * r, const fmpz * vec1, const fmpz * vec2, slong len);

/* res[i] = vec[i] mod p in [0, p), as _fmpz_vec_scalar_mod_fmpz; p must be positive. */
int zgpu_fmpz_vec_scalar_mod_fmpz(fmpz * res, const fmpz * vec, slong len, const fmpz_t p);

/* res = poly / x and res = poly mod x (x > 0), coefficient by coefficient, as
   fmpz_poly_scalar_divexact_fmpz (content removal) and fmpz_poly_scalar_mod_fmpz. */
int zgpu_fmpz_poly_scalar_divexact_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);
int zgpu_fmpz_poly_scalar_mod_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x);

/* Why the last call on this thread failed ("" if it succeeded), starting with the name of the
   function called: "zgpu_fmpz_vec_add: len is negative (-1)". */
const char * zgpu_last_error(void);
/* "cpu" or "gpu": the backend that ran the last call on this thread, empty vectors included, and
   also where the call computed and then failed (a checked division that found an inexact entry);
   "cpu" where the GPU failed part-way and the host computed the rest. "none" before any call,
   after a call refused for its arguments, and after a scalar division of an empty vector, which
   returns before choosing (FLINT allows any divisor there). */
const char * zgpu_last_backend(void);
/* Starts the GPU ahead of the first call that uses it (the driver, a context, streams and pinned
   staging memory: about 0.4 s on an H200), so that no call waits for it. Returns 1 once it has
   started, 0 where there is none (no device, or a build without CUDA), -1 where it failed to
   start (zgpu_last_error says why). */
int zgpu_start_gpu(void);

#ifdef __cplusplus
}
#endif

#include "zgpu/zgpu_matrix.h"
#include "zgpu/zgpu_modular.h"
#include "zgpu/zgpu_poly.h"

#endif
