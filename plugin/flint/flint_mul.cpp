// FLINT-style products of fmpz vectors (pointwise, squares, by a scalar) and of fmpz_poly by a
// scalar.
#include <string>

#include "plugin/flint/fmpz_array.hpp"
#include "plugin/host_ops/host_ops.hpp"
#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint.hpp"

namespace zgpu {
namespace {

// res[i] = a[i] * b[i], or a[i] * b[0] with b of one element; squares with b == nullptr.
// resize() runs once every check has passed, before each write, and returns where to write
// (see flint_add_sub.cpp).
template <class Resize>
void multiply(Resize resize, const FmpzArray& a, std::size_t n, const FmpzArray* b_or_square, std::size_t b_count,
              const char* names[2])
{
    const FmpzArray& b = b_or_square ? *b_or_square : a;
    const HostOperand pa = host_operand(a, n, names[0]);
    const HostOperand pb = b_or_square ? host_operand(b, b_count, names[1]) : HostOperand{};
    mul_host(
        pa, n, b_or_square ? pb : pa, b_count,
        [&](std::size_t first, std::size_t last) {
            fmpz* res = resize();
            parallel_for(first, last, host_min_parallel(pa, b_or_square ? pb : pa), [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i)
                    fmpz_mul(res + i, *a.start + i, *b.start + (b_count == 1 ? 0 : i));
            });
        },
        [&](std::size_t first, ConstBatchView r) { adapters::unpack_fmpz_vec(r, resize() + first); });
}

// res[i] +-= vec[i] * c, c copied first (it may be an entry of res).
void scalar_addmul(fmpz* res, const fmpz* vec, slong len, const fmpz_t c, bool subtract)
{
    const char* name = subtract ? "fmpz_vec_scalar_submul_fmpz" : "fmpz_vec_scalar_addmul_fmpz";
    if (!c) throw Error(std::string(name) + ": c is NULL");
    check_vec_arguments(res, vec, c, len, name, "vec", "c");
    const std::size_t n = std::size_t(len);
    const FmpzCopy copy(c);
    const fmpz* scalar = copy.get();
    const fmpz* current = res;
    const FmpzArray r{&current, n}, a{&vec, n}, b{&scalar, 1};
    const HostOperand pr = host_operand(r, n, "res"), pa = host_operand(a, n, "vec"), pb = host_operand(b, 1, "c");
    addmul_host(
        pr, pa, n, pb, 1, subtract,
        [&](std::size_t first, std::size_t last) {
            parallel_for(first, last, host_min_parallel(pa, pb), [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    if (subtract) fmpz_submul(res + i, vec + i, scalar);
                    else fmpz_addmul(res + i, vec + i, scalar);
                }
            });
        },
        [&](std::size_t first, ConstBatchView sum) { adapters::unpack_fmpz_vec(sum, res + first); });
}

}  // namespace

void fmpz_vec_scalar_addmul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    scalar_addmul(res, vec, len, c, false);
}

void fmpz_vec_scalar_submul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    scalar_addmul(res, vec, len, c, true);
}

void fmpz_vec_mul(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    check_vec_arguments(res, vec1, vec2, len, "fmpz_vec_mul");
    const char* names[2] = {"vec1", "vec2"};
    const FmpzArray b{&vec2, std::size_t(len)};
    multiply([res] { return res; }, {&vec1, std::size_t(len)}, std::size_t(len), vec1 == vec2 ? nullptr : &b, std::size_t(len), names);
}

void fmpz_vec_sqr(fmpz* res, const fmpz* vec, slong len)
{
    check_vec_arguments(res, vec, vec, len, "fmpz_vec_sqr", "vec", "vec");
    const char* names[2] = {"vec", "vec"};
    multiply([res] { return res; }, {&vec, std::size_t(len)}, std::size_t(len), nullptr, std::size_t(len), names);
}

void fmpz_vec_scalar_mul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    if (!c) throw Error("fmpz_vec_scalar_mul_fmpz: c is NULL");
    check_vec_arguments(res, vec, c, len, "fmpz_vec_scalar_mul_fmpz", "vec", "c");
    const char* names[2] = {"vec", "c"};
    const FmpzCopy copy(c);
    const fmpz* scalar = copy.get();
    const FmpzArray b{&scalar, 1};
    multiply([res] { return res; }, {&vec, std::size_t(len)}, std::size_t(len), &b, 1, names);
}

void fmpz_poly_scalar_mul_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    const std::size_t n = check_poly_arguments(res, poly, x, "fmpz_poly_scalar_mul_fmpz");
    const FmpzCopy copy(x);  // x may be a coefficient of res
    const fmpz* scalar = copy.get();
    const char* names[2] = {"poly", "x"};
    const FmpzArray b{&scalar, 1};
    multiply(poly_output(res, n), {&poly->coeffs, n}, n, &b, 1, names);
    finish_poly(res, n);  // x = 0 leaves zero coefficients
}

}  // namespace zgpu
