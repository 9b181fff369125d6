// Resultants modulo a batch of primes on the GPU, a thread a prime: the same two polynomials
// modulo each prime of a set (resultant_sequence.hpp has one prime's sequence).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/poly/resultant_sequence.hpp"

namespace zgpu::kernels {

// res[k] = Res_{da,db}(a_k, b_k) mod moduli[k] for each of `count` primes, a thread a prime: a
// and b interleaved (coefficient i of prime k at i * count + k), da + 1 and db + 1 words each,
// overwritten. Contract: every modulus a prime; all in device memory. Only enqueues work on
// `stream`; launch errors are thrown as zgpu::Error.
void resultant_mod(limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli, std::size_t count,
                   limb_t* res, cudaStream_t stream);

}  // namespace zgpu::kernels
