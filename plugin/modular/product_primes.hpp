// The prime sets of products over Z: PrimeSet::for_bits(bits, true) for coefficients below
// 2^bits in absolute value. The last few sets are kept, each with the range of bits it is the
// answer for, so that repeated products build FLINT's comb and the device tables once.
#pragma once

#include <cstdint>

#include "zgpu/prime_set.hpp"

namespace zgpu {

// PrimeSet::for_bits(bits, true), from the kept sets where one serves these bits. Thread-safe.
PrimeSet product_primes(std::uint64_t bits);

}  // namespace zgpu
