// nmod_mat_inv on the chosen backend: the GPU's inverse by blocks where the modulus is prime and
// it pays; FLINT's own function otherwise, and wherever the GPU's recursion meets a singular
// block (singular matrices among them), so that FLINT decides those.
#pragma once

#include <flint/nmod_mat.h>

namespace zgpu::matrix {

// As FLINT's nmod_mat_inv(b, a): a square and b of its shape and modulus (checked by the
// caller), b may be a. Returns 1 with b = a^-1, or FLINT's answer.
int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a);

}  // namespace zgpu::matrix
