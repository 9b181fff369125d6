// FLINT's raw products and powers of nmod polynomials modulo another, defined in FLINT's name:
// zgpu where its cost model picks the GPU for f's degree and the exponent, else FLINT's own
// function. FLINT's object forms (nmod_poly_mulmod_preinv, nmod_poly_powmod_ui_binexp and its
// _preinv form, nmod_poly_powmod_x_ui_preinv), its compositions mod f and its factoring reach
// these through the dynamic linker. A product mod f crosses PCIe once there, where the plugin's
// products would cross it three times; a power's steps stay on the device.
#include <flint/nmod_poly.h>

#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_poly.h"

namespace {

using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::nmod_mulmod_worth_it;
using zgpu::preload::nmod_powmod_worth_it;
using zgpu::preload::route;

}  // namespace

extern "C" {

void _nmod_poly_mulmod_preinv(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, const ulong* f, slong lenf,
                              const ulong* finv, slong lenfinv, nmod_t mod)
{
    static Counts counts("_nmod_poly_mulmod_preinv");
    route(
        counts, [&] { return nmod_mulmod_worth_it(len1, len2, lenf, mod.n); },
        [&] { return _zgpu_nmod_poly_mulmod_preinv(res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod); },
        [&] { next<decltype(&_nmod_poly_mulmod_preinv)>(counts)(res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod); });
}

void _nmod_poly_powmod_ui_binexp(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, nmod_t mod)
{
    static Counts counts("_nmod_poly_powmod_ui_binexp");
    route(
        counts, [&] { return nmod_powmod_worth_it(lenf, e, mod.n, false); },
        [&] { return _zgpu_nmod_poly_powmod_ui_binexp(res, poly, e, f, lenf, mod); },
        [&] { next<decltype(&_nmod_poly_powmod_ui_binexp)>(counts)(res, poly, e, f, lenf, mod); });
}

void _nmod_poly_powmod_ui_binexp_preinv(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, const ulong* finv,
                                        slong lenfinv, nmod_t mod)
{
    static Counts counts("_nmod_poly_powmod_ui_binexp_preinv");
    route(
        counts, [&] { return nmod_powmod_worth_it(lenf, e, mod.n, false); },
        [&] { return _zgpu_nmod_poly_powmod_ui_binexp_preinv(res, poly, e, f, lenf, finv, lenfinv, mod); },
        [&] { next<decltype(&_nmod_poly_powmod_ui_binexp_preinv)>(counts)(res, poly, e, f, lenf, finv, lenfinv, mod); });
}

void _nmod_poly_powmod_x_ui_preinv(ulong* res, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod)
{
    static Counts counts("_nmod_poly_powmod_x_ui_preinv");
    route(
        counts, [&] { return nmod_powmod_worth_it(lenf, e, mod.n, true); },
        [&] { return _zgpu_nmod_poly_powmod_x_ui_preinv(res, e, f, lenf, finv, lenfinv, mod); },
        [&] { next<decltype(&_nmod_poly_powmod_x_ui_preinv)>(counts)(res, e, f, lenf, finv, lenfinv, mod); });
}

}  // extern "C"
