// det(a) over the ranks of a communicator, for the determinant's entry point and the solver's:
// Hadamard's bound, or, where the root's GPU finds a divisor of det(a) first, the quotient's
// bound; each rank's share of its primes by the GPU's modular determinants (the plugin's own, as
// many primes at a time as the device holds) or, on a rank without a GPU, zgpu's device-resident
// layer on the host (reduce, mat_det); on the frame of values_over_ranks.hpp.
#pragma once

#include <cstdint>
#include <string>

#include <mpi.h>

#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>

#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// What every rank needs of a square a: its order, Hadamard's bound in bits (0 where a row is
// zero), the bits of its largest entry, and its entries packed, row by row.
struct DetInput {
    std::uint64_t n = 0, bound = 0, entry_bits = 0;
    LimbBatch entries;

    // a on the rank that holds it: checked (NULL, not square: errors of `function`), measured
    // and packed.
    static DetInput read(const std::string& function, const fmpz_mat_struct* a);
    // The root's on every rank.
    void broadcast(int root, MPI_Comm comm);
    matrix::ZMatrix matrix() const;
};

// value = det(a) on the root (spent elsewhere). Collective over comm.
void det_over_ranks(fmpz_t value, const std::string& function, const DetInput& in, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
