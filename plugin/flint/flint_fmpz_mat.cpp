// FLINT-style products, determinants, solutions and inverses of fmpz matrices: the argument checks, then
// plugin/matrix with FLINT's own functions as the CPU backend. The GPU reads the entries as one
// row-major array. The product goes straight into c's entries, reusing their memory as FLINT
// does, where a, b and c are whole, separate matrices; else (c is a or b, or a window) into a
// matrix of its own, swapped in at the end.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <flint/fmpz_mat.h>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "plugin/flint/fmpz_array.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/flint/fmpz_mat_temp.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_cramer.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/matrix.hpp"

namespace zgpu {
namespace {

std::string shape(const fmpz_mat_struct* m) { return std::to_string(m->r) + " x " + std::to_string(m->c); }

// Whether two matrices' entries may share memory: their address ranges meet.
bool overlap(const fmpz_mat_struct* x, const fmpz_mat_struct* y)
{
    if (!x->r || !x->c || !y->r || !y->c) return false;
    const std::less<const fmpz*> below;
    const fmpz *x_first = fmpz_mat_entry(x, 0, 0), *x_last = fmpz_mat_entry(x, x->r - 1, x->c - 1);
    const fmpz *y_first = fmpz_mat_entry(y, 0, 0), *y_last = fmpz_mat_entry(y, y->r - 1, y->c - 1);
    return !below(x_last, y_first) && !below(y_last, x_first);
}

matrix::ZMatrix operand(const RowMajor& m, const fmpz_mat_struct* shape_of, const char* name)
{
    const std::size_t count = std::size_t(shape_of->r) * std::size_t(shape_of->c);
    HostOperand entries = host_operand(adapters::FmpzReader(m.entries()), count, name);
    const std::uint64_t bits = max_bits(m.entries(), count, entries.max_limbs);
    return {std::move(entries), std::size_t(shape_of->r), std::size_t(shape_of->c), bits};
}

// x = den a^-1 b (b null: the identity) by Cramer's numerators modulo many primes on the GPU
// (fmpz_mat_cramer.hpp), its det first; flint() (which sets flint_answer) where the GPU does not
// serve. a square of more than 15 rows, Hadamard's bound `hadamard` > 0 bits, each numerator
// below 2^numerator_bits. Returns 1, or FLINT's answer; 0 with den = 0 for a singular a.
int solve_by_primes(fmpz_mat_struct* x, fmpz_t den, const fmpz_mat_struct* a, const fmpz_mat_struct* b, std::uint64_t hadamard,
                    std::uint64_t numerator_bits, const std::function<void()>& flint, const int& flint_answer)
{
    const RowMajor a_entries(a);
    const RowMajor b_entries(b ? b : a);
    const matrix::ZMatrix za = operand(a_entries, a, "a");
    const matrix::ZMatrix zb = b ? operand(b_entries, b, "b") : matrix::ZMatrix{};
    if (!za.entries.too_large.empty() || (b && !zb.entries.too_large.empty())) {
        run_on(Backend::cpu, {}, flint);
        return flint_answer;
    }
    FmpzTemp det;
    matrix::fmpz_mat_determinant(det.get(), za, hadamard, [&] { ::fmpz_mat_det(det.get(), a); });
    // Singular, decided exactly: FLINT returns 0 too, its output undefined.
    if (fmpz_is_zero(det.get())) {
        fmpz_zero(den);
        return 0;
    }
    // x and den are written once, at the end (x may be a or b).
    FmpzMatTemp solution(x->r, x->c);
    FmpzTemp common;
    const std::string what = b ? "fmpz_mat_solve, " + shape(a) + " by " + std::to_string(b->c) + " columns" : "fmpz_mat_inv, " + shape(a);
    Progress progress(what, matrix::flint_solve_by_primes_seconds(std::size_t(a->r), std::size_t(x->c), numerator_bits), 0);
    const std::optional<Backend> ran = gpu_unless_it_stands_aside(
        [&] {
            return matrix::fmpz_mat_solve_by_primes(fmpz_mat_entry(solution.get(), 0, 0), common.get(), za, b ? &zb : nullptr, det.get(),
                                                    numerator_bits, matrix::gpu_fmpz_mat_cramer);
        },
        flint, b ? "a solution" : "an inverse");
    progress.ran_on(ran.value_or(Backend::cpu));
    if (ran != Backend::gpu) {
        if (!ran) run_on(Backend::cpu, {}, flint);
        return flint_answer;
    }
    for (slong i = 0; i < x->r; ++i)
        for (slong j = 0; j < x->c; ++j) fmpz_swap(fmpz_mat_entry(x, i, j), fmpz_mat_entry(solution.get(), i, j));
    fmpz_swap(den, common.get());
    return 1;
}

}  // namespace

int fmpz_mat_solve(fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b)
{
    const std::string f = "fmpz_mat_solve: ";
    if (!x || !den || !a || !b) throw Error(f + (!x ? "x" : !den ? "den" : !a ? "a" : "b") + " is NULL");
    if (a->r != a->c) throw Error(f + "a is " + shape(a) + ", not square");
    if (b->r != a->r || x->r != b->r || x->c != b->c)
        throw Error(f + "shapes do not match: a " + shape(a) + ", b " + shape(b) + ", x " + shape(x));
    int nonsingular = 0;
    const auto flint = [&] { nonsingular = ::fmpz_mat_solve(x, den, a, b); };
    // Where FLINT's den is the lcm of the denominators (more than 15 rows), up to the lifting's
    // columns; a zero row (bound 0) is singular, FLINT's answer.
    const std::size_t n = std::size_t(a->r), cols = std::size_t(b->c);
    const matrix::SolveBounds bounds = n > matrix::kSolveAboveRows ? matrix::solve_bounds(a, b) : matrix::SolveBounds{};
    if (n > matrix::kSolveAboveRows && cols > matrix::kSolveMaxColumns && bounds.denominator_bits > 0 &&
        choose(matrix::gpu_pays_for_solve_by_primes(n, cols, bounds.denominator_bits, bounds.numerator_bits, host_threads())) != Backend::cpu)
        return solve_by_primes(x, den, a, b, bounds.denominator_bits, bounds.numerator_bits, flint, nonsingular);
    if (n <= matrix::kSolveAboveRows || cols == 0 || cols > matrix::kSolveMaxColumns || bounds.denominator_bits == 0) {
        run_on(Backend::cpu, {}, [&] {
            const FlintThreads threads(host_threads());
            flint();
        });
        return nonsingular;
    }
    const RowMajor a_entries(a), b_entries(b);
    const matrix::ZMatrix za = operand(a_entries, a, "a"), zb = operand(b_entries, b, "b");
    // x and den are written once, at the end (x may be a or b).
    FmpzMatTemp solution(a->r, b->c);
    FmpzTemp common;
    if (!matrix::fmpz_mat_solve(fmpz_mat_entry(solution.get(), 0, 0), common.get(), za, zb, bounds, flint)) return nonsingular;
    for (slong i = 0; i < x->r; ++i)
        for (slong j = 0; j < x->c; ++j) fmpz_swap(fmpz_mat_entry(x, i, j), fmpz_mat_entry(solution.get(), i, j));
    fmpz_swap(den, common.get());
    return 1;
}

int fmpz_mat_inv(fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a)
{
    const std::string f = "fmpz_mat_inv: ";
    if (!b || !den || !a) throw Error(f + (!b ? "b" : !den ? "den" : "a") + " is NULL");
    if (a->r != a->c) throw Error(f + "a is " + shape(a) + ", not square");
    if (b->r != a->r || b->c != a->c) throw Error(f + "b is " + shape(b) + ", a is " + shape(a));
    int invertible = 0;
    const auto flint = [&] {
        const FlintThreads threads(host_threads());
        invertible = ::fmpz_mat_inv(b, den, a);
    };
    // Where FLINT's den is the lcm of the denominators (more than 15 rows); a zero row (bound 0)
    // is singular, FLINT's answer.
    const std::size_t n = std::size_t(a->r);
    const std::uint64_t bound = n > matrix::kSolveAboveRows ? matrix::hadamard_bits(row_squared_norm_bits(a)) : 0;
    if (bound == 0 || choose(matrix::gpu_pays_for_solve_by_primes(n, n, bound, bound, host_threads())) == Backend::cpu) {
        run_on(Backend::cpu, {}, flint);
        return invertible;
    }
    return solve_by_primes(b, den, a, nullptr, bound, bound, flint, invertible);
}

void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a)
{
    if (!det || !a) throw Error(std::string("fmpz_mat_det: ") + (!det ? "det" : "a") + " is NULL");
    if (a->r != a->c) throw Error("fmpz_mat_det: a is " + shape(a) + ", not square");
    // The empty matrix's determinant is 1; a matrix with a zero row (Hadamard's bound 0) has 0:
    // the host's answers, without either backend's function.
    const std::uint64_t bound = a->r == 0 ? 1 : matrix::hadamard_bits(row_squared_norm_bits(a));
    if (a->r == 0 || bound == 0) {
        set_last_backend(Backend::cpu);
        return a->r == 0 ? fmpz_one(det) : fmpz_zero(det);
    }
    const RowMajor entries(a);
    const matrix::ZMatrix za = operand(entries, a, "a");
    // det is written once, at the end (it may be an entry of a).
    FmpzTemp value;
    matrix::fmpz_mat_determinant(value.get(), za, bound, [&] { ::fmpz_mat_det(value.get(), a); });
    fmpz_swap(det, value.get());
}

void fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b)
{
    const std::string f = "fmpz_mat_mul: ";
    if (!c || !a || !b) throw Error(f + (!c ? "c" : !a ? "a" : "b") + " is NULL");
    if (a->c != b->r || c->r != a->r || c->c != b->c)
        throw Error(f + "shapes do not match: a " + shape(a) + ", b " + shape(b) + ", c " + shape(c));
    // Empty shapes are the host's, as in zgpu_nmod_mat_mul.
    if (c->r == 0 || c->c == 0 || a->c == 0) {
        set_last_backend(Backend::cpu);
        return fmpz_mat_zero(c);
    }
    const auto start = std::chrono::steady_clock::now();
    const RowMajor a_entries(a), b_entries(b);
    const matrix::ZMatrix za = operand(a_entries, a, "a"), zb = operand(b_entries, b, "b");
    const auto read = std::chrono::steady_clock::now();
    // In place only among whole matrices: a window's rows (FLINT 2.9 swaps row pointers) need not
    // lie in address order, so its address range says nothing.
    const bool in_place = a_entries.whole() && b_entries.whole() && entries_contiguous(c) && !overlap(c, a) && !overlap(c, b);
    FmpzMatTemp own(in_place ? 0 : c->r, in_place ? 0 : c->c);
    fmpz_mat_struct* product = in_place ? c : own.get();
    const Backend ran = matrix::fmpz_mat_product(
        za, zb, [&] { ::fmpz_mat_mul(product, a, b); },
        [&](std::size_t from, ConstBatchView values) { adapters::unpack_fmpz_vec(values, fmpz_mat_entry(product, 0, 0) + from); });
    if (settings::timing() && ran == Backend::gpu) {
        const auto milliseconds = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        std::fprintf(stderr, "zgpu: fmpz_mat_mul: reading the operands' sizes and bits %.2f ms, the product %.2f ms\n",
                     milliseconds(read - start), milliseconds(std::chrono::steady_clock::now() - read));
    }
    if (in_place) return;
    for (slong i = 0; i < c->r; ++i)
        for (slong j = 0; j < c->c; ++j) fmpz_swap(fmpz_mat_entry(c, i, j), fmpz_mat_entry(product, i, j));
}

}  // namespace zgpu
