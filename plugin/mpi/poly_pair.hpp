// Two polynomials over Z as every rank of a split call needs them (resultants, products).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <mpi.h>

#include <flint/fmpz_poly.h>

#include "plugin/poly/product_over_z.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::mpi {

// Their lengths (0 for a zero polynomial), their largest coefficients' bits, the call's bound on
// its values in bits (0 where a or b is zero), and their coefficients packed.
struct PolyPair {
    std::uint64_t a_length = 0, b_length = 0, a_bits = 0, b_bits = 0, bound = 0;
    LimbBatch a, b;

    // The call's bound from the pair's lengths and bits, or from a and b themselves.
    using BoundOf = std::function<std::uint64_t(const PolyPair& pair, const fmpz_poly_struct* a, const fmpz_poly_struct* b)>;

    // a and b on the rank that holds them, checked (NULL is an error of `function`) and packed;
    // bound_of gives the bound where both are nonzero.
    static PolyPair read(const std::string& function, const fmpz_poly_struct* a, const fmpz_poly_struct* b, const BoundOf& bound_of);
    // The root's on every rank.
    void broadcast(int root, MPI_Comm comm);
    // As the plugin's products read them.
    poly::ZPoly a_operand() const;
    poly::ZPoly b_operand() const;
};

}  // namespace zgpu::mpi
