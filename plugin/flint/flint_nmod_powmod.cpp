// FLINT-style products and powers of nmod polynomials modulo another: the checks FLINT leaves to
// its caller, then plugin/poly/nmod_powmod, with FLINT's own function as the CPU path.
#include <algorithm>
#include <string>
#include <vector>

#include "plugin/flint/nmod_checks.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/poly/nmod_powmod.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

// The raw forms' preconditions, as FLINT states them: f of lenf >= 2 reduced coefficients, its
// leading one nonzero; the base (where there is one) of lenf - 1 reduced coefficients; e >= 1;
// finv (where given) of lenfinv >= 1 reduced coefficients.
void check_raw(const std::string& function, const poly::NmodPowmod& c, bool has_base)
{
    const auto fail = [&](const std::string& why) { throw Error(function + ": " + why); };
    if (!c.res) fail("res is NULL");
    if (has_base && !c.base) fail("poly is NULL");
    if (!c.f) fail("f is NULL");
    if (c.lenf < 2) fail("lenf is " + std::to_string(c.lenf) + ", at least 2 is needed");
    if (c.e < 1) fail("e is 0, at least 1 is needed");
    if (c.mod.n == 0) fail("the modulus is 0");
    check_reduced(function, "f", c.f, c.lenf, c.mod.n);
    if (c.f[c.lenf - 1] == 0) fail("f's leading coefficient is 0");
    if (has_base) check_reduced(function, "poly", c.base, c.lenf - 1, c.mod.n);
    if (c.finv) {
        if (c.lenfinv < 1) fail("lenfinv is " + std::to_string(c.lenfinv) + ", at least 1 is needed");
        check_reduced(function, "finv", c.finv, c.lenfinv, c.mod.n);
    }
}

// The call with FLINT's function as its CPU path; FLINT's raw forms read the base after writing
// res, so a res that is the base goes through a copy there.
template <class Flint>
void raw_powmod(const poly::NmodPowmod& c, const Flint& flint)
{
    poly::nmod_poly_powmod(c, [&] {
        if (c.base != c.res) return flint(c.base);
        const std::vector<ulong> base(c.base, c.base + (c.lenf - 1));
        flint(base.data());
    });
}

}  // namespace

void _nmod_poly_powmod_ui_binexp(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, nmod_t mod)
{
    const poly::NmodPowmod c{res, poly, e, f, lenf, nullptr, 0, mod};
    check_raw("_nmod_poly_powmod_ui_binexp", c, true);
    raw_powmod(c, [&](const ulong* base) { ::_nmod_poly_powmod_ui_binexp(res, base, e, f, lenf, mod); });
}

void _nmod_poly_powmod_ui_binexp_preinv(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, const ulong* finv,
                                        slong lenfinv, nmod_t mod)
{
    const poly::NmodPowmod c{res, poly, e, f, lenf, finv, lenfinv, mod};
    if (!finv) throw Error("_nmod_poly_powmod_ui_binexp_preinv: finv is NULL");
    check_raw("_nmod_poly_powmod_ui_binexp_preinv", c, true);
    raw_powmod(c, [&](const ulong* base) { ::_nmod_poly_powmod_ui_binexp_preinv(res, base, e, f, lenf, finv, lenfinv, mod); });
}

void _nmod_poly_powmod_x_ui_preinv(ulong* res, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod)
{
    const poly::NmodPowmod c{res, nullptr, e, f, lenf, finv, lenfinv, mod};
    if (!finv) throw Error("_nmod_poly_powmod_x_ui_preinv: finv is NULL");
    check_raw("_nmod_poly_powmod_x_ui_preinv", c, false);
    poly::nmod_poly_powmod(c, [&] { ::_nmod_poly_powmod_x_ui_preinv(res, e, f, lenf, finv, lenfinv, mod); });
}

void _nmod_poly_mulmod_preinv(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, const ulong* f, slong lenf,
                              const ulong* finv, slong lenfinv, nmod_t mod)
{
    const std::string function = "_nmod_poly_mulmod_preinv";
    const auto fail = [&](const std::string& why) { throw Error(function + ": " + why); };
    if (!poly1 || !poly2 || !finv) fail(std::string(!poly1 ? "poly1" : !poly2 ? "poly2" : "finv") + " is NULL");
    if (len1 < 1 || len2 < 1 || len1 >= lenf || len2 >= lenf)
        fail("len1 and len2 are " + std::to_string(len1) + " and " + std::to_string(len2) + ", each from 1 to lenf - 1 = " +
             std::to_string(lenf - 1));
    if (lenf > 2 && len1 + len2 - 1 < lenf) fail("len1 + len2 - 1 is below lenf: the product is reduced already");
    // f, finv and the modulus as the powers check them; the operands' coefficients here.
    check_raw(function, {res, nullptr, 1, f, lenf, finv, lenfinv, mod}, false);
    check_reduced(function, "poly1", poly1, len1, mod.n);
    check_reduced(function, "poly2", poly2, len2, mod.n);
    poly::nmod_poly_mulmod({res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod},
                           [&] { ::_nmod_poly_mulmod_preinv(res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod); });
}

void nmod_poly_powmod_ui_binexp(nmod_poly_t res, const nmod_poly_t poly, ulong e, const nmod_poly_t f)
{
    const std::string function = "nmod_poly_powmod_ui_binexp";
    if (!res || !poly || !f) throw Error(function + ": " + (!res ? "res" : !poly ? "poly" : "f") + " is NULL");
    if (poly->mod.n != f->mod.n || res->mod.n != f->mod.n) throw Error(function + ": res, poly and f have different moduli");
    if (f->length == 0) throw Error(function + ": division by zero (f is 0)");
    const slong lenf = f->length, m = lenf - 1;
    // FLINT's own answers where the raw form does not apply or there is nothing to power.
    if (lenf < 3 || e < 3 || poly->length == 0 || poly->length >= lenf) {
        run_on(Backend::cpu, {}, [&] { ::nmod_poly_powmod_ui_binexp(res, poly, e, f); });
        return;
    }
    std::vector<ulong> base(std::size_t(m), 0);
    std::vector<ulong> power(static_cast<std::size_t>(m));
    std::copy_n(poly->coeffs, poly->length, base.begin());
    zgpu::_nmod_poly_powmod_ui_binexp(power.data(), base.data(), e, f->coeffs, lenf, f->mod);
    nmod_poly_fit_length(res, m);
    std::copy(power.begin(), power.end(), res->coeffs);
    _nmod_poly_set_length(res, m);
    _nmod_poly_normalise(res);
}

}  // namespace zgpu
