// nmod_mat_inv and nmod_mat_solve on the chosen backend: the GPU's inverse by blocks (times b for
// a solution) where the modulus is prime and it pays; FLINT's own functions otherwise, and
// wherever the GPU's recursion meets a singular block (singular matrices among them), so that
// FLINT decides those.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <flint/nmod_mat.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::matrix {

// The frame of an inverse or a solution mod p of an n x n matrix, which FLINT's faces and NTL's
// share: gpu() where the choice picks the GPU (`pays`) and p is prime, host() otherwise. gpu()
// stands aside (returns false, nothing written) where a block is singular; host_after_gpu()
// answers then (the host's function, called so that no plugin sends it to the GPU again).
// Progress lines name `what`.
void inverse_or_solution(std::size_t n, limb_t p, bool pays, const std::string& what, const std::function<bool()>& gpu,
                         const std::function<void()>& host, const std::function<void()>& host_after_gpu);

// As FLINT's nmod_mat_inv(b, a): a square and b of its shape and modulus (checked by the
// caller), b may be a. Returns 1 with b = a^-1, or FLINT's answer.
int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a);

// As FLINT's nmod_mat_solve(x, a, b): a square, b of a's rows, x of b's shape, one modulus
// (checked by the caller); x may be a or b. Returns 1 with x = a^-1 b, or FLINT's answer.
int nmod_mat_solution(nmod_mat_struct* x, const nmod_mat_struct* a, const nmod_mat_struct* b);

}  // namespace zgpu::matrix
