// The MPI layer's C++ face (zgpu_mpi.h says how the work is split): errors as zgpu::Error, on
// every rank alike.
#pragma once

#include <mpi.h>

#include <flint/fmpz_mat.h>

namespace zgpu::mpi {

// Where an input lies, or where a result goes.
enum class Where { root, all };

// det = det(a), as zgpu_mpi_fmpz_mat_det.
void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
