// fmpz values and packed batches between MPI ranks, in messages of at most 2^30 words. Values
// travel as their sizes and limbs one after another, whatever their size (batches hold at most
// kMaxLimbs limbs a value, and a value the ranks merge may grow beyond); inputs travel as the
// batches the ranks compute from.
#pragma once

#include <cstddef>

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// values[0 .. count) from this rank to `to`, and back at `from` (count the same on both); the
// other side may take expected_seconds of work first (send's and receive's).
void send_values(const fmpz* values, std::size_t count, int to, MPI_Comm comm, double expected_seconds = 0);
void receive_values(fmpz* values, std::size_t count, int from, MPI_Comm comm, double expected_seconds = 0);
// The root's values[0 .. count) set on every rank.
void broadcast_values(fmpz* values, std::size_t count, int root, MPI_Comm comm);

// The same for one fmpz.
inline void send_fmpz(const fmpz_t x, int to, MPI_Comm comm, double expected_seconds = 0)
{
    send_values(x, 1, to, comm, expected_seconds);
}
inline void receive_fmpz(fmpz_t x, int from, MPI_Comm comm, double expected_seconds = 0)
{
    receive_values(x, 1, from, comm, expected_seconds);
}
inline void broadcast_fmpz(fmpz_t x, int root, MPI_Comm comm) { broadcast_values(x, 1, root, comm); }

// The root's batch on every rank. `batch` is read on the root, set elsewhere.
void broadcast_batch(LimbBatch& batch, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
