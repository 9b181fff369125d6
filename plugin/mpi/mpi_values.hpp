// fmpz values and packed batches between MPI ranks: sizes and limbs as zgpu's batches hold them
// (adapters/), in messages of at most 2^30 words.
#pragma once

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// x from this rank to `to`, and back at `from`: its size and limbs, in two messages.
void send_fmpz(const fmpz_t x, int to, MPI_Comm comm);
void receive_fmpz(fmpz_t x, int from, MPI_Comm comm);
// x as the root holds it, set on every rank.
void broadcast_fmpz(fmpz_t x, int root, MPI_Comm comm);

// The root's batch on every rank: count, stride, sizes and limbs. `batch` is read on the root,
// set elsewhere.
void broadcast_batch(LimbBatch& batch, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
