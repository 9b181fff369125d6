// The ranks' partial reconstructions merged into one: the second half of every modular
// computation the MPI layer splits by primes (determinants now; resultants, products and the
// vector CRT to come).
#pragma once

#include <mpi.h>

#include <flint/fmpz.h>

namespace zgpu::mpi {

// On entry each rank holds value mod modulus, 0 <= value < modulus, the ranks' moduli pairwise
// coprime (1 on a rank without primes). On return the root holds the value modulo the product of
// all moduli, and that product; the other ranks' value and modulus are spent. Merged pairwise
// along a binary tree over the ranks counted from the root: ceil(log2(size)) rounds, each rank
// sending once, so that no rank ever holds more than two partial values. Collective.
void crt_tree(fmpz_t value, fmpz_t modulus, int root, MPI_Comm comm);

}  // namespace zgpu::mpi
