// The pieces of inverses modulo a prime by block recursion (plugin/gpu/matrix/block_inverse.hpp):
// the inverse of each small matrix of a batch in one thread block, and batched copies and
// zeroing of matrix blocks. Contract: device memory; only enqueue work on `stream`; launch
// errors are thrown as zgpu::Error.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// The largest matrix invert_small_mod takes: [a | I] in a block's shared memory (16 KiB).
constexpr std::size_t kSmallInverse = 32;

// In place: each square matrix b of `a` (at most kSmallInverse rows, entries below
// moduli[b].n, a prime) becomes its inverse mod moduli[b] by Gauss-Jordan elimination without
// division, and det[b] is multiplied by its determinant mod moduli[b]. Where the matrix is
// singular det[b] becomes 0 and the matrix is left undefined.
void invert_small_mod(MatricesView a, const Modulus* moduli, limb_t* det, cudaStream_t stream);

// c = a, matrix by matrix (a.count == c.count, the same shape, no overlap).
void copy_matrices(ConstMatricesView a, MatricesView c, cudaStream_t stream);

// c = 0, matrix by matrix.
void zero_matrices(MatricesView c, cudaStream_t stream);

}  // namespace zgpu::kernels
