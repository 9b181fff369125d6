// FLINT-style products of nmod polynomials: the argument checks, then plugin/poly/nmod_products.
#include <string>
#include <vector>

#include "plugin/poly/nmod_products.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

std::string index_name(const char* array, slong i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

// The checks FLINT leaves to its caller: no NULL, one modulus for operands and result.
void check_product(const char* function, const nmod_poly_struct* res, const nmod_poly_struct* a,
                   const nmod_poly_struct* b, const std::string& res_name, const std::string& a_name,
                   const std::string& b_name)
{
    const std::string f = std::string(function) + ": ";
    if (!res) throw Error(f + res_name + " is NULL");
    if (!a) throw Error(f + a_name + " is NULL");
    if (!b) throw Error(f + b_name + " is NULL");
    if (a->mod.n != b->mod.n || a->mod.n != res->mod.n)
        throw Error(f + "different moduli: " + a_name + " mod " + std::to_string(a->mod.n) + ", " + b_name + " mod " +
                    std::to_string(b->mod.n) + ", " + res_name + " mod " + std::to_string(res->mod.n));
}

void one_product(const char* function, nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b,
                 slong trunc)
{
    check_product(function, res, a, b, "res", "a", "b");
    const poly::PolyProduct product{res, a, b, trunc};
    poly::nmod_poly_products({&product, 1});
}

}  // namespace

void nmod_poly_mul(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b) { one_product("nmod_poly_mul", res, a, b, -1); }

void nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n)
{
    if (n < 0) throw Error("nmod_poly_mullow: n is negative (" + std::to_string(n) + ")");
    one_product("nmod_poly_mullow", res, a, b, n);
}

void nmod_poly_sqr(nmod_poly_t res, const nmod_poly_t a) { one_product("nmod_poly_sqr", res, a, a, -1); }

void nmod_poly_mul_many(nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b, slong count)
{
    const char* f = "nmod_poly_mul_many";
    if (count < 0) throw Error(std::string(f) + ": count is negative (" + std::to_string(count) + ")");
    if (count == 0) return;
    std::vector<poly::PolyProduct> products;
    products.reserve(std::size_t(count));
    for (slong i = 0; i < count; ++i) {
        check_product(f, res + i, a + i, b + i, index_name("res", i), index_name("a", i), index_name("b", i));
        products.push_back({res + i, a + i, b + i, -1});
    }
    poly::nmod_poly_products(products);
}

}  // namespace zgpu
