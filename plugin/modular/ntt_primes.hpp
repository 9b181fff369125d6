// The primes zgpu generates for a prime set: NTT-friendly, p = c * 2^32 + 1 < 2^62 (2^32
// divides p - 1; 4p < 2^64 leaves room for lazy butterflies), taken downward from 2^62, so that
// the first k of them are the same for every k.
#pragma once

#include <cstddef>
#include <vector>

#include "zgpu/limb_batch.hpp"

namespace zgpu {

// The k largest such primes, in decreasing order (those found are kept; thread-safe).
std::vector<limb_t> ntt_primes(std::size_t k);

}  // namespace zgpu
