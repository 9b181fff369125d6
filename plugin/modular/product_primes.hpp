// The prime sets of products over Z: PrimeSet::for_bits(bits, true) for coefficients below
// 2^bits in absolute value; and ranges of the generated primes. The last few sets are kept, each
// with the range of bits or primes it is the answer for, so that repeated calls build FLINT's
// comb and the device tables once.
#pragma once

#include <cstdint>

#include "zgpu/prime_set.hpp"

namespace zgpu {

// PrimeSet::for_bits(bits, true), from the kept sets where one serves these bits. Thread-safe.
PrimeSet product_primes(std::uint64_t bits);

// PrimeSet::generated_range(first, count), from the last 16 kept (an MPI rank's share of a
// bound's primes, and the groups a determinant takes them in, asked for again by the next call
// of the same size). Thread-safe.
PrimeSet kept_primes_range(std::size_t first, std::size_t count);

}  // namespace zgpu
