// Pieces of a rank's part of a vector (values_over_ranks.hpp) that the products and the solver
// share: the GPU's values taken into range, and the host's way, a group of primes at a time.
#pragma once

#include <cstddef>
#include <functional>

#include <flint/fmpz.h>

#include "adapters/host_operand.hpp"
#include "plugin/modular/prime_groups.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu::mpi {

// Takes values congruent to the part's modulo `modulus`, as the plugin's GPU paths hand them on
// (values from `first` on), into values[first ..) in [0, modulus).
HostResult into_range(fmpz* values, const fmpz* modulus);

// The part's values modulo the residues of x (a's) and y (b's) modulo a group of primes.
using ResiduesOfPart = std::function<ResidueBatch(const ResidueBatch& x, const ResidueBatch& y)>;

// values[0 .. count) = the part modulo the product of mine's primes, in [0, that product), on
// the host threads: a and b reduced modulo a group of primes at a time (whose residues of a, b
// and the part take at most 256 MiB), compute() on them, one CRT a group, and the groups merged
// as the ranks' are.
void part_on_host(fmpz* values, std::size_t count, const PrimeSet& mine, const LimbBatch& a, const LimbBatch& b,
                  const ResiduesOfPart& compute, const PrimesDone& done);

}  // namespace zgpu::mpi
