// What the MPI checks share: this process's rank, the count of failed checks, and the end of a
// check program, whose exit status is 1 on every rank where a check failed on any.
#pragma once

#include <cstdio>
#include <string>

#include <mpi.h>

#include "zgpu/zgpu.h"

namespace mpi_check {

inline int rank = 0, ranks = 1, failures = 0;

inline void start(int* argc, char*** argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
}

inline void expect(bool ok, const std::string& what)
{
    if (ok) return;
    ++failures;
    std::fprintf(stderr, "rank %d of %d: %s\n", rank, ranks, what.c_str());
}

// A C call that must have failed (status -1) with a message containing `part`.
inline void expect_failure(int status, const std::string& what, const std::string& part)
{
    const std::string message = zgpu_last_error();
    expect(status == -1, what + ": did not fail");
    expect(message.find(part) != std::string::npos, what + ": the message '" + message + "' lacks '" + part + "'");
}

// Every rank's failures summed; MPI ended; the exit status.
inline int finish()
{
    int all_failures = 0;
    MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%d ranks: %s\n", ranks, all_failures == 0 ? "every check passed" : "checks failed");
    MPI_Finalize();
    return all_failures == 0 ? 0 : 1;
}

}  // namespace mpi_check
