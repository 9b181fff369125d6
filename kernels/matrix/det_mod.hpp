// Determinants modulo word-size primes on the GPU, a batch at a time: the same matrix modulo
// each prime of a set (one determinant a prime of a multi-modular algorithm).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// det[b] = det(a_b) mod moduli[b] for each b < a.count, by Gaussian elimination in place: a's
// matrices are overwritten. Every modulus must be a prime; entries in [0, n_b). A matrix with no
// pivot in some column gives 0. Where `finished` is not null, *finished is raised by one as each
// matrix is done (device memory, or pinned host memory that the host reads for progress).
// Contract: a square (rows == cols >= 1, below 2^32), a, moduli and det in device memory. Only
// enqueues work on `stream`; launch errors are thrown as zgpu::Error.
void det_mod(MatricesView a, const Modulus* moduli, limb_t* det, cudaStream_t stream, unsigned long long* finished = nullptr);

// Multiply-adds mod p a call does (n^3 / 3 a matrix), for the benchmarks.
double det_mod_steps(std::size_t n, std::size_t count);

}  // namespace zgpu::kernels
