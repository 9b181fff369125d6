// FLINT's products of nmod polynomials, defined in FLINT's name: zgpu where its cost model picks
// the GPU (a test on lengths and the modulus alone), else FLINT's own function. The raw forms
// keep FLINT's contracts (len1 >= 1, len2 >= 1, coefficients reduced, every coefficient of res
// written).
#include <algorithm>
#include <vector>

#include <flint/nmod_poly.h>

#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_poly.h"

namespace {

using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::route;

using zgpu::preload::nmod_product_worth_it;

// (res, nhi - nlo) = coefficients [nlo, nhi) of (a, la) (b, lb) mod n by zgpu's truncated
// product, the longer operand first; zeros past the product's end.
int zgpu_mulmid(ulong* res, const ulong* a, slong la, const ulong* b, slong lb, slong nlo, slong nhi, nmod_t mod)
{
    if (la < lb) {
        std::swap(a, b);
        std::swap(la, lb);
    }
    const slong top = std::min(nhi, la + lb - 1);
    if (nlo >= top) {
        std::fill(res, res + (nhi - nlo), ulong(0));
        return 0;
    }
    // From nlo = 0 the product goes to res directly (zgpu's raw form allows res to overlap).
    std::vector<ulong> product(nlo > 0 ? std::size_t(top) : 0);
    ulong* out = nlo > 0 ? product.data() : res;
    if (_zgpu_nmod_poly_mullow(out, a, std::min(la, top), b, std::min(lb, top), top, mod) != 0) return -1;
    if (nlo > 0) std::copy(product.begin() + nlo, product.end(), res);
    std::fill(res + (top - nlo), res + (nhi - nlo), ulong(0));
    return 0;
}

}  // namespace

extern "C" {

void _nmod_poly_mul(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, nmod_t mod)
{
    static Counts counts("_nmod_poly_mul");
    const bool swap = len1 < len2;
    route(
        counts, [&] { return nmod_product_worth_it(len1, len2, len1 + len2 - 1, mod.n); },
        [&] {
            return swap ? _zgpu_nmod_poly_mul(res, poly2, len2, poly1, len1, mod)
                        : _zgpu_nmod_poly_mul(res, poly1, len1, poly2, len2, mod);
        },
        [&] { next<decltype(&_nmod_poly_mul)>(counts)(res, poly1, len1, poly2, len2, mod); });
}

void _nmod_poly_mullow(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, slong n, nmod_t mod)
{
    static Counts counts("_nmod_poly_mullow");
    route(
        counts, [&] { return nmod_product_worth_it(len1, len2, n, mod.n); },
        [&] { return zgpu_mulmid(res, poly1, len1, poly2, len2, 0, n, mod); },
        [&] { next<decltype(&_nmod_poly_mullow)>(counts)(res, poly1, len1, poly2, len2, n, mod); });
}

#if __FLINT_RELEASE >= 30000
void _nmod_poly_mulmid(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, slong nlo, slong nhi,
                       nmod_t mod)
{
    static Counts counts("_nmod_poly_mulmid");
    route(
        counts, [&] { return nlo < nhi && nmod_product_worth_it(len1, len2, nhi, mod.n); },
        [&] { return zgpu_mulmid(res, poly1, len1, poly2, len2, nlo, nhi, mod); },
        [&] { next<decltype(&_nmod_poly_mulmid)>(counts)(res, poly1, len1, poly2, len2, nlo, nhi, mod); });
}
#endif

void nmod_poly_mul(nmod_poly_t res, const nmod_poly_t poly1, const nmod_poly_t poly2)
{
    static Counts counts("nmod_poly_mul");
    route(
        counts, [&] { return nmod_product_worth_it(poly1->length, poly2->length, poly1->length + poly2->length - 1, poly1->mod.n); },
        [&] { return zgpu_nmod_poly_mul(res, poly1, poly2); },
        [&] { next<decltype(&nmod_poly_mul)>(counts)(res, poly1, poly2); });
}

void nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t poly1, const nmod_poly_t poly2, slong trunc)
{
    static Counts counts("nmod_poly_mullow");
    route(
        counts, [&] { return nmod_product_worth_it(poly1->length, poly2->length, trunc, poly1->mod.n); },
        [&] { return zgpu_nmod_poly_mullow(res, poly1, poly2, trunc); },
        [&] { next<decltype(&nmod_poly_mullow)>(counts)(res, poly1, poly2, trunc); });
}

}  // extern "C"
