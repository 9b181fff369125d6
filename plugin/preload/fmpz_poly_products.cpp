// FLINT's products, powers and compositions of fmpz polynomials, defined in FLINT's name: zgpu
// where its cost model picks the GPU, else FLINT's own function. The raw forms keep FLINT's
// contracts (len1 >= 1, len2 >= 1, zeros on top allowed, every coefficient of res written); zgpu
// computes a product into a temporary, so res may even overlap an operand.
#include <algorithm>

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>

#include "plugin/flint/fmpz_poly_temp.hpp"
#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_poly.h"

// This library is the FLINT plugin (the NTL plugin's is in ntl_functions.cpp).
const zgpu::preload::Library zgpu::preload::plugin_library = zgpu::preload::Library::flint;

namespace {

using zgpu::FmpzPolyTemp;
using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::route;

// Whether zgpu's cost model sends (a, la) (b, lb) mod x^out to the GPU.
bool worth_it(const fmpz* a, slong la, const fmpz* b, slong lb, slong out)
{
    if (!zgpu::preload::fmpz_sizes_worth_reading(a, la, b, lb, out)) return false;
    la = std::min(la, out);
    lb = std::min(lb, out);
    const auto a_bits = std::uint64_t(FLINT_ABS(_fmpz_vec_max_bits(a, la)));
    const auto b_bits = a == b && la == lb ? a_bits : std::uint64_t(FLINT_ABS(_fmpz_vec_max_bits(b, lb)));
    return zgpu::preload::fmpz_product_pays(la, lb, out, a_bits, b_bits);
}

// A read-only fmpz_poly over FLINT's raw operand (zgpu's object forms drop its top zeros).
fmpz_poly_struct view(const fmpz* coeffs, slong length)
{
    fmpz_poly_struct poly;
    poly.coeffs = const_cast<fmpz*>(coeffs);
    poly.alloc = length;
    poly.length = length;
    return poly;
}

// (res, length) = the coefficients from `from` on of a normalised product, zeros past its end.
void write_from(fmpz* res, slong length, fmpz_poly_struct* product, slong from)
{
    for (slong i = 0; i < length; ++i) {
        if (from + i < product->length) fmpz_swap(res + i, product->coeffs + from + i);
        else fmpz_zero(res + i);
    }
}

// (res, nhi - nlo) = coefficients [nlo, nhi) of (a, la) (b, lb) by zgpu's truncated product.
int zgpu_mulmid(fmpz* res, const fmpz* a, slong la, const fmpz* b, slong lb, slong nlo, slong nhi)
{
    const fmpz_poly_struct x = view(a, la), y = view(b, lb);
    FmpzPolyTemp product;
    if (zgpu_fmpz_poly_mullow(product.get(), &x, a == b && la == lb ? &x : &y, nhi) != 0) return -1;
    write_from(res, nhi - nlo, product.get(), nlo);
    return 0;
}

}  // namespace

