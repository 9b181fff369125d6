// fmpz values and packed batches between MPI ranks: sizes and limbs as zgpu's batches hold them
// (adapters/), in messages of at most 2^30 words.
#pragma once

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// A batch from this rank to `to`, and back at `from`: its shape, sizes and limbs.
void send_batch(const LimbBatch& batch, int to, MPI_Comm comm);
LimbBatch receive_batch(int from, MPI_Comm comm);
// The root's batch on every rank. `batch` is read on the root, set elsewhere.
void broadcast_batch(LimbBatch& batch, int root, MPI_Comm comm);

// The same for one fmpz.
void send_fmpz(const fmpz_t x, int to, MPI_Comm comm);
void receive_fmpz(fmpz_t x, int from, MPI_Comm comm);
void broadcast_fmpz(fmpz_t x, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
