/* Modular computations split over the ranks of an MPI communicator: libzgpu_mpi, built with
   -DZGPU_WITH_MPI=ON (libzgpu itself never needs MPI).

   Each rank takes a share of the primes the bound needs (equal at a function's first call, then
   weighted by the ranks' times in its last call, so that faster ranks take more), computes its
   residues with zgpu on its own backend (its GPU where it has one, else its host threads) and
   reconstructs modulo the product of its primes; the ranks' values then merge pairwise along a binary tree to the
   root, so that no rank holds every residue. Every call is collective: all ranks of comm call it
   with the same input, result and root. Where a rank's part fails, every rank returns -1 with
   that rank's message (zgpu_last_error) and nothing is written; so do ranks that pass different
   roots, inputs or results. A rank that stops answering ends the job: a rank that has waited
   ZGPU_MPI_TIMEOUT seconds (600 unless set) beyond twice the longer of its own part's time and
   the cost model's time for FLINT on one thread of a share says so on stderr and calls
   MPI_Abort. A determinant whose divisor the
   root's GPU finds sooner (Dixon's lifting, as one process's does) splits only the quotient's
   primes.

   Unless ZGPU_DEVICES or ZGPU_DEVICE is set, the ranks on one machine share its GPUs out at
   their first call: local rank r of L takes GPUs r, r + L, ..., or GPU r mod D where the machine
   has fewer GPUs (D) than ranks. */
#ifndef ZGPU_MPI_H
#define ZGPU_MPI_H

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>

#include "zgpu/zgpu_modular.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an input lies, or where a result goes. */
enum { ZGPU_MPI_ON_ROOT = 0, ZGPU_MPI_ON_ALL = 1 };

/* det = det(a), as fmpz_mat_det (a square; 0 x 0 gives 1). input ZGPU_MPI_ON_ROOT: a is read on
   the root only (the other ranks may pass NULL) and broadcast as packed limbs; ZGPU_MPI_ON_ALL:
   every rank passes the same a, and nothing is broadcast. result ZGPU_MPI_ON_ROOT: det is set on
   the root only; ZGPU_MPI_ON_ALL: on every rank. */
int zgpu_mpi_fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, int input, int result, int root, MPI_Comm comm);

/* res = Res(a, b), as fmpz_poly_resultant (0 where a or b is zero), with input, result and root
   as for zgpu_mpi_fmpz_mat_det: a and b are read on the root, or on every rank. res may be a
   coefficient of a or b. */
int zgpu_mpi_fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b, int input, int result, int root,
                                 MPI_Comm comm);

/* res = a b, as fmpz_poly_mul, and c = a b, as fmpz_mat_mul (c of a's rows and b's columns, else
   an error), with input, result and root as for zgpu_mpi_fmpz_mat_det; res or c may be a or b.
   Each rank's share of the primes of the product's bound goes through the plugin's own GPU
   product, and the ranks' vectors of values merge along the tree: the whole result crosses
   between ranks about log2(ranks) times and is merged on the host. One process's product is
   faster wherever one GPU holds it (bench/NOTES-mpi.md has the times); these serve products
   that are too large or too slow for one. */
int zgpu_mpi_fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, int input, int result, int root,
                           MPI_Comm comm);
int zgpu_mpi_fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b, int input, int result, int root, MPI_Comm comm);

/* *nonsingular = fmpz_mat_solve(x, den, a, b): a x = den b, with zgpu_fmpz_mat_solve's answers
   (a n x n, b and x n x m; x may be a or b; nonsingular, x and den are set where the result
   goes). For more than 15 rows, det(a) over the ranks first (as zgpu_mpi_fmpz_mat_det), then
   Cramer's numerators adj(a) b modulo primes that do not divide it, split over the ranks and
   merged along the tree: den > 0 the lcm of the solution's denominators, as FLINT returns it.
   A singular a gives 0 and den = 0, x untouched (also where FLINT answers). Up to 15 rows,
   FLINT's function on the root. */
int zgpu_mpi_fmpz_mat_solve(int * nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b, int input,
                            int result, int root, MPI_Comm comm);

/* *invertible = fmpz_mat_inv(b, den, a): b / den = a^-1, with zgpu_fmpz_mat_inv's answers (a
   square, b of its shape; b may be a), the same way as zgpu_mpi_fmpz_mat_solve with the
   adjugate's numerators: den > 0 the lcm of a^-1's denominators for more than 15 rows; a singular
   a gives 0 and den = 0, b untouched; up to 15 rows, FLINT's function on the root. */
int zgpu_mpi_fmpz_mat_inv(int * invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a, int input, int result, int root,
                          MPI_Comm comm);

/* vec[e] = the value with residues residues[i][e] modulo the i-th modulus of `set`, on every rank
   at once: each rank passes its own set (those of different ranks pairwise coprime; a rank may
   pass an empty one) and its own residues, and the value is that modulo the product P of every
   rank's moduli, in [0, P) or, with sign, in FLINT's symmetric range (as
   zgpu_fmpz_vec_multi_CRT_ui). len is the same on every rank; vec is set on the root, or on every
   rank where result is ZGPU_MPI_ON_ALL. Each rank reconstructs its own part (on its backend),
   and the parts merge along the tree. Sets that are not coprime are an error on every rank. */
int zgpu_mpi_fmpz_vec_multi_CRT_ui(fmpz * vec, const ulong * const * residues, slong len, const zgpu_prime_set_t set,
                                   int sign, int result, int root, MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif
