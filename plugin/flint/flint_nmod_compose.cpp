// FLINT-style compositions of nmod polynomials modulo another: FLINT's own checks and trivial
// cases, then plugin/poly/nmod_compose with FLINT's function as the CPU path. The GPU's results
// go to temporaries first: res may be any operand, as FLINT allows.
#include <algorithm>
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>

#include "plugin/flint/nmod_checks.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"
#include "plugin/poly/nmod_compose.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

// res = (coeffs, length) normalised.
void set_poly(nmod_poly_struct* res, const std::vector<ulong>& coeffs)
{
    nmod_poly_fit_length(res, slong(coeffs.size()));
    std::copy(coeffs.begin(), coeffs.end(), res->coeffs);
    res->length = slong(coeffs.size());
    _nmod_poly_normalise(res);
}

// f of the same modulus as the others, with its inverse: both reduced, f's leading coefficient
// nonzero (FLINT's callers' preconditions).
void check_modulus(const std::string& function, const nmod_poly_struct* f, const nmod_poly_struct* finv, nmod_t mod)
{
    if (f->mod.n != mod.n || finv->mod.n != mod.n) throw Error(function + ": the polynomials have different moduli");
    check_reduced(function, "f", f->coeffs, f->length, mod.n);
    check_reduced(function, "finv", finv->coeffs, finv->length, mod.n);
}

}  // namespace

void nmod_poly_compose_mod_brent_kung_precomp_preinv(nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A,
                                                     const nmod_poly_t poly3, const nmod_poly_t poly3inv)
{
    const std::string function = "nmod_poly_compose_mod_brent_kung_precomp_preinv";
    if (!res || !poly1 || !A || !poly3 || !poly3inv) throw Error(function + ": an argument is NULL");
    const slong len1 = poly1->length, len3 = poly3->length;
    if (len3 == 0) throw Error(function + ": division by zero");
    if (len1 >= len3) throw Error(function + ": the first polynomial's degree must be smaller than the modulus's");
    const auto flint = [&] { ::nmod_poly_compose_mod_brent_kung_precomp_preinv(res, poly1, A, poly3, poly3inv); };
    // FLINT answers the small cases at once; its A has n_sqrt(len3 - 1) + 1 rows of len3 - 1.
    if (len1 <= 1 || len3 <= 2) return set_last_backend(Backend::cpu), flint();
    const slong inner = slong(n_sqrt(ulong(len3 - 1))) + 1;
    if (A->r != inner || A->c != len3 - 1)
        throw Error(function + ": A is " + std::to_string(A->r) + " x " + std::to_string(A->c) + ", " + std::to_string(inner) + " x " +
                    std::to_string(len3 - 1) + " is needed");
    const nmod_t mod = poly3->mod;
    if (poly1->mod.n != mod.n || A->mod.n != mod.n) throw Error(function + ": the arguments have different moduli");
    check_modulus(function, poly3, poly3inv, mod);
    check_reduced(function, "poly1", poly1->coeffs, len1, mod.n);
    const std::vector<const ulong*> rows = matrix::rows_of<const ulong*>(A);
    for (slong i = 0; i < inner; ++i) check_reduced(function, "A", rows[std::size_t(i)], len3 - 1, mod.n);
    // FLINT from 3.4 on takes h from the middle rows of A; before, from the last and the second.
#if __FLINT_RELEASE >= 30400
    const std::pair<slong, slong> h_rows{inner / 2, inner - inner / 2};
#else
    const std::pair<slong, slong> h_rows{inner - 1, 1};
#endif
    std::vector<ulong> value(std::size_t(len3 - 1));
    const poly::NmodComposePrecomp call{value.data(), poly1->coeffs, len1, rows.data(), inner, h_rows,
                                        poly3->coeffs, len3, poly3inv->coeffs, poly3inv->length, mod};
    if (poly::nmod_poly_compose_mod_precomp(call, flint) == Backend::gpu) set_poly(res, value);
}

void nmod_poly_compose_mod_brent_kung_vec_preinv(nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1, slong n,
                                                 const nmod_poly_t g, const nmod_poly_t poly, const nmod_poly_t polyinv)
{
    const std::string function = "nmod_poly_compose_mod_brent_kung_vec_preinv";
    if (!res || !polys || !g || !poly || !polyinv) throw Error(function + ": an argument is NULL");
    const slong len2 = poly->length;
    for (slong i = 0; i < len1; ++i)
        if (polys[i].length >= len2) throw Error(function + ": the polynomials' degrees must be smaller than the modulus's");
    if (n > len1) throw Error(function + ": n is larger than the number of polynomials");
    if (n < 0) throw Error(function + ": n is negative");
    const auto flint = [&] { ::nmod_poly_compose_mod_brent_kung_vec_preinv(res, polys, len1, n, g, poly, polyinv); };
    if (n == 0 || len2 <= 2) return set_last_backend(Backend::cpu), flint();
    const nmod_t mod = poly->mod;
    if (g->length >= len2) throw Error(function + ": g must be reduced modulo the modulus");
    check_modulus(function, poly, polyinv, mod);
    check_reduced(function, "g", g->coeffs, g->length, mod.n);
    std::vector<const ulong*> inputs;
    std::vector<slong> lengths;
    for (slong i = 0; i < n; ++i) {
        if (polys[i].mod.n != mod.n) throw Error(function + ": the polynomials have different moduli");
        check_reduced(function, "polys[i]", polys[i].coeffs, polys[i].length, mod.n);
        inputs.push_back(polys[i].coeffs);
        lengths.push_back(polys[i].length);
    }
    std::vector<std::vector<ulong>> values(std::size_t(n), std::vector<ulong>(std::size_t(len2 - 1)));
    std::vector<ulong*> outputs;
    for (auto& v : values) outputs.push_back(v.data());
    const poly::NmodComposeVec call{outputs.data(), inputs.data(), lengths.data(), n, g->coeffs, g->length,
                                    poly->coeffs, len2, polyinv->coeffs, polyinv->length, mod};
    if (poly::nmod_poly_compose_mod_vec(call, flint) != Backend::gpu) return;
    for (slong i = 0; i < n; ++i) set_poly(res + i, values[std::size_t(i)]);
}

}  // namespace zgpu
