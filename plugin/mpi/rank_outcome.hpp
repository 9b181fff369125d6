// One outcome for every rank of an MPI call: a part that fails on one rank ends the call on all,
// with the same message, instead of leaving the others waiting in the next collective; and no
// rank waits forever for one that stopped answering.
#pragma once

#include <functional>

#include <mpi.h>

namespace zgpu::mpi {

// Runs `part` on this rank, then learns whether it threw on any rank: if so, every rank throws
// zgpu::Error with the lowest such rank's message, and its number. Collective over comm. The
// others' answer is awaited for answer_limit of the longer of the part's time and
// `expected_seconds`, the time another rank's part may take by the cost model (the same on every
// rank).
void on_every_rank(MPI_Comm comm, const std::function<void()>& part, double expected_seconds = 0);

// The communicator the layer's calls over comm use: its own duplicate, made at the first call
// over comm (collective then) and freed with comm, so that the layer's messages never match the
// caller's, nor the caller's collectives in flight the layer's. comm itself where it is
// MPI_COMM_NULL.
MPI_Comm layer_comm(MPI_Comm comm);

// comm's rank and size, each rank's own.
struct RankOf {
    int rank, size;
};
RankOf rank_of(MPI_Comm comm);

// How long a rank waits for the others after a part of `part_seconds`: ZGPU_MPI_TIMEOUT seconds
// beyond twice that. Never throws: a bad ZGPU_MPI_TIMEOUT counts as unset here, and begin_call
// reports it (begin_call in values_over_ranks.hpp).
double answer_limit(double part_seconds);

// Waits for `request`, a nonblocking transfer of the call. Where it is not done `limit` seconds
// after the wait began, says so on stderr (this rank, `what`, ZGPU_MPI_TIMEOUT) and ends the job
// (MPI_Abort): a rank that stopped answering leaves the communicator unusable, so no call can end
// cleanly without it.
void wait_for(MPI_Request& request, MPI_Comm comm, const char* what, double limit);

// Blocking MPI calls of the layer, each awaited by wait_for with answer_limit(0), or for a
// transfer that may wait on the other side's work (the CRT tree's merges), with answer_limit of
// that work's expected seconds.
void broadcast(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm, const char* what);
void send(const void* data, int count, MPI_Datatype type, int to, MPI_Comm comm, const char* what, double expected_seconds = 0);
void receive(void* data, int count, MPI_Datatype type, int from, MPI_Comm comm, const char* what, double expected_seconds = 0);

}  // namespace zgpu::mpi
