// References for the polynomial kernels' tests: FLINT's products, and random polynomials whose
// first coefficients are the edge values.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include <flint/nmod_poly.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::testing {

using Poly = std::vector<limb_t>;

// FLINT's op(r, x, y) for x = a and y = b modulo m (their words reduced): r's first n
// coefficients (zeros past its length).
template <class Op>
Poly flint_nmod(const Poly& a, const Poly& b, std::size_t n, limb_t m, Op op)
{
    nmod_poly_t x, y, r;
    nmod_poly_init(x, m);
    nmod_poly_init(y, m);
    nmod_poly_init(r, m);
    for (std::size_t i = 0; i < a.size(); ++i) nmod_poly_set_coeff_ui(x, slong(i), a[i] % m);
    for (std::size_t i = 0; i < b.size(); ++i) nmod_poly_set_coeff_ui(y, slong(i), b[i] % m);
    op(r, x, y);
    Poly out(n, 0);
    for (std::size_t i = 0; i < n; ++i) out[i] = nmod_poly_get_coeff_ui(r, slong(i));
    nmod_poly_clear(x);
    nmod_poly_clear(y);
    nmod_poly_clear(r);
    return out;
}

// FLINT's a * b mod x^n modulo m, n coefficients (zeros past the product).
inline Poly flint_product(const Poly& a, const Poly& b, std::size_t n, limb_t m)
{
    return flint_nmod(a, b, n, m, [n](nmod_poly_t r, const nmod_poly_t x, const nmod_poly_t y) { nmod_poly_mullow(r, x, y, slong(n)); });
}

// Coefficients below `bound`: the edges 0, 1 and bound - 1 first, then random.
inline Poly random_poly(std::size_t length, limb_t bound, std::mt19937_64& rng)
{
    Poly p(length);
    for (std::size_t i = 0; i < length; ++i) p[i] = i == 0 ? bound - 1 : i == 1 ? 0 : i == 2 ? 1 : rng() % bound;
    return p;
}

}  // namespace zgpu::testing
