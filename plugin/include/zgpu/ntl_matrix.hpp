// NTL-style products and determinants of mat_ZZ: the semantics of NTL's mul and determinant (x
// may be a or b; a 0 x 0 matrix's determinant is 1). On the GPU the products over Z and the
// determinants of zgpu_matrix.h, exact on every input; on the CPU NTL's own functions (its
// determinant with deterministic = 1: its default strategy is randomised). Shapes that do not multiply
// and non-square matrices throw zgpu::Error with nothing written.
#pragma once

#include <NTL/mat_ZZ.h>

#include "zgpu/error.hpp"

namespace zgpu {

void mul(NTL::mat_ZZ& x, const NTL::mat_ZZ& a, const NTL::mat_ZZ& b);
void determinant(NTL::ZZ& d, const NTL::mat_ZZ& a);

}  // namespace zgpu