extern "C" {

void _fmpz_poly_mul(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2)
{
    static Counts counts("_fmpz_poly_mul");
    // zgpu's raw form wants the longer operand first; the product is the same.
    const bool swap = len1 < len2;
    const fmpz* a = swap ? poly2 : poly1;
    const fmpz* b = swap ? poly1 : poly2;
    const slong la = std::max(len1, len2), lb = std::min(len1, len2);
    route(
        counts, [&] { return worth_it(a, la, b, lb, la + lb - 1); },
        [&] { return _zgpu_fmpz_poly_mul(res, a, la, b, lb); },
        [&] { next<decltype(&_fmpz_poly_mul)>(counts)(res, poly1, len1, poly2, len2); });
}

void _fmpz_poly_mullow(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2, slong n)
{
    static Counts counts("_fmpz_poly_mullow");
    route(
        counts, [&] { return worth_it(poly1, len1, poly2, len2, n); },
        [&] { return zgpu_mulmid(res, poly1, len1, poly2, len2, 0, n); },
        [&] { next<decltype(&_fmpz_poly_mullow)>(counts)(res, poly1, len1, poly2, len2, n); });
}

void _fmpz_poly_sqr(fmpz* res, const fmpz* poly, slong len)
{
    static Counts counts("_fmpz_poly_sqr");
    route(
        counts, [&] { return worth_it(poly, len, poly, len, 2 * len - 1); },
        [&] { return zgpu_mulmid(res, poly, len, poly, len, 0, 2 * len - 1); },
        [&] { next<decltype(&_fmpz_poly_sqr)>(counts)(res, poly, len); });
}

void _fmpz_poly_sqrlow(fmpz* res, const fmpz* poly, slong len, slong n)
{
    static Counts counts("_fmpz_poly_sqrlow");
    route(
        counts, [&] { return worth_it(poly, len, poly, len, n); },
        [&] { return zgpu_mulmid(res, poly, len, poly, len, 0, n); },
        [&] { next<decltype(&_fmpz_poly_sqrlow)>(counts)(res, poly, len, n); });
}

#if __FLINT_RELEASE >= 30000
void _fmpz_poly_mulmid(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2, slong nlo, slong nhi)
{
    static Counts counts("_fmpz_poly_mulmid");
    route(
        counts, [&] { return worth_it(poly1, len1, poly2, len2, nhi); },
        [&] { return zgpu_mulmid(res, poly1, len1, poly2, len2, nlo, nhi); },
        [&] { next<decltype(&_fmpz_poly_mulmid)>(counts)(res, poly1, len1, poly2, len2, nlo, nhi); });
}
#endif

// FLINT's fmpz_poly_pow and its algorithms' powers end here (fmpz_poly_pow calls it through the
// dynamic linker).
void _fmpz_poly_pow(fmpz* res, const fmpz* poly, slong len, ulong e)
{
    static Counts counts("_fmpz_poly_pow");
    // The sizes are read only past the test on lengths alone.
    const auto worth_it = [&] {
        return zgpu::preload::fmpz_power_long_enough(len, e) &&
               zgpu::preload::fmpz_power_pays(len, e, std::uint64_t(FLINT_ABS(_fmpz_vec_max_bits(poly, len))));
    };
    route(
        counts, worth_it, [&] { return _zgpu_fmpz_poly_pow(res, poly, len, e); },
        [&] { next<decltype(&_fmpz_poly_pow)>(counts)(res, poly, len, e); });
}

// FLINT's fmpz_poly_compose ends here, through the dynamic linker.
void _fmpz_poly_compose(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2)
{
    static Counts counts("_fmpz_poly_compose");
    const auto worth_it = [&] {
        return zgpu::preload::fmpz_compose_long_enough(len1, len2) &&
               zgpu::preload::fmpz_compose_pays(len1, len2, std::uint64_t(FLINT_ABS(_fmpz_vec_max_bits(poly1, len1))),
                                                std::uint64_t(FLINT_ABS(_fmpz_vec_max_bits(poly2, len2))));
    };
    route(
        counts, worth_it, [&] { return _zgpu_fmpz_poly_compose(res, poly1, len1, poly2, len2); },
        [&] { next<decltype(&_fmpz_poly_compose)>(counts)(res, poly1, len1, poly2, len2); });
}

void fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    static Counts counts("fmpz_poly_mul");
    const slong out = poly1->length && poly2->length ? poly1->length + poly2->length - 1 : 0;
    route(
        counts, [&] { return worth_it(poly1->coeffs, poly1->length, poly2->coeffs, poly2->length, out); },
        [&] { return zgpu_fmpz_poly_mul(res, poly1, poly2); },
        [&] { next<decltype(&fmpz_poly_mul)>(counts)(res, poly1, poly2); });
}

void fmpz_poly_mullow(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2, slong n)
{
    static Counts counts("fmpz_poly_mullow");
    route(
        counts, [&] { return worth_it(poly1->coeffs, poly1->length, poly2->coeffs, poly2->length, n); },
        [&] { return zgpu_fmpz_poly_mullow(res, poly1, poly2, n); },
        [&] { next<decltype(&fmpz_poly_mullow)>(counts)(res, poly1, poly2, n); });
}

void fmpz_poly_sqr(fmpz_poly_t res, const fmpz_poly_t poly)
{
    static Counts counts("fmpz_poly_sqr");
    route(
        counts, [&] { return worth_it(poly->coeffs, poly->length, poly->coeffs, poly->length, 2 * poly->length - 1); },
        [&] { return zgpu_fmpz_poly_sqr(res, poly); },
        [&] { next<decltype(&fmpz_poly_sqr)>(counts)(res, poly); });
}

void fmpz_poly_sqrlow(fmpz_poly_t res, const fmpz_poly_t poly, slong n)
{
    static Counts counts("fmpz_poly_sqrlow");
    route(
        counts, [&] { return worth_it(poly->coeffs, poly->length, poly->coeffs, poly->length, n); },
        [&] { return zgpu_fmpz_poly_mullow(res, poly, poly, n); },
        [&] { next<decltype(&fmpz_poly_sqrlow)>(counts)(res, poly, n); });
}

}  // extern "C"
