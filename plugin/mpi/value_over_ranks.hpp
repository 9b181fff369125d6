// The frame of every value the MPI layer splits by primes (determinants, resultants): the
// bound's primes, this rank's share of them, its residues on its own backend, one CRT a rank,
// the CRT tree to the root, FLINT's symmetric range there, and the result where the caller asks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz.h>

#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::mpi {

// The value modulo each prime of `mine` (this rank's share, not empty), computed on `where`;
// primes_done, where not empty, is told of the primes finished as they are.
using ResiduesHere = std::function<std::vector<limb_t>(const PrimeSet& mine, Backend where,
                                                       const std::function<void(std::uint64_t)>& primes_done)>;

// What the frame needs to know of a call, the same on every rank.
struct SplitValue {
    std::string function;      // for errors: "mpi_fmpz_mat_det"
    std::string call;          // for progress lines: "fmpz_mat_det, 2000 x 2000"
    std::uint64_t bound_bits;  // |value| < 2^bound_bits, at least 1
    double flint_seconds;      // FLINT's time on one thread by the cost model
};

// On the root, value = the call's value from the residues of every rank's share of
// PrimeSet::for_bits(bound_bits, signed); elsewhere value is spent. The shares are weighted by
// the ranks' times in the function's last call, so that ranks that finished early take more
// (equal before the first; shares.hpp). This rank's GPUs are those share_devices gives it. A
// rank's failure, or ZGPU_MPI_TEST_FAIL_RANK naming it, ends the call on every rank alike
// (on_every_rank); a rank that never ends its part (ZGPU_MPI_TEST_HANG_RANK naming it) has the
// others end the job (wait_for). Progress lines, where asked for, come from the root and count
// its own share. Collective over comm.
void value_over_ranks(fmpz_t value, const SplitValue& call, int root, MPI_Comm comm, const ResiduesHere& residues);

// Throws, alike on every rank, for a null comm, a root that is no rank of comm, ranks that pass
// different roots, inputs or results (which would leave them waiting in different collectives),
// an out (named out_name) that is NULL where the result goes, or a bad ZGPU_MPI_TIMEOUT.
// Collective over comm.
void check_call(const std::string& function, const void* out, const char* out_name, Where input, Where result, int root,
                MPI_Comm comm);

// out = value (the root's) on the root, and on every rank where result is Where::all; value is
// spent. Collective over comm.
void deliver(fmpz_t out, fmpz_t value, Where result, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
