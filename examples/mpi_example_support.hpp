// What the MPI examples share: a value split over the ranks of MPI_COMM_WORLD, timed and checked
// on the root (rank 0) against one process's zgpu call, and one exit status on every rank.
#pragma once

#include <cstdio>
#include <functional>

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/zgpu.h"

namespace example {

// Runs `split` on every rank (a zgpu_mpi_* call, the result on the root), then `one` on the root
// alone; the root prints `what`, both times and whether the values agree. Returns 0 on every rank
// where the split call succeeded and agreed, else 1.
inline int compare_split(const char* what, const std::function<int(fmpz_t)>& split, const std::function<int(fmpz_t)>& one)
{
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    fmpz_t split_value, one_value;
    fmpz_init(split_value);
    fmpz_init(one_value);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    int status = split(split_value);
    const double split_ms = 1e3 * (MPI_Wtime() - start);
    if (status != 0) {
        std::fprintf(stderr, "rank %d: %s\n", rank, zgpu_last_error());
    } else if (rank == 0) {
        const double one_start = MPI_Wtime();
        status = one(one_value);
        const double one_ms = 1e3 * (MPI_Wtime() - one_start);
        const bool same = status == 0 && fmpz_equal(split_value, one_value);
        std::printf("%s: over %d rank%s %.1f ms, in one process %.1f ms (%s): %s, a value of %lu bits\n", what, ranks,
                    ranks == 1 ? "" : "s", split_ms, one_ms, zgpu_last_backend(), same ? "the same" : "DIFFERENT",
                    static_cast<unsigned long>(fmpz_bits(split_value)));
        if (!same) status = 1;
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    fmpz_clear(split_value);
    fmpz_clear(one_value);
    return status == 0 ? 0 : 1;
}

}  // namespace example
