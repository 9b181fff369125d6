// FLINT-style products, powers and compositions of fmpz polynomials: the argument checks, then
// plugin/poly/product_over_z with FLINT's own functions as the CPU backend. Where res is an
// operand the result goes to a temporary, swapped in at the end; else it is written in place.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "plugin/flint/fmpz_array.hpp"
#include "plugin/flint/fmpz_poly_norms.hpp"
#include "plugin/flint/fmpz_poly_temp.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/poly/product_over_z.hpp"
#include "plugin/poly/resultant.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

constexpr std::size_t kUntruncated = std::numeric_limits<std::size_t>::max();

// coeffs[0 .. length) as a product mod x^cut reads them: the first min(length, cut), without
// the zeros on top.
poly::ZPoly operand(const fmpz* coeffs, std::size_t length, std::size_t cut, const char* name)
{
    std::size_t used = std::min(length, cut);
    while (used > 0 && fmpz_is_zero(coeffs + used - 1)) --used;
    HostOperand coefficients = host_operand(adapters::FmpzReader(coeffs), used, name);
    const std::uint64_t bits = max_bits(coeffs, used, coefficients.max_limbs);
    return {std::move(coefficients), used, bits};
}

// product = (a, la) (b, lb) mod x^cut, normalised: on the GPU, or flint(product) on the CPU.
// a == b with la == lb squares. product is none of the operands: the GPU writes its
// coefficients in place, reusing their memory as FLINT does.
void multiply(fmpz_poly_struct* product, const fmpz* a, std::size_t la, const fmpz* b, std::size_t lb, std::size_t cut,
              const std::function<void(fmpz_poly_struct*)>& flint)
{
    const poly::ZPoly first = operand(a, la, cut, "a");
    const bool square = a == b && la == lb;
    const poly::ZPoly other = square ? poly::ZPoly{} : operand(b, lb, cut, "b");
    const poly::ZPoly& second = square ? first : other;
    const std::size_t out = first.length && second.length ? std::min(first.length + second.length - 1, cut) : 0;
    fmpz_poly_fit_length(product, slong(out));
    const Backend ran = poly::product_over_z(
        first, second, out, [&] { flint(product); },
        [&](std::size_t from, ConstBatchView values) { adapters::unpack_fmpz_vec(values, product->coeffs + from); });
    if (ran != Backend::gpu) return;
    _fmpz_poly_set_length(product, slong(out));
    _fmpz_poly_normalise(product);
}

// res = a b mod x^cut as multiply() computes it, through a temporary where res is an operand
// (FLINT's own functions do the same).
void multiply(fmpz_poly_struct* res, const fmpz_poly_struct* a, const fmpz_poly_struct* b, std::size_t cut,
              const std::function<void(fmpz_poly_struct*)>& flint)
{
    if (res != a && res != b)
        return multiply(res, a->coeffs, std::size_t(a->length), b->coeffs, std::size_t(b->length), cut, flint);
    FmpzPolyTemp product;
    multiply(product.get(), a->coeffs, std::size_t(a->length), b->coeffs, std::size_t(b->length), cut, flint);
    fmpz_poly_swap(res, product.get());
}

void check_polys(const std::string& function, const fmpz_poly_struct* res, const fmpz_poly_struct* a,
                 const fmpz_poly_struct* b)
{
    if (!res) throw Error(function + ": res is NULL");
    if (!a) throw Error(function + ": a is NULL");
    if (!b) throw Error(function + ": b is NULL");
}

// The bits of ||a||_1 = sum |a_i|, exact: f^e's coefficients are at most ||f||_1^e.
std::uint64_t one_norm_bits(const fmpz* a, slong length)
{
    FmpzTemp norm;
    for (slong i = 0; i < length; ++i)
        if (fmpz_sgn(a + i) < 0) fmpz_sub(norm.get(), norm.get(), a + i);
        else fmpz_add(norm.get(), norm.get(), a + i);
    return fmpz_bits(norm.get());
}

// (coeffs, length)^e: FLINT's own function, flint(), where it answers at once (fewer than 2
// coefficients after the zeros on top, e < 3), else poly::power_over_z with flint() as the CPU
// backend. On the GPU the power's coefficients go to room(n), which returns space for n of them
// holding no operand: they are written in place, reusing their memory as FLINT does (fresh
// mpz limbs would cost more than the whole power). Returns the GPU's length n, or 0 where
// flint() ran.
std::size_t raise(const fmpz* coeffs, std::size_t length, ulong e, const std::function<fmpz*(std::size_t)>& room,
                  const std::function<void()>& flint)
{
    const poly::ZPoly f = operand(coeffs, length, kUntruncated, "poly");
    const std::uint64_t norm_bits = one_norm_bits(coeffs, slong(f.length));
    // e bits(||f||_1) bounds the power's bits; products past 64 bits go to FLINT as too large.
    const bool bounded = norm_bits == 0 || e <= ~std::uint64_t(0) / norm_bits;
    if (f.length < 2 || e < 3 || !bounded) {
        set_last_backend(Backend::cpu);
        flint();
        return 0;
    }
    const std::size_t out = (f.length - 1) * e + 1;
    fmpz* power = nullptr;
    const Backend ran = poly::power_over_z(f, e, e * norm_bits, flint, [&](std::size_t from, ConstBatchView values) {
        if (!power) power = room(out);
        adapters::unpack_fmpz_vec(values, power + from);
    });
    return ran == Backend::gpu ? out : 0;
}

