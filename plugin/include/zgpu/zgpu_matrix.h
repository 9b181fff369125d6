/* Matrix products, determinants, ranks and solutions with FLINT's semantics, modulo a word-size n
   (2 <= n < 2^64, prime or not) and over Z. c may be a or b; empty shapes allowed. On the GPU a
   tiled product whose inner sums are exact before one reduction an entry; over Z the entries
   reduced modulo as many 62-bit primes as the product's bound needs (bits of a + bits of b +
   log2 of the inner dimension + sign), one such product a prime, one CRT. On the CPU backend
   FLINT's own functions, so the results are FLINT's either way. Each returns 0, or -1 with
   nothing written and zgpu_last_error() saying why (a NULL argument, shapes that do not match,
   different moduli). */
#ifndef ZGPU_ZGPU_MATRIX_H
#define ZGPU_ZGPU_MATRIX_H

#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* c = a * b, as nmod_mat_mul: a is m x k, b is k x n, c is m x n. */
int zgpu_nmod_mat_mul(nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b);

/* *det = det(a), as nmod_mat_det: a square (FLINT aborts otherwise; here an error), any modulus.
   *rank = rank(a), as nmod_mat_rank: the modulus prime, as FLINT requires. On the GPU, for a
   prime modulus, a blocked LU: panels of 16 columns on one block, the trailing updates on the
   whole GPU. */
int zgpu_nmod_mat_det(ulong * det, const nmod_mat_t a);
int zgpu_nmod_mat_rank(slong * rank, const nmod_mat_t a);

/* *invertible = nmod_mat_inv(b, a): b = a^-1 and 1 where a is invertible, else 0 (FLINT's
   function answers; b's entries are then FLINT's). a square, b of its shape, the modulus prime
   as FLINT requires (a composite one goes to FLINT's function); b may be a. On the GPU, for a
   prime modulus, by block recursion on Schur complements, retried on a randomly preconditioned
   matrix where the modulus is above 2^61; a singular block leaves the call to FLINT. */
int zgpu_nmod_mat_inv(int * invertible, nmod_mat_t b, const nmod_mat_t a);

/* *nonsingular = nmod_mat_solve(x, a, b): x = a^-1 b and 1 where a is invertible, else 0 (FLINT's
   function answers). a square, b of a's rows, x of b's shape, one modulus, prime as FLINT
   requires; x may be a or b; an empty system gives 1, x untouched. On the GPU as
   zgpu_nmod_mat_inv, then the inverse's product into b on the device. */
int zgpu_nmod_mat_solve(int * nonsingular, nmod_mat_t x, const nmod_mat_t a, const nmod_mat_t b);

/* *rank = nmod_mat_lu(P, a, rank_check): P a = L U, a overwritten by L (unit lower triangular,
   its diagonal not stored, truncated to rank columns) and U (rank rows in row echelon form), P
   a permutation of a's rows (P[i] is the row of a that became row i). P has a's rows (NULL only
   where a has none). Where rank_check is set and a column has no pivot while rows are left,
   *rank = 0 and a is undefined, as FLINT leaves it. The modulus prime, as FLINT requires (a
   composite one goes to FLINT's function). On the GPU, for a prime modulus, the blocked LU of
   zgpu_nmod_mat_rank with true factors, brought into FLINT's packed form on the host: the
   factors and P equal nmod_mat_lu_classical's (each column's first nonzero entry from the
   current row down is its pivot). FLINT's nmod_mat_lu may choose other pivots on large
   matrices; P a = L U holds for both.
   *rank = nmod_mat_rref(a): a in reduced row echelon form (unique), as FLINT. On the GPU, the LU,
   then U's other columns times the inverse of its pivot columns' triangle, on the GPU where the
   cost model says it pays (else FLINT's nmod_mat_solve_triu).
   *nullity = nmod_mat_nullspace(x, a): x, of a's columns rows and columns and a's modulus, gets
   FLINT's basis of the null space (from the reduced echelon form: one column for each column of
   a without a pivot, 1 there) in its first columns, zeros elsewhere; x may be a. */
int zgpu_nmod_mat_lu(slong * rank, slong * P, nmod_mat_t a, int rank_check);
int zgpu_nmod_mat_rref(slong * rank, nmod_mat_t a);
int zgpu_nmod_mat_nullspace(slong * nullity, nmod_mat_t x, const nmod_mat_t a);

/* c = a * b over Z, as fmpz_mat_mul. */
int zgpu_fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b);

/* det = det(a), as fmpz_mat_det: a square (0 x 0 gives 1). On the GPU by elimination modulo as
   many primes as Hadamard's bound on |det| needs, a block a prime, and one CRT: exact on every
   input, singular matrices included. */
int zgpu_fmpz_mat_det(fmpz_t det, const fmpz_mat_t a);

/* *nonsingular = fmpz_mat_solve(x, den, a, b): a x = den b, as FLINT: 1 where a is nonsingular,
   else 0 (FLINT's function answers). a is n x n, b and x n x m; x may be a or b. For n > 15 and
   m <= 32, on the GPU by Dixon's p-adic lifting and rational reconstruction: den > 0 the lcm of
   the solution's denominators, as FLINT returns it there. */
int zgpu_fmpz_mat_solve(int * nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b);

/* *invertible = fmpz_mat_inv(b, den, a): b / den = a^-1 and 1 where a is nonsingular, else 0 (den
   = 0 where zgpu decided it, b untouched). a square, b of its shape; b may be a. For more than 15
   rows, den > 0 is the lcm of a^-1's denominators and b = den a^-1, FLINT's answer there; on the
   GPU det a first (as zgpu_fmpz_mat_det), then adj a modulo primes that do not divide det a (each
   an inverse by block recursion times det a mod p) and one CRT, and den = |det a| / g, b = sign(det
   a) adj a / g for g the gcd of det a and adj a's entries. */
int zgpu_fmpz_mat_inv(int * invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a);

/* *rank = fmpz_mat_rref(r, den, a): r = den times a's reduced row echelon form (r of a's shape;
   may be a); *rank = fmpz_mat_rank(a); *nullity = fmpz_mat_nullspace(x, a): x (of a's columns
   rows and columns) gets FLINT's basis of the null space in its first columns, zeros elsewhere.
   The answers are FLINT's. Where FLINT takes its multimodular echelon form, zgpu takes the same
   certified way with its own parts: an LU modulo a prime (on the GPU where it pays), the pivot
   block's solution for the other columns (zgpu_fmpz_mat_solve), and the check that every row
   left out lies in the pivot rows' span (zgpu_fmpz_mat_mul); another prime where the check
   fails. Elsewhere (FLINT's fraction-free ways, ranks of at most 15) FLINT's functions. */
int zgpu_fmpz_mat_rref(slong * rank, fmpz_mat_t r, fmpz_t den, const fmpz_mat_t a);
int zgpu_fmpz_mat_rank(slong * rank, const fmpz_mat_t a);
int zgpu_fmpz_mat_nullspace(slong * nullity, fmpz_mat_t x, const fmpz_mat_t a);

#ifdef __cplusplus
}
#endif

#endif
