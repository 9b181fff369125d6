// nmod_mat_inv and nmod_mat_solve on the chosen backend: the GPU's inverse by blocks (times b for
// a solution) where the modulus is prime and it pays; FLINT's own functions otherwise, and
// wherever the GPU's recursion meets a singular block (singular matrices among them), so that
// FLINT decides those.
#pragma once

#include <flint/nmod_mat.h>

namespace zgpu::matrix {

// As FLINT's nmod_mat_inv(b, a): a square and b of its shape and modulus (checked by the
// caller), b may be a. Returns 1 with b = a^-1, or FLINT's answer.
int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a);

// As FLINT's nmod_mat_solve(x, a, b): a square, b of a's rows, x of b's shape, one modulus
// (checked by the caller); x may be a or b. Returns 1 with x = a^-1 b, or FLINT's answer.
int nmod_mat_solution(nmod_mat_struct* x, const nmod_mat_struct* a, const nmod_mat_struct* b);

}  // namespace zgpu::matrix
