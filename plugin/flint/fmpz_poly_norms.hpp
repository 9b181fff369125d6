// Norms of FLINT polynomials that bound their resultants, shared by the FLINT face and the MPI
// layer.
#pragma once

#include <cstdint>

#include <flint/fmpz_poly.h>

#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/poly/resultant.hpp"

namespace zgpu {

// The bits of ||a||^2 (the sum of the squared coefficients, exact).
inline std::uint64_t squared_norm_bits(const fmpz_poly_struct* a)
{
    FmpzTemp norm;
    for (slong i = 0; i < a->length; ++i) fmpz_addmul(norm.get(), a->coeffs + i, a->coeffs + i);
    return fmpz_bits(norm.get());
}

// Hadamard's bound on |Res(a, b)| in bits (poly::resultant_bits), a and b nonzero.
inline std::uint64_t resultant_bound_bits(const fmpz_poly_struct* a, const fmpz_poly_struct* b)
{
    return poly::resultant_bits(std::size_t(a->length), squared_norm_bits(a), std::size_t(b->length), squared_norm_bits(b));
}

}  // namespace zgpu
