// The ranks' partial reconstructions merged into one: the second half of every modular
// computation the MPI layer splits by primes (values: determinants, resultants; vectors:
// products over Z and the vector CRT).
#pragma once

#include <cstddef>

#include <mpi.h>

#include <flint/fmpz.h>

namespace zgpu::mpi {

// On entry each rank holds `count` values (the same count on every rank) modulo `modulus`, each
// 0 <= value < modulus (modulus 1 on a rank without primes). On return the root holds the
// values modulo the product of all moduli, and that product; the other ranks' values and
// modulus are spent. Merged pairwise along a binary tree over the ranks counted from the root:
// ceil(log2(size)) rounds, each rank sending once, so that no rank ever holds more than two
// partial vectors. Two moduli that are not coprime make every rank throw zgpu::Error after the
// tree. A rank waits for the others' merges as long as answer_limit(expected_seconds) allows.
// Collective.
void crt_tree(fmpz* values, std::size_t count, fmpz_t modulus, int root, MPI_Comm comm, double expected_seconds = 0);

// One merge of the tree, on this rank's host threads: values[0 .. count) modulo `modulus` and
// other[0 .. count) modulo other_modulus (each in [0, its modulus); other is spent) into values
// modulo their product, in [0, product), and modulus = the product. False, with nothing
// changed, where the moduli are not coprime.
bool merge_values(fmpz* values, std::size_t count, fmpz_t modulus, fmpz* other, const fmpz_t other_modulus);

// From [0, P) to FLINT's symmetric range (-P/2, P/2], on this rank's host threads.
void to_symmetric_range(fmpz* values, std::size_t count, const fmpz_t product);

}  // namespace zgpu::mpi
