// NTT-friendly primes for multi-modular methods: p < 2^62 with p = 1 mod 2^32 (transforms of
// every power-of-two length up to 2^32; 4p < 2^64 leaves room for lazy butterflies), taken
// downward from 2^62. Pure host C++.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The k largest primes p = c 2^32 + 1 below 2^62, in decreasing order. There are millions of
// them; zgpu::Error if k exceeds their number. The list is kept: a later call copies it.
std::vector<limb_t> ntt_primes(std::size_t k);

// Where p stands in that list, if a call has already returned it.
std::optional<std::size_t> ntt_prime_index(limb_t p);

// Whether n is prime: Miller–Rabin with the first twelve primes as bases, deterministic for
// every n < 3.3 10^24, so for every word.
bool is_prime_word(limb_t n);

}  // namespace zgpu::kernels
