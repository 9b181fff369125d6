// FLINT-style add/sub entry points: fmpz vectors and fmpz_poly.
#include <string>

#include "plugin/flint/fmpz_array.hpp"
#include "plugin/host_ops/host_ops.hpp"
#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint.hpp"

namespace zgpu {
namespace {

// Below this many elements threads cost more than they save, even for small values.
constexpr std::size_t kMinParallel = 512;

// res[0 .. n) = a +- b. resize() runs once every check has passed, before each write (the GPU
// path writes chunk by chunk while later chunks are read), and returns where to write; the
// first call may move a or b when res aliases them, later ones find the size already there.
template <class Resize>
void add_sub(const FmpzArray& a, const FmpzArray& b, std::size_t n, bool subtract, const char* names[2],
             Resize resize)
{
    add_sub_host(
        [&] { return host_operand(a, n, names[0]); }, [&] { return host_operand(b, n, names[1]); }, n, subtract,
        [&](std::size_t first, std::size_t last) {
            fmpz* res = resize();
            const fmpz zero = 0;
            parallel_for(first, last, kMinParallel, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    if (subtract) fmpz_sub(res + i, a.at(i, &zero), b.at(i, &zero));
                    else fmpz_add(res + i, a.at(i, &zero), b.at(i, &zero));
                }
            });
        },
        [&](std::size_t first, ConstBatchView r) { adapters::unpack_fmpz_vec(r, resize() + first); });
}

void vec_add_sub(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len, bool subtract)
{
    const char* name = subtract ? "fmpz_vec_sub" : "fmpz_vec_add";
    check_vec_arguments(res, vec1, vec2, len, name);
    const char* names[2] = {"vec1", "vec2"};
    const std::size_t n = std::size_t(len);
    add_sub({&vec1, n}, {&vec2, n}, n, subtract, names, [res] { return res; });
}

void poly_add_sub(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2, bool subtract)
{
    const std::string f = subtract ? "fmpz_poly_sub" : "fmpz_poly_add";
    if (!res) throw Error(f + ": res is NULL");
    if (!poly1) throw Error(f + ": poly1 is NULL");
    if (!poly2) throw Error(f + ": poly2 is NULL");
    const std::size_t len1 = poly1->length, len2 = poly2->length, n = std::max(len1, len2);
    const char* names[2] = {"poly1", "poly2"};
    const fmpz* const* coeffs1 = &poly1->coeffs;
    const fmpz* const* coeffs2 = &poly2->coeffs;
    add_sub({coeffs1, len1}, {coeffs2, len2}, n, subtract, names, poly_output(res, n));
    finish_poly(res, n);
}

}  // namespace

void fmpz_vec_add(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len) { vec_add_sub(res, vec1, vec2, len, false); }
void fmpz_vec_sub(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len) { vec_add_sub(res, vec1, vec2, len, true); }

void fmpz_poly_add(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    poly_add_sub(res, poly1, poly2, false);
}

void fmpz_poly_sub(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    poly_add_sub(res, poly1, poly2, true);
}

}  // namespace zgpu
