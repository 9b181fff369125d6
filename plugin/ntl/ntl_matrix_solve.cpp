// NTL-style solutions over Z of mat_ZZ (zgpu/ntl_matrix.hpp): x a = d b, that is a^T x = d b for
// a column x. On the GPU the lifting of fmpz_mat_solve (plugin/matrix/fmpz_mat_solve.hpp) on a's
// transpose, read in place (each row of a mat_ZZ is a vector of its own); NTL's solve1 and solve
// are the CPU backend, and answer where the lifting stands aside (singular matrices among them).
// Outputs are written once, at the end, so that they may be inputs.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "plugin/host_ops/dispatch.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/ntl/mat_checks.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_adapter.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu {
namespace {

using ntl::check_system;

// The entries of a's transpose in row-major order (entry (r, c) is a[c][r]), looked up at each access.
struct TransposedEntries {
    const NTL::mat_ZZ* a;
    std::size_t n;

    std::int64_t size(std::size_t i) const { return adapters::ZZReader((*a)[long(i % n)].elts()).size(i / n); }
    void copy(std::size_t i, limb_t* dst) const { adapters::ZZReader((*a)[long(i % n)].elts()).copy(i / n, dst); }
};

// Cramer's bounds of a^T y = b (matrix::solve_bounds's, from a's columns and b's entries).
matrix::SolveBounds transposed_bounds(const NTL::mat_ZZ& a, const NTL::vec_ZZ& b)
{
    const long n = a.NumRows();
    const std::size_t size = static_cast<std::size_t>(n);
    std::vector<std::uint64_t> column_bits(size), with_b_bits(size);
    for (long c = 0; c < n; ++c) {
        NTL::ZZ norm;
        for (long r = 0; r < n; ++r) norm += a[r][c] * a[r][c];
        column_bits[std::size_t(c)] = std::uint64_t(NTL::NumBits(norm));
        norm += b[c] * b[c];
        with_b_bits[std::size_t(c)] = std::uint64_t(NTL::NumBits(norm));
    }
    return {matrix::hadamard_bits(with_b_bits), matrix::hadamard_bits(column_bits)};
}

}  // namespace

void solve1(NTL::ZZ& d, NTL::vec_ZZ& x, const NTL::mat_ZZ& a, const NTL::vec_ZZ& b)
{
    check_system(a, b, "solve1");
    const long n = a.NumRows();
    const auto ntl = [&] { NTL::solve1(d, x, a, b); };
    // FLINT's solution is the lifting's (d minimal) from 16 rows on; a zero column is singular.
    const matrix::SolveBounds bounds = n > long(matrix::kSolveAboveRows) ? transposed_bounds(a, b) : matrix::SolveBounds{};
    if (bounds.denominator_bits == 0) return run_on(Backend::cpu, {}, ntl);
    long b_bits = 0;
    for (long i = 0; i < n; ++i) b_bits = std::max(b_bits, NTL::NumBits(b[i]));
    const std::size_t size = std::size_t(n);
    const matrix::ZMatrix at{host_operand(TransposedEntries{&a, size}, size * size, "a"), size, size, max_bits(a)};
    const matrix::ZMatrix column{host_operand(adapters::ZZReader(b.elts()), size, "b"), size, 1, std::uint64_t(b_bits)};
    FmpzVecTemp solution{std::size_t(n)};
    FmpzTemp den;
    if (!matrix::fmpz_mat_solve(solution.data(), den.get(), at, column, bounds, ntl)) return;
    NTL::vec_ZZ values;
    values.SetLength(n);
    for (long i = 0; i < n; ++i) set_zz(values[i], solution.data() + i);
    move_into(x, values);  // x may be a row of a matrix
    set_zz(d, den.get());
}

void solve(NTL::ZZ& d, NTL::vec_ZZ& x, const NTL::mat_ZZ& a, const NTL::vec_ZZ& b)
{
    check_system(a, b, "solve");
    NTL::ZZ det;
    zgpu::determinant(det, a);
    // A singular a: NTL's own, which leaves x as NTL leaves it.
    if (det == 0) return run_on(Backend::cpu, {}, [&] { NTL::solve(d, x, a, b, 1); });
    // x1 a = d1 b with d1 minimal, which divides det: x = x1 det / d1.
    NTL::ZZ d1;
    NTL::vec_ZZ x1;
    zgpu::solve1(d1, x1, a, b);
    const NTL::ZZ scale = det / d1;
    for (long i = 0; i < x1.length(); ++i) x1[i] *= scale;
    move_into(x, x1);
    d = det;
}

}  // namespace zgpu
