// FLINT-style division of fmpz vectors: exact (elementwise and by a scalar, unchecked or
// checked), floor and truncating quotient with remainder, and reduction by a scalar modulus.
// Every check runs before anything is written; the host dispatch chooses the host threads
// (FLINT's own functions) or the GPU.
#include <string>
#include <vector>

#include "plugin/flint/fmpz_array.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/host_ops/host_ops.hpp"
#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint.hpp"

namespace zgpu {
namespace {

// The index of the first zero divisor among divisor(0 .. n-1), or n.
template <class Divisor>
std::size_t first_zero(std::size_t n, Divisor divisor)
{
    for (std::size_t i = 0; i < n; ++i)
        if (fmpz_is_zero(divisor(i))) return i;
    return n;
}

template <class Divisor>
void require_nonzero(const std::string& name, const char* argument, std::size_t n, Divisor divisor)
{
    if (const std::size_t i = first_zero(n, divisor); i < n)
        throw Error(name + ": division by zero (" + argument + "[" + std::to_string(i) + "] is 0)");
}

// res[i] = a[i] / b[i] (b[0] if b has one entry), exact, where res = resize(), called once
// every check has passed. Checked: each quotient is computed aside and verified, the first
// inexact pair is reported by index, and res is written only if all are exact.
template <class Resize>
void divexact(Resize resize, const FmpzArray& a, std::size_t n, const FmpzArray& b, std::size_t b_count, bool checked,
              const std::string& name, const char* names[2])
{
    const auto divisor = [&](std::size_t i) { return *b.start + (b_count == 1 ? 0 : i); };
    require_nonzero(name, names[1], b_count, divisor);
    const auto dividend = [&](std::size_t i) { return *a.start + i; };
    const HostOperand pa = host_operand(a, n, names[0]), pb = host_operand(b, b_count, names[1]);
    const auto inexact = [&](std::size_t i) { return Error(name + ": entry " + std::to_string(i) + " does not divide exactly"); };
    if (!checked) {
        divexact_host(
            pa, n, pb, b_count,
            [&](std::size_t first, std::size_t last) {
                fmpz* res = resize();
                parallel_for(first, last, host_min_parallel(pa, pb), [&](std::size_t begin, std::size_t end) {
                    for (std::size_t i = begin; i < end; ++i) fmpz_divexact(res + i, dividend(i), divisor(i));
                });
            },
            [&](std::size_t first, ConstBatchView q) { adapters::unpack_fmpz_vec(q, resize() + first); });
        return;
    }
    const std::size_t first_inexact = divexact_checked_host(pa, n, pb, b_count, [&] {
        FmpzVecTemp quotients(n);
        std::vector<char> exact(n);
        parallel_for(n, host_min_parallel(pa, pb), [&](std::size_t begin, std::size_t end) {
            fmpz_t remainder;
            fmpz_init(remainder);
            for (std::size_t i = begin; i < end; ++i) {
                fmpz_tdiv_qr(quotients.data() + i, remainder, dividend(i), divisor(i));
                exact[i] = fmpz_is_zero(remainder);
            }
            fmpz_clear(remainder);
        });
        for (std::size_t i = 0; i < n; ++i)
            if (!exact[i]) throw inexact(i);
        fmpz* res = resize();
        for (std::size_t i = 0; i < n; ++i) fmpz_swap(res + i, quotients.data() + i);
    }, [&](std::size_t first, ConstBatchView q) { adapters::unpack_fmpz_vec(q, resize() + first); });
    if (first_inexact < n) throw inexact(first_inexact);
}

enum class Rounding { floor, truncate };

void div_qr(fmpz* q, fmpz* r, const fmpz* a, const fmpz* b, slong len, Rounding rounding, const char* name)
{
    if (len > 0 && !q) throw Error(std::string(name) + ": q is NULL with len = " + std::to_string(len));
    if (len > 0 && !r) throw Error(std::string(name) + ": r is NULL with len = " + std::to_string(len));
    check_vec_arguments(q, a, b, len, name);
    if (len > 0 && q == r) throw Error(std::string(name) + ": q and r are the same vector");
    const std::size_t n = std::size_t(len);
    require_nonzero(name, "vec2", n, [&](std::size_t i) { return b + i; });
    const FmpzArray dividends{&a, n}, divisors{&b, n};
    const HostOperand pa = host_operand(dividends, n, "vec1"), pb = host_operand(divisors, n, "vec2");
    // Element i is written once its dividend and divisor were read, so q and r may be a or b.
    div_host(rounding == Rounding::floor ? HostDivision::floor : HostDivision::truncate, pa, n, pb, n,
        [&](std::size_t first, std::size_t last) {
            parallel_for(first, last, host_min_parallel(pa, pb), [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    if (rounding == Rounding::floor) fmpz_fdiv_qr(q + i, r + i, a + i, b + i);
                    else fmpz_tdiv_qr(q + i, r + i, a + i, b + i);
                }
            });
        },
        [&](std::size_t first, ConstBatchView quotients, ConstBatchView remainders) {
            adapters::unpack_fmpz_vec(quotients, q + first);
            adapters::unpack_fmpz_vec(remainders, r + first);
        });
}

}  // namespace

