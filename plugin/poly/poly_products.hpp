// Products of nmod polynomials on the chosen backend: the front ends' entry points (single and
// batched) all end here, their arguments checked.
#pragma once

#include <functional>
#include <span>

#include <flint/nmod_poly.h>

#include "plugin/host_ops/host_ops.hpp"

namespace zgpu::poly {

// res = a * b mod x^trunc (trunc < 0: the full product), as FLINT's nmod_poly_mul or
// nmod_poly_mullow; a == b squares.
struct PolyProduct {
    nmod_poly_struct* res;
    const nmod_poly_struct* a;
    const nmod_poly_struct* b;
    slong trunc;
};

// The integer products of the GPU path, with mul_host's contract (host_ops.hpp); tests give
// the CPU's, so that the KS path runs without a GPU.
using IntegerProducts = std::function<void(const HostOperand& a, std::size_t count, const HostOperand& b,
                                           std::size_t b_count, const HostRange& on_cpu, const HostResult& on_gpu_result)>;

// Computes every product, then writes every res: all operands are read before any res
// changes, so a res may be any of the operands (results go to temporaries, swapped in at the
// end). Moduli agree within each product (the caller checked). On the GPU, the products that
// fit a batch (poly_choice.hpp) are one call of integer products by Kronecker substitution;
// the others, and all of them on the CPU, are FLINT's nmod_poly_mul / nmod_poly_mullow.
void nmod_poly_products(std::span<const PolyProduct> products, const IntegerProducts& multiply = mul_host);

}  // namespace zgpu::poly