// (f, f_length)(h, h_length): FLINT's own function, flint(), where it answers at once (either
// with fewer than 2 coefficients after the zeros on top), else poly::compose_over_z with flint()
// as the CPU backend. On the GPU the result's coefficients go to room(n), which returns space for
// n of them holding neither operand. Returns the GPU's length n, or 0 where flint() ran.
std::size_t compose(const fmpz* f, std::size_t f_length, const fmpz* h, std::size_t h_length,
                    const std::function<fmpz*(std::size_t)>& room, const std::function<void()>& flint)
{
    const poly::ZPoly outer = operand(f, f_length, kUntruncated, "poly1");
    const poly::ZPoly inner = operand(h, h_length, kUntruncated, "poly2");
    // ||f||_1 max(1, ||h||_1)^(f_length - 1) bounds every coefficient of f(h); a bound past 64
    // bits goes to FLINT as too large.
    const std::uint64_t h_norm_bits = inner.length < 2 ? 0 : one_norm_bits(h, slong(inner.length));
    const bool bounded = outer.length < 2 || h_norm_bits <= (~std::uint64_t(0) >> 1) / (outer.length - 1);
    if (outer.length < 2 || inner.length < 2 || !bounded) {
        set_last_backend(Backend::cpu);
        flint();
        return 0;
    }
    const std::uint64_t bits = one_norm_bits(f, slong(outer.length)) + (outer.length - 1) * h_norm_bits;
    const std::size_t out = (outer.length - 1) * (inner.length - 1) + 1;
    fmpz* composition = nullptr;
    const Backend ran = poly::compose_over_z(outer, inner, bits, flint, [&](std::size_t from, ConstBatchView values) {
        if (!composition) composition = room(out);
        adapters::unpack_fmpz_vec(values, composition + from);
    });
    return ran == Backend::gpu ? out : 0;
}

}  // namespace

void fmpz_poly_compose(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    if (!res || !poly1 || !poly2)
        throw Error(std::string("fmpz_poly_compose: ") + (!res ? "res" : !poly1 ? "poly1" : "poly2") + " is NULL");
    // res may be either operand, which the composition reads to the end: then a temporary.
    FmpzPolyTemp temporary;
    fmpz_poly_struct* out = res == poly1 || res == poly2 ? temporary.get() : res;
    const std::size_t n = compose(
        poly1->coeffs, std::size_t(poly1->length), poly2->coeffs, std::size_t(poly2->length),
        [&](std::size_t length) {
            fmpz_poly_fit_length(out, slong(length));
            return out->coeffs;
        },
        [&] { ::fmpz_poly_compose(out, poly1, poly2); });
    if (n) {
        _fmpz_poly_set_length(out, slong(n));
        _fmpz_poly_normalise(out);
    }
    if (out != res) fmpz_poly_swap(res, out);
}

void _fmpz_poly_compose(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2)
{
    const std::string f = "_fmpz_poly_compose";
    if (len1 < 1 || len2 < 1) throw Error(f + ": len1 and len2 are " + std::to_string(len1) + " and " + std::to_string(len2) + ", at least 1 each is needed");
    if (!res) throw Error(f + ": res is NULL");
    if (!poly1 || !poly2) throw Error(f + ": " + (!poly1 ? "poly1" : "poly2") + " is NULL");
    if (len2 > 1 && len1 - 1 > (WORD_MAX - 1) / (len2 - 1)) throw Error(f + ": the composition's length overflows a slong");
    // Every coefficient of res is written, top zeros included, as FLINT's does.
    const slong length = (len1 - 1) * (len2 - 1) + 1;
    const std::size_t n = compose(
        poly1, std::size_t(len1), poly2, std::size_t(len2), [&](std::size_t) { return res; },
        [&] { ::_fmpz_poly_compose(res, poly1, len1, poly2, len2); });
    if (n) _fmpz_vec_zero(res + n, length - slong(n));
}

