// Resultants modulo a batch of primes on the GPU, a warp or a block a prime: the same two
// polynomials modulo each prime of a set (resultant_sequence.hpp has one prime's sequence).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/poly/resultant_sequence.hpp"

namespace zgpu::kernels {

// res[k] = Res_{da,db}(a_k, b_k) mod moduli[k] for each of `count` primes: a and b prime-major
// (coefficient i of prime k at k (da + 1) + i, and k (db + 1) + i), overwritten. Each prime's
// group of lanes keeps both polynomials in shared memory where da + db + 2 words fit
// (resultant_mod_fits_on_chip), and works on them in device memory otherwise. A group is a warp
// (lanes_per_prime 32), or a block of 256 threads (256); 0 picks blocks for fewer primes than
// the device has SMs, warps otherwise. Where `finished` is not null, *finished is raised by one
// as each prime is done (device memory, or pinned host memory that the host reads for
// progress). Contract: every modulus a prime; all in device memory. Only enqueues work on
// `stream`; launch errors are thrown as zgpu::Error.
void resultant_mod(limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli, std::size_t count,
                   limb_t* res, cudaStream_t stream, unsigned long long* finished = nullptr, unsigned lanes_per_prime = 0);

// Whether a prime's two polynomials of formal degrees da and db fit a block's shared memory on
// the current device.
bool resultant_mod_fits_on_chip(std::size_t da, std::size_t db);

}  // namespace zgpu::kernels
