// NTL-style products of polynomials modulo the current zz_p modulus (NTL's zz_p::modulus(), any
// modulus NTL allows): the semantics of NTL's mul and sqr on zz_pX, x may be a or b. On the GPU
// the NTT products of zgpu_poly.h's nmod functions, on the CPU NTL's own.
#pragma once

#include <NTL/lzz_pX.h>

#include "zgpu/error.hpp"

namespace zgpu {

void mul(NTL::zz_pX& x, const NTL::zz_pX& a, const NTL::zz_pX& b);
void sqr(NTL::zz_pX& x, const NTL::zz_pX& a);

}  // namespace zgpu
