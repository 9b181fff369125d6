// Matrix products modulo word-size moduli on the GPU, a batch at a time: the same shapes
// modulo each modulus of a set (one product a prime of a multi-modular algorithm), or one.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// c_b = a_b b_b mod moduli[b] for each b < c.count, entries in [0, n_b). The entries of a and
// b may be any words (the sums are exact before the one reduction an entry).
// Contract: a, b, c and moduli (c.count of them) in device memory; a.count == b.count ==
// c.count; a.cols == b.rows < 2^31; c.rows == a.rows, c.cols == b.cols; c overlaps neither a
// nor b. Only enqueues work on `stream`; launch errors are thrown as zgpu::Error.
void mat_mul_mod(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, cudaStream_t stream);

// c_b = c_b - a_b b_b mod moduli[b], as FLINT's nmod_mat_submul with c in place: c's entries in
// [0, n_b) before and after. The same contract, but c may lie inside the matrix that a or b are
// views of (an LU's trailing block), sharing no entry with either.
void mat_submul_mod(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, cudaStream_t stream);

// Multiply-adds (one 64 x 64 -> 128-bit product summed exactly) that a call does: the padded
// tiles' inner products, for the benchmarks' share of the IMAD peak.
double mat_mul_mod_terms(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count);

}  // namespace zgpu::kernels