namespace {

void vec_divexact(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len, bool checked, const char* name)
{
    check_vec_arguments(res, vec1, vec2, len, name);
    const std::size_t n = std::size_t(len);
    const char* names[2] = {"vec1", "vec2"};
    divexact([res] { return res; }, FmpzArray{&vec1, n}, n, FmpzArray{&vec2, n}, n, checked, name, names);
}

}  // namespace

void fmpz_vec_divexact(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    vec_divexact(res, vec1, vec2, len, false, "fmpz_vec_divexact");
}

void fmpz_vec_divexact_checked(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    vec_divexact(res, vec1, vec2, len, true, "fmpz_vec_divexact_checked");
}

namespace {

void scalar_divexact(fmpz* res, const fmpz* vec, slong len, const fmpz_t c, bool checked, const char* name)
{
    check_vec_arguments(res, vec, c, len, name, "vec", "c");
    if (len == 0) return;  // as FLINT: c is not read, so c = 0 is no error
    const FmpzCopy copy(c);  // c may be an entry of res
    const fmpz* divisor = copy.get();
    if (fmpz_is_zero(divisor)) throw Error(std::string(name) + ": division by zero (c is 0)");
    const std::size_t n = std::size_t(len);
    const char* names[2] = {"vec", "c"};
    divexact([res] { return res; }, FmpzArray{&vec, n}, n, FmpzArray{&divisor, 1}, 1, checked, name, names);
}

}  // namespace

void fmpz_vec_scalar_divexact_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    scalar_divexact(res, vec, len, c, false, "fmpz_vec_scalar_divexact_fmpz");
}

void fmpz_vec_scalar_divexact_fmpz_checked(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    scalar_divexact(res, vec, len, c, true, "fmpz_vec_scalar_divexact_fmpz_checked");
}

void fmpz_vec_fdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len)
{
    div_qr(q, r, vec1, vec2, len, Rounding::floor, "fmpz_vec_fdiv_qr");
}

void fmpz_vec_tdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len)
{
    div_qr(q, r, vec1, vec2, len, Rounding::truncate, "fmpz_vec_tdiv_qr");
}

namespace {

// res[i] = a[i] mod p for p > 0, res = resize() once every check has passed; p is read first.
template <class Resize>
void scalar_mod(Resize resize, const FmpzArray& a, std::size_t n, const fmpz_t p, const std::string& name, const char* names[2])
{
    const FmpzCopy copy(p);  // p may be an entry of the result
    const fmpz* modulus = copy.get();
    if (fmpz_sgn(modulus) <= 0)
        throw Error(name + ": " + (fmpz_is_zero(modulus) ? "division by zero (" + std::string(names[1]) + " is 0)"
                                                         : std::string(names[1]) + " is negative, FLINT requires " + names[1] + " > 0"));
    const FmpzArray m{&modulus, 1};
    const HostOperand pa = host_operand(a, n, names[0]), pm = host_operand(m, 1, names[1]);
    div_host(HostDivision::mod, pa, n, pm, 1,
        [&](std::size_t first, std::size_t last) {
            fmpz* res = resize();
            parallel_for(first, last, host_min_parallel(pa, pm), [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) fmpz_mod(res + i, *a.start + i, modulus);
            });
        },
        [&](std::size_t first, ConstBatchView, ConstBatchView r) { adapters::unpack_fmpz_vec(r, resize() + first); });
}

}  // namespace

void fmpz_vec_scalar_mod_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t p)
{
    const char* name = "fmpz_vec_scalar_mod_fmpz";
    check_vec_arguments(res, vec, p, len, name, "vec", "p");
    if (len == 0) return;  // as FLINT: p is not read, so p <= 0 is no error
    const std::size_t n = std::size_t(len);
    const char* names[2] = {"vec", "p"};
    scalar_mod([res] { return res; }, FmpzArray{&vec, n}, n, p, name, names);
}

void fmpz_poly_scalar_divexact_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    const std::string name = "fmpz_poly_scalar_divexact_fmpz";
    const std::size_t n = check_poly_arguments(res, poly, x, name);
    const FmpzCopy copy(x);  // x may be a coefficient of res
    const fmpz* divisor = copy.get();
    if (fmpz_is_zero(divisor)) throw Error(name + ": division by zero (x is 0)");
    const char* names[2] = {"poly", "x"};
    divexact(poly_output(res, n), FmpzArray{&poly->coeffs, n}, n, FmpzArray{&divisor, 1}, 1, false, name, names);
    finish_poly(res, n);
}

void fmpz_poly_scalar_mod_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    const std::string name = "fmpz_poly_scalar_mod_fmpz";
    const std::size_t n = check_poly_arguments(res, poly, x, name);
    const char* names[2] = {"poly", "x"};
    scalar_mod(poly_output(res, n), FmpzArray{&poly->coeffs, n}, n, x, name, names);
    finish_poly(res, n);
}

}  // namespace zgpu
