// Pieces of a rank's part of a vector (values_over_ranks.hpp) that the products and the solver
// share: its primes in groups whose CRT values a batch holds, the GPU's values taken into range,
// and the host's way.
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

// The most primes of a group: the CRT of a group's residues gives values of at most kMaxLimbs
// limbs (each prime below 2^64), as batches hold them.
inline constexpr std::size_t kMaxGroupPrimes = kMaxLimbs - 1;

// values[0 .. count) = the part modulo the product of mine's primes, in [0, that product), from
// consecutive groups of at most `most` of them: group_values(group, out) sets out[0 .. count) to
// the part modulo the group's product, in [0, it), or returns false where its way does not serve
// (then so does this, values unspecified); the groups merged as the ranks' are. done, where not
// empty, is told of each group's primes.
bool in_prime_groups(fmpz* values, std::size_t count, const PrimeSet& mine, std::size_t most,
                     const std::function<bool(const PrimeSet& group, fmpz* out)>& group_values, const PrimesDone& done);

// The same on the GPU: run(group, result) hands on values congruent to the part's modulo the
// group's product, as the plugin's GPU paths do, or returns false where it does not serve.
bool part_on_gpu(fmpz* values, std::size_t count, const PrimeSet& mine,
                 const std::function<bool(const PrimeSet& group, const HostResult& result)>& run, const PrimesDone& done);

// The part's values modulo the residues of x (a's) and y (b's) modulo a group of primes.
using ResiduesOfPart = std::function<ResidueBatch(const ResidueBatch& x, const ResidueBatch& y)>;

// The same on the host threads: a and b reduced modulo a group at a time (whose residues of a,
// b and the part take at most 256 MiB, and at most `most` primes), compute() on them, one CRT a
// group.
void part_on_host(fmpz* values, std::size_t count, const PrimeSet& mine, const LimbBatch& a, const LimbBatch& b,
                  const ResiduesOfPart& compute, const PrimesDone& done, std::size_t most = kMaxGroupPrimes);

}  // namespace zgpu::mpi
