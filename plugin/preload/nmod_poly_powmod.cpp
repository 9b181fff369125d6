// FLINT's raw products and powers of nmod polynomials modulo another, and its Brent-Kung
// compositions mod f, defined in FLINT's name: zgpu where its cost model picks the GPU for f's
// degree and the exponent (or the blocks), else FLINT's own function. FLINT's object forms
// (nmod_poly_mulmod_preinv, nmod_poly_powmod_ui_binexp and its _preinv form,
// nmod_poly_powmod_x_ui_preinv), its other compositions mod f and its factoring reach these
// through the dynamic linker. A product mod f crosses PCIe once there, where the plugin's
// products would cross it three times; a power's steps stay on the device, and so do a
// composition's (its distinct-degree factoring's baby and giant steps, on one thread or many).
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_poly.h"

namespace {

using zgpu::preload::Counts;
using zgpu::preload::nmod_compose_precomp_worth_it;
using zgpu::preload::nmod_compose_vec_worth_it;
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

void nmod_poly_compose_mod_brent_kung_precomp_preinv(nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A,
                                                     const nmod_poly_t poly3, const nmod_poly_t poly3inv)
{
    static Counts counts("nmod_poly_compose_mod_brent_kung_precomp_preinv");
    route(
        counts, [&] { return nmod_compose_precomp_worth_it(poly1->length, poly3->length, A->r, poly3->mod.n); },
        [&] { return zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(res, poly1, A, poly3, poly3inv); },
        [&] { next<decltype(&nmod_poly_compose_mod_brent_kung_precomp_preinv)>(counts)(res, poly1, A, poly3, poly3inv); });
}

void nmod_poly_compose_mod_brent_kung_vec_preinv(nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1, slong n,
                                                 const nmod_poly_t g, const nmod_poly_t poly, const nmod_poly_t polyinv)
{
    static Counts counts("nmod_poly_compose_mod_brent_kung_vec_preinv");
    route(
        counts, [&] { return n >= 1 && n <= len1 && nmod_compose_vec_worth_it(poly->length, n, poly->mod.n); },
        [&] { return zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(res, polys, len1, n, g, poly, polyinv); },
        [&] { next<decltype(&nmod_poly_compose_mod_brent_kung_vec_preinv)>(counts)(res, polys, len1, n, g, poly, polyinv); });
}

// The threaded form, which FLINT's distinct-degree factoring on several threads calls for its
// baby steps: the same compositions; zgpu leaves the pool unused.
void nmod_poly_compose_mod_brent_kung_vec_preinv_threaded_pool(nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1,
                                                               slong n, const nmod_poly_t g, const nmod_poly_t poly,
                                                               const nmod_poly_t polyinv, thread_pool_handle* threads,
                                                               slong num_threads)
{
    static Counts counts("nmod_poly_compose_mod_brent_kung_vec_preinv_threaded_pool");
    route(
        counts, [&] { return n >= 1 && n <= len1 && nmod_compose_vec_worth_it(poly->length, n, poly->mod.n); },
        [&] { return zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(res, polys, len1, n, g, poly, polyinv); },
        [&] {
            next<decltype(&nmod_poly_compose_mod_brent_kung_vec_preinv_threaded_pool)>(counts)(res, polys, len1, n, g, poly, polyinv,
                                                                                              threads, num_threads);
        });
}

}  // extern "C"
