// Compositions of nmod polynomials modulo another on the chosen backend: FLINT's Brent-Kung
// forms (nmod_poly_compose_mod_brent_kung_precomp_preinv and _vec_preinv, the giant and baby
// steps of its distinct-degree factoring) end here, their arguments checked.
#pragma once

#include <functional>
#include <utility>

#include <flint/nmod_poly.h>

#include "zgpu/backend.hpp"

namespace zgpu::poly {

// res (lenf - 1 coefficients) = sum_i C_i h^i mod f as FLINT's precomp form computes it from
// its matrix A (inner rows of lenf - 1 coefficients, row i at a_rows[i]): C = B A for B the
// len1 coefficients of poly1 in rows of inner, h = A_i A_j mod f for (i, j) = h_rows (FLINT's
// choice of rows). f of lenf coefficients, finv (lenfinv) the inverse of f reversed. On the GPU
// where the cost model picks it and it can: degree 2 or more, f's leading coefficient
// invertible mod n, a transform the GPU takes. Otherwise on_cpu() computes it (FLINT's
// function); a GPU that fails, having written nothing, follows gpu_or_host's rule. Returns the
// backend that ran.
struct NmodComposePrecomp {
    ulong* res;
    const ulong* poly1;
    slong len1;
    const ulong* const* a_rows;
    slong inner;
    std::pair<slong, slong> h_rows;
    const ulong* f;
    slong lenf;
    const ulong* finv;
    slong lenfinv;
    nmod_t mod;
};
Backend nmod_poly_compose_mod_precomp(const NmodComposePrecomp& call, const std::function<void()>& on_cpu);

// res[j] (lenf - 1 coefficients) = polys[j](g) mod f for j < count, as FLINT's vec form
// computes them: polys[j] of lengths[j] < lenf coefficients, g of glen < lenf. The backends as
// above.
struct NmodComposeVec {
    ulong* const* res;
    const ulong* const* polys;
    const slong* lengths;
    slong count;
    const ulong* g;
    slong glen;
    const ulong* f;
    slong lenf;
    const ulong* finv;
    slong lenfinv;
    nmod_t mod;
};
Backend nmod_poly_compose_mod_vec(const NmodComposeVec& call, const std::function<void()>& on_cpu);

// The shapes FLINT's vec form uses: inner = floor(sqrt((lenf - 1) count)) + 1 powers of g and
// group = lenf / inner + 1 rows of B a polynomial.
std::pair<slong, slong> nmod_compose_vec_blocks(slong lenf, slong count);

// Whether the cost model sends a composition of each shape to the GPU: no where its transform or
// a group of its rows does not fit the GPU's batches, so that a caller that says no leaves the
// call to FLINT's own function (the threaded one, where FLINT called that).
bool gpu_pays_for_nmod_compose_precomp(slong lenf, slong inner, ulong n);
bool gpu_pays_for_nmod_compose_vec(slong lenf, slong count, ulong n);

}  // namespace zgpu::poly
