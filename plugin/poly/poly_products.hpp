// Products of nmod polynomials on the chosen backend: the front ends' entry points (single and
// batched) all end here, their arguments checked.
#pragma once

#include <span>

#include <flint/nmod_poly.h>

namespace zgpu::poly {

// res = a * b mod x^trunc (trunc < 0: the full product), as FLINT's nmod_poly_mul or
// nmod_poly_mullow; a == b squares.
struct PolyProduct {
    nmod_poly_struct* res;
    const nmod_poly_struct* a;
    const nmod_poly_struct* b;
    slong trunc;
};

// Computes every product, then writes every res: all operands are read before any res
// changes, so a res may be any of the operands (results go to temporaries, swapped in at the
// end). Moduli agree within each product (the caller checked). On the GPU, the products that
// fit a batch (poly_choice.hpp) are one call of integer products by Kronecker substitution;
// the others, and all of them on the CPU, are FLINT's nmod_poly_mul / nmod_poly_mullow.
void nmod_poly_products(std::span<const PolyProduct> products);

}  // namespace zgpu::poly
