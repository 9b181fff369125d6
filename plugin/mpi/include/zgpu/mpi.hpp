// The MPI layer's C++ face (zgpu_mpi.h says how the work is split): errors as zgpu::Error, on
// every rank alike.
#pragma once

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>

#include "zgpu/prime_set.hpp"

namespace zgpu::mpi {

// Where an input lies, or where a result goes.
enum class Where { root, all };

// det = det(a), as zgpu_mpi_fmpz_mat_det.
void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm);

// res = Res(a, b), as zgpu_mpi_fmpz_poly_resultant.
void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b, Where input, Where result, int root,
                         MPI_Comm comm);

// res = a b, as zgpu_mpi_fmpz_poly_mul.
void fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, Where input, Where result, int root, MPI_Comm comm);

// c = a b, as zgpu_mpi_fmpz_mat_mul.
void fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b, Where input, Where result, int root, MPI_Comm comm);

// *nonsingular = fmpz_mat_solve(x, den, a, b), as zgpu_mpi_fmpz_mat_solve.
void fmpz_mat_solve(int* nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b, Where input, Where result,
                    int root, MPI_Comm comm);

// *invertible = fmpz_mat_inv(b, den, a), as zgpu_mpi_fmpz_mat_inv.
void fmpz_mat_inv(int* invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm);

// vec = the CRT of every rank's residues modulo its own set, as zgpu_mpi_fmpz_vec_multi_CRT_ui.
void fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set, bool sign, Where result,
                           int root, MPI_Comm comm);

}  // namespace zgpu::mpi
