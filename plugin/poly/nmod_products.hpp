// Products of nmod polynomials on the chosen backend: the front ends' entry points (FLINT's
// single and batched, NTL's zz_pX) all end here, their arguments checked.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include <flint/nmod_poly.h>

#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::poly {

// res = a * b mod x^trunc (trunc < 0: the full product), as FLINT's nmod_poly_mul or
// nmod_poly_mullow; a == b squares.
struct PolyProduct {
    nmod_poly_struct* res;
    const nmod_poly_struct* a;
    const nmod_poly_struct* b;
    slong trunc;
};

// What the products ask of the GPU backend: poly_backend.hpp's functions, or a test's
// stand-ins (so that the GPU path runs where there is no GPU).
struct NmodGpu {
    std::function<std::uint64_t(const gpu::NmodProduct&)> transform_length = gpu::nmod_transform_length;
    std::function<void(std::span<const gpu::NmodProduct>)> multiply = gpu::nmod_products;
    std::uint64_t max_transform = gpu::kMaxPolyTransform;  // a power of two
};

// Computes every product, then writes every res: all operands are read before any res
// changes, so a res may be any of the operands (such results go to temporaries, swapped in at
// the end; the others are written in place, reusing their memory). Where the GPU fails with
// results written in place, the CPU backend computes every product (a warning goes to stderr);
// otherwise its error stands and nothing is written. Moduli agree within each product (the
// caller checked). On the GPU, the nonzero products whose transform is at most
// gpu::kMaxPolyTransform long are one call of gpu::nmod_products; each longer one is cut into
// pieces that are (product_pieces.hpp), multiplied in calls of a few pieces and added up. On the
// CPU they are FLINT's nmod_poly_mul / nmod_poly_mullow (one product on FLINT's threads, several
// split over the host threads).
// on_cpu, if given, is the CPU backend instead, and writes the results itself (NTL's own
// products); every res is then left as it was. Returns the backend that ran.
Backend nmod_poly_products(std::span<const PolyProduct> products, const std::function<void()>& on_cpu = {});

// The same on the backend given, with `gpu` as the GPU side.
Backend nmod_poly_products_on(Backend backend, std::span<const PolyProduct> products, const NmodGpu& gpu,
                              const std::function<void()>& on_cpu = {});

}  // namespace zgpu::poly
