// Resultants modulo a prime with formal degrees, on the host (the MPI layer's ranks without a
// GPU). A prime may divide a leading coefficient: the resultant over Z, reduced, is then the
// Sylvester determinant of the formal degrees, not FLINT's nmod_poly_resultant of the reduced
// polynomials.
#pragma once

#include <cstddef>

#include <flint/flint.h>

namespace zgpu::poly {

// Res(a, b) mod p with the formal degrees a_length - 1 and b_length - 1 (both at least 1
// coefficient; coefficients below p, p prime): the determinant of the Sylvester matrix of those
// degrees modulo p.
ulong formal_resultant(const ulong* a, std::size_t a_length, const ulong* b, std::size_t b_length, ulong p);

}  // namespace zgpu::poly
