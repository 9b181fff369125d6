// Products and powers of nmod polynomials modulo another on the chosen backend: FLINT's raw
// forms (_nmod_poly_mulmod_preinv, _nmod_poly_powmod_ui_binexp, its _preinv form and
// _nmod_poly_powmod_x_ui_preinv) end here, their arguments checked.
#pragma once

#include <functional>

#include <flint/nmod_poly.h>

#include "zgpu/backend.hpp"

namespace zgpu::poly {

// res (lenf - 1 coefficients) = base^e mod f as FLINT's raw forms compute it: base of lenf - 1
// coefficients below n, reduced mod f, or nullptr for x; f of lenf >= 2 coefficients; finv
// (lenfinv coefficients, the inverse of f reversed) or nullptr; e >= 1. On the GPU where the
// cost model picks it and it can: degree 2 or more, e >= 2, f's leading coefficient invertible
// mod n (f's inverse is then FLINT's _nmod_poly_inv_series where not given). Otherwise
// on_cpu() computes it: FLINT's function; a GPU that fails, having written nothing, follows
// gpu_or_host's rule. Returns the backend that ran.
struct NmodPowmod {
    ulong* res;
    const ulong* base;
    ulong e;
    const ulong* f;
    slong lenf;
    const ulong* finv;
    slong lenfinv;
    nmod_t mod;
};
Backend nmod_poly_powmod(const NmodPowmod& call, const std::function<void()>& on_cpu);

// res (lenf - 1 coefficients) = a b mod f as FLINT's _nmod_poly_mulmod_preinv computes it: a and
// b of la and lb coefficients below n, f of lenf >= 2, finv (lenfinv coefficients) the inverse
// of f reversed. On the GPU where the cost model picks it (as one step of a power) and it can:
// degree 2 or more, la and lb at most the degree, a quotient (la + lb - lenf coefficients) of
// at least one coefficient. Otherwise on_cpu() computes it; a failing GPU as above.
struct NmodMulmod {
    ulong* res;
    const ulong* a;
    slong la;
    const ulong* b;
    slong lb;
    const ulong* f;
    slong lenf;
    const ulong* finv;
    slong lenfinv;
    nmod_t mod;
};
Backend nmod_poly_mulmod(const NmodMulmod& call, const std::function<void()>& on_cpu);

}  // namespace zgpu::poly
