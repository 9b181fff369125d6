// FLINT-style products and resultants of nmod polynomials: the argument checks, then
// plugin/poly/nmod_products and plugin/poly/resultant.
#include <algorithm>
#include <string>
#include <vector>

#include <flint/ulong_extras.h>

#include "plugin/flint/nmod_checks.hpp"
#include "plugin/poly/nmod_products.hpp"
#include "plugin/poly/resultant.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

// "res", or "res[i]" for entry i of an array (i >= 0).
std::string name_of(const char* argument, slong i)
{
    return i < 0 ? std::string(argument) : std::string(argument) + "[" + std::to_string(i) + "]";
}

// The checks FLINT leaves to its caller: no NULL, one modulus for operands and result. Names
// are made only for the message: a batch checks every entry.
void check_product(const char* function, const nmod_poly_struct* res, const nmod_poly_struct* a,
                   const nmod_poly_struct* b, slong i = -1)
{
    const auto fail = [&](const std::string& why) { throw Error(std::string(function) + ": " + why); };
    if (!res) fail(name_of("res", i) + " is NULL");
    if (!a) fail(name_of("a", i) + " is NULL");
    if (!b) fail(name_of("b", i) + " is NULL");
    if (a->mod.n != b->mod.n || a->mod.n != res->mod.n)
        fail("different moduli: " + name_of("a", i) + " mod " + std::to_string(a->mod.n) + ", " + name_of("b", i) + " mod " +
             std::to_string(b->mod.n) + ", " + name_of("res", i) + " mod " + std::to_string(res->mod.n));
}

void one_product(const char* function, nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b,
                 slong trunc)
{
    check_product(function, res, a, b);
    const poly::PolyProduct product{res, a, b, trunc};
    poly::nmod_poly_products({&product, 1});
}

// A temporary nmod polynomial that frees itself.
class NmodPolyTemp {
public:
    explicit NmodPolyTemp(nmod_t mod) { nmod_poly_init_mod(&p_, mod); }
    ~NmodPolyTemp() { nmod_poly_clear(&p_); }
    NmodPolyTemp(const NmodPolyTemp&) = delete;
    NmodPolyTemp& operator=(const NmodPolyTemp&) = delete;
    nmod_poly_struct* get() { return &p_; }

private:
    nmod_poly_struct p_;
};

// (a, length) as a polynomial that the products only read, without its zeros on top; every
// coefficient checked below the modulus (FLINT's raw forms assume it).
nmod_poly_struct view_of(const std::string& function, const char* name, const ulong* a, slong length, nmod_t mod)
{
    check_reduced(function, name, a, length, mod.n);
    nmod_poly_struct view;
    view.coeffs = const_cast<ulong*>(a);  // read only: the products write their res alone
    view.alloc = length;
    view.length = length;
    view.mod = mod;
    _nmod_poly_normalise(&view);
    return view;
}

// The raw forms: res[0 .. n) = (a, lena) (b, lenb) mod x^n with FLINT's preconditions checked,
// every coefficient of res written (zeros on top included), as FLINT's do.
void raw_product(const std::string& f, ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, slong n, nmod_t mod)
{
    if (lenb < 1) throw Error(f + ": lenb is " + std::to_string(lenb) + ", at least 1 is needed");
    if (lena < lenb) throw Error(f + ": lena (" + std::to_string(lena) + ") is below lenb (" + std::to_string(lenb) + ")");
    if (n < 1 || n > lena + lenb - 1)
        throw Error(f + ": n is " + std::to_string(n) + ", not from 1 to lena + lenb - 1 = " + std::to_string(lena + lenb - 1));
    if (!res) throw Error(f + ": res is NULL");
    if (!a) throw Error(f + ": a is NULL");
    if (!b) throw Error(f + ": b is NULL");
    // Modulus 1, as FLINT's raw forms and zgpu's object forms take it: every product is 0.
    if (mod.n == 0) throw Error(f + ": the modulus is 0");
    const nmod_poly_struct x = view_of(f, "a", a, lena, mod);
    const nmod_poly_struct y = a == b && lena == lenb ? x : view_of(f, "b", b, lenb, mod);
    NmodPolyTemp product(mod);
    const poly::PolyProduct p{product.get(), &x, a == b && lena == lenb ? &x : &y, n};
    poly::nmod_poly_products({&p, 1});
    const slong written = std::min(n, product.get()->length);
    std::copy_n(product.get()->coeffs, written, res);
    std::fill(res + written, res + n, ulong(0));
}

}  // namespace

void _nmod_poly_mul(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, nmod_t mod)
{
    raw_product("_nmod_poly_mul", res, a, lena, b, lenb, lena + lenb - 1, mod);
}

void _nmod_poly_mullow(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, slong n, nmod_t mod)
{
    raw_product("_nmod_poly_mullow", res, a, lena, b, lenb, n, mod);
}

void _nmod_poly_sqr(ulong* res, const ulong* a, slong len, nmod_t mod)
{
    if (len < 1) throw Error("_nmod_poly_sqr: len is " + std::to_string(len) + ", at least 1 is needed");
    raw_product("_nmod_poly_sqr", res, a, len, a, len, 2 * len - 1, mod);
}

void nmod_poly_mul(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b) { one_product("nmod_poly_mul", res, a, b, -1); }

void nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n)
{
    if (n < 0) throw Error("nmod_poly_mullow: n is negative (" + std::to_string(n) + ")");
    one_product("nmod_poly_mullow", res, a, b, n);
}

void nmod_poly_sqr(nmod_poly_t res, const nmod_poly_t a) { one_product("nmod_poly_sqr", res, a, a, -1); }

ulong nmod_poly_resultant(const nmod_poly_t a, const nmod_poly_t b)
{
    const char* f = "nmod_poly_resultant";
    if (!a || !b) throw Error(std::string(f) + ": " + (!a ? "a" : "b") + " is NULL");
    if (a->mod.n != b->mod.n)
        throw Error(std::string(f) + ": different moduli: a mod " + std::to_string(a->mod.n) + ", b mod " + std::to_string(b->mod.n));
    // FLINT assumes a prime modulus (its sequence inverts leading coefficients); the GPU's
    // sequence needs one too.
    if (!n_is_prime(a->mod.n)) throw Error(std::string(f) + ": the modulus " + std::to_string(a->mod.n) + " is not prime");
    // FLINT gives 0 for a zero polynomial, and for a polynomial with itself (the same
    // coefficients), constants included: the host answers.
    if (a->length == 0 || b->length == 0 || a->coeffs == b->coeffs) {
        set_last_backend(Backend::cpu);
        return 0;
    }
    return poly::nmod_resultant(a->coeffs, std::size_t(a->length), b->coeffs, std::size_t(b->length), a->mod.n,
                                [&] { return ::nmod_poly_resultant(a, b); });
}

void nmod_poly_mul_many(nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b, slong count)
{
    const char* f = "nmod_poly_mul_many";
    if (count < 0) throw Error(std::string(f) + ": count is negative (" + std::to_string(count) + ")");
    if (count == 0) return;
    std::vector<poly::PolyProduct> products;
    products.reserve(std::size_t(count));
    for (slong i = 0; i < count; ++i) {
        check_product(f, res + i, a + i, b + i, i);
        products.push_back({res + i, a + i, b + i, -1});
    }
    poly::nmod_poly_products(products);
}

}  // namespace zgpu
