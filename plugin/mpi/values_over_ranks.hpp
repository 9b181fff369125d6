// The frame of everything the MPI layer splits by primes: the bound's primes, this rank's share
// of them, its part on its own backend (the values modulo the product of its primes), the CRT
// tree to the root, FLINT's symmetric range there, and the result where the caller asks. One
// value (determinants, resultants) or a vector (products over Z).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz.h>

#include "plugin/modular/prime_groups.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::mpi {

// What the frame needs to know of a call, the same on every rank.
struct SplitCall {
    std::string function;      // for errors: "mpi_fmpz_mat_det"
    std::string call;          // for progress lines: "fmpz_mat_det, 2000 x 2000"
    std::uint64_t bound_bits;  // every |value| < 2^bound_bits, at least 1
    double flint_seconds;      // FLINT's time on one thread by the cost model
    // The primes to split, where not PrimeSet::for_bits(bound_bits, true) (whose product
    // exceeds 2^(bound_bits + 1) too): the same on every rank.
    const PrimeSet* primes = nullptr;
};

// This rank's part of a vector: values[0 .. count) modulo the product of the primes of `mine`
// (this rank's share, not empty), each in [0, product), computed on `where`; primes_done, where
// not empty, is told of the primes finished as they are.
using PartHere = std::function<void(fmpz* values, const PrimeSet& mine, Backend where, const PrimesDone& primes_done)>;

// On the root, values[0 .. count) = the call's values, in FLINT's symmetric range, from every
// rank's part over its share of the call's primes; elsewhere values are
// spent. The shares are weighted by the ranks' times in the function's last call, so that ranks
// that finished early take more (equal before the first; shares.hpp). This rank's GPUs are
// those share_devices gives it. A rank's failure, or ZGPU_MPI_TEST_FAIL_RANK naming it, ends the
// call on every rank alike (on_every_rank); a rank that never ends its part
// (ZGPU_MPI_TEST_HANG_RANK naming it) has the others end the job (wait_for). Progress lines,
// where asked for, come from the root and count its own share. Collective over comm.
void values_over_ranks(fmpz* values, std::size_t count, const SplitCall& call, int root, MPI_Comm comm, const PartHere& part);

// One value's residues modulo each prime of `mine`, computed on `where`.
using ResiduesHere = std::function<std::vector<limb_t>(const PrimeSet& mine, Backend where, const PrimesDone& primes_done)>;

// The same for one value from its residues: one CRT a rank.
void value_over_ranks(fmpz_t value, const SplitCall& call, int root, MPI_Comm comm, const ResiduesHere& residues);

// The first step of every call: returns the communicator the call uses (layer_comm's), after
// throwing, alike on every rank, for a null comm, a root that is no rank of comm, ranks that
// pass different roots, inputs, results or `shape` (which would leave them waiting in different
// collectives), an out (named out_name) that is NULL where the result goes, or a bad
// ZGPU_MPI_TIMEOUT. Collective over comm.
MPI_Comm begin_call(const std::string& function, const void* out, const char* out_name, Where input, Where result, int root,
                    MPI_Comm comm, std::int64_t shape = 0);

// The call's input on every rank: read_here() where it lies (on every rank, or on the root,
// whose errors are then every rank's), then, from the root, Input::broadcast(root, comm).
template <class Input, class Read>
Input input_on_every_rank(Where input, int root, MPI_Comm comm, Read read_here)
{
    Input in;
    on_every_rank(comm, [&] {
        if (input == Where::all || rank_of(comm).rank == root) in = read_here();
    });
    if (input == Where::root) in.broadcast(root, comm);
    return in;
}

// out = value (the root's) on the root, and on every rank where result is Where::all; value is
// spent. Collective over comm.
void deliver(fmpz_t out, fmpz_t value, Where result, int root, MPI_Comm comm);

// The root's values[0 .. count) on every rank where result is Where::all, else nothing.
// Collective over comm.
void deliver_values(fmpz* values, std::size_t count, Where result, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
