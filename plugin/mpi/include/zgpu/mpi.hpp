// The MPI layer's C++ face (zgpu_mpi.h says how the work is split): errors as zgpu::Error, on
// every rank alike.
#pragma once

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>

namespace zgpu::mpi {

// Where an input lies, or where a result goes.
enum class Where { root, all };

// det = det(a), as zgpu_mpi_fmpz_mat_det.
void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm);

// res = Res(a, b), as zgpu_mpi_fmpz_poly_resultant.
void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b, Where input, Where result, int root,
                         MPI_Comm comm);

}  // namespace zgpu::mpi
