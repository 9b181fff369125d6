// One integer found by many primes: the frame of the modular algorithms over Z that give one
// value (determinants, resultants). The value's bound gives the primes (product_primes); the GPU
// computes the value modulo each, and one CRT on the host gives it back; or FLINT's own function
// computes it on the host threads. Progress lines count the primes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <flint/fmpz.h>

#include "zgpu/backend.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

// What the frame needs to know of a call.
struct ValueByPrimes {
    std::string call;           // for progress lines: "fmpz_mat_det, 300 x 300"
    const char* value;          // for a failing GPU's warning: "a determinant"
    std::uint64_t bound_bits;   // |value| < 2^bound_bits
    double flint_seconds;       // FLINT's time on one thread by the cost model
    bool packable;              // no operand holds an element too large for a batch
};

// The value modulo each prime of the set, on the GPU; primes_done, where not empty, is told of
// the primes finished as they are.
using ResiduesOnGpu =
    std::function<std::vector<limb_t>(const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done)>;

// value = the call's value on `backend`: on the host (on_cpu, on all host threads) where the
// backend is the CPU, an operand is not packable or the bound passes PrimeSet::kMaxBits; else
// modulo the primes of product_primes(bound_bits) and one CRT. A GPU that fails leaves it to the
// host with a warning, unless ZGPU_BACKEND=gpu forced it: then the error stands, value untouched.
// Returns the backend that ran.
Backend value_by_primes(Backend backend, fmpz_t value, const ValueByPrimes& call, const ResiduesOnGpu& residues,
                        const std::function<void()>& on_cpu);

}  // namespace zgpu