void fmpz_poly_pow(fmpz_poly_t res, const fmpz_poly_t poly, ulong e)
{
    if (!res || !poly) throw Error(std::string("fmpz_poly_pow: ") + (!res ? "res" : "poly") + " is NULL");
    // res may be poly, which the power reads to the end: then through a temporary.
    FmpzPolyTemp temporary;
    fmpz_poly_struct* power = res == poly ? temporary.get() : res;
    const std::size_t out = raise(
        poly->coeffs, std::size_t(poly->length), e,
        [&](std::size_t n) {
            fmpz_poly_fit_length(power, slong(n));
            return power->coeffs;
        },
        [&] { ::fmpz_poly_pow(power, poly, e); });
    if (out) {
        _fmpz_poly_set_length(power, slong(out));
        _fmpz_poly_normalise(power);
    }
    if (power != res) fmpz_poly_swap(res, power);
}

void _fmpz_poly_pow(fmpz* res, const fmpz* poly, slong len, ulong e)
{
    const std::string f = "_fmpz_poly_pow";
    if (len < 1) throw Error(f + ": len is " + std::to_string(len) + ", at least 1 is needed");
    if (e < 1) throw Error(f + ": e is 0, at least 1 is needed");
    if (!res) throw Error(f + ": res is NULL");
    if (!poly) throw Error(f + ": poly is NULL");
    if (e > std::uint64_t(WORD_MAX) / std::uint64_t(len)) throw Error(f + ": the power's length overflows a slong");
    // Every coefficient of res is written, top zeros included, as FLINT's does; res is not poly.
    const slong length = slong(e) * (len - 1) + 1;
    const std::size_t out = raise(
        poly, std::size_t(len), e, [&](std::size_t) { return res; }, [&] { ::_fmpz_poly_pow(res, poly, len, e); });
    if (out) _fmpz_vec_zero(res + out, length - slong(out));
}

void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b)
{
    if (!res || !a || !b) throw Error(std::string("fmpz_poly_resultant: ") + (!res ? "res" : !a ? "a" : "b") + " is NULL");
    // A zero polynomial gives 0, as in FLINT: the host answers.
    if (a->length == 0 || b->length == 0) {
        set_last_backend(Backend::cpu);
        return fmpz_zero(res);
    }
    const poly::ZPoly first = operand(a->coeffs, std::size_t(a->length), kUntruncated, "a");
    const poly::ZPoly second = operand(b->coeffs, std::size_t(b->length), kUntruncated, "b");
    const std::uint64_t bound = resultant_bound_bits(a, b);
    // res is written once, at the end (it may be a coefficient of a or b).
    FmpzTemp value;
    poly::resultant(value.get(), first, second, bound, [&] { ::fmpz_poly_resultant(value.get(), a, b); });
    fmpz_swap(res, value.get());
}

void fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b)
{
    check_polys("fmpz_poly_mul", res, a, b);
    multiply(res, a, b, kUntruncated, [&](fmpz_poly_struct* p) { ::fmpz_poly_mul(p, a, b); });
}

void fmpz_poly_mullow(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, slong n)
{
    check_polys("fmpz_poly_mullow", res, a, b);
    if (n < 0) throw Error("fmpz_poly_mullow: n is negative (" + std::to_string(n) + ")");
    multiply(res, a, b, std::size_t(n), [&](fmpz_poly_struct* p) { ::fmpz_poly_mullow(p, a, b, n); });
}

void fmpz_poly_sqr(fmpz_poly_t res, const fmpz_poly_t a)
{
    check_polys("fmpz_poly_sqr", res, a, a);
    multiply(res, a, a, kUntruncated, [&](fmpz_poly_struct* p) { ::fmpz_poly_sqr(p, a); });
}

void _fmpz_poly_mul(fmpz* res, const fmpz* a, slong lena, const fmpz* b, slong lenb)
{
    const std::string f = "_fmpz_poly_mul";
    if (lenb < 1) throw Error(f + ": lenb is " + std::to_string(lenb) + ", at least 1 is needed");
    if (lena < lenb)
        throw Error(f + ": lena (" + std::to_string(lena) + ") is below lenb (" + std::to_string(lenb) + ")");
    if (!res) throw Error(f + ": res is NULL");
    if (!a) throw Error(f + ": a is NULL");
    if (!b) throw Error(f + ": b is NULL");
    // Every coefficient of res is written, top zeros included, as FLINT's does.
    const slong length = lena + lenb - 1;
    FmpzPolyTemp product;
    fmpz_poly_fit_length(product.get(), length);
    multiply(product.get(), a, std::size_t(lena), b, std::size_t(lenb), kUntruncated,
             [&](fmpz_poly_struct* p) { ::_fmpz_poly_mul(p->coeffs, a, lena, b, lenb); });
    for (slong i = 0; i < length; ++i) fmpz_swap(res + i, product.get()->coeffs + i);
}

}  // namespace zgpu
