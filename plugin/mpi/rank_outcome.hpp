// One outcome for every rank of an MPI call: a part that fails on one rank ends the call on all,
// with the same message, instead of leaving the others waiting in the next collective.
#pragma once

#include <functional>

#include <mpi.h>

namespace zgpu::mpi {

// Runs `part` on this rank, then learns whether it threw on any rank: if so, every rank throws
// zgpu::Error with the lowest such rank's message, and its number. Collective over comm.
void on_every_rank(MPI_Comm comm, const std::function<void()>& part);

// comm's rank and size, each rank's own.
struct RankOf {
    int rank, size;
};
RankOf rank_of(MPI_Comm comm);

}  // namespace zgpu::mpi
