// A modular computation's residues a group of primes at a time, where the device holds fewer
// primes' work than the set has: determinants of large matrices modulo thousands of primes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "zgpu/prime_set.hpp"

namespace zgpu {

using PrimesDone = std::function<void(std::uint64_t primes)>;
using ResiduesOf = std::function<std::vector<limb_t>(const PrimeSet& group, const PrimesDone& primes_done)>;

// The residues modulo each prime of `set`, in order: residues(set) where the set has at most
// `most` primes, else residues(group) for consecutive groups of at most `most`. Where the set is
// a range of the generated primes (a bound's, or an MPI rank's share of one), the groups are kept
// sets (kept_primes_range), whose tables are built once. primes_done as residues'.
std::vector<limb_t> residues_in_groups(const PrimeSet& set, std::size_t most, const ResiduesOf& residues,
                                       const PrimesDone& primes_done);

}  // namespace zgpu
