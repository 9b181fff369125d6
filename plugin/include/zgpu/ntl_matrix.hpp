// NTL-style products and determinants of mat_ZZ, and of mat_zz_p modulo the current zz_p
// modulus: the semantics of NTL's mul and determinant (x may be a or b; a 0 x 0 matrix's
// determinant is 1). On the GPU the products and determinants of zgpu_matrix.h, exact on every
// input; on the CPU NTL's own functions (mat_ZZ's determinant with deterministic = 1: its
// default strategy is randomised). A mat_zz_p determinant modulo a composite stays with NTL,
// whose elimination needs inverses as the GPU's does. Shapes that do not multiply and
// non-square matrices throw zgpu::Error with nothing written.
#pragma once

#include <NTL/mat_ZZ.h>
#include <NTL/mat_lzz_p.h>

#include "zgpu/error.hpp"

namespace zgpu {

void mul(NTL::mat_ZZ& x, const NTL::mat_ZZ& a, const NTL::mat_ZZ& b);
void determinant(NTL::ZZ& d, const NTL::mat_ZZ& a);
void mul(NTL::mat_zz_p& x, const NTL::mat_zz_p& a, const NTL::mat_zz_p& b);
void determinant(NTL::zz_p& d, const NTL::mat_zz_p& a);

}  // namespace zgpu
