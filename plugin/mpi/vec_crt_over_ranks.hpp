// The vector CRT over ranks for both faces: the C one passes its set as it found it, so that a
// NULL or uninitialised set is an error on every rank instead of on one.
#pragma once

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/mpi.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::mpi {

// fmpz_vec_multi_CRT_ui of zgpu/mpi.hpp, set NULL where the caller's is missing.
void vec_crt_over_ranks(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet* set, bool sign, Where result, int root,
                        MPI_Comm comm);

}  // namespace zgpu::mpi
