// NTL-style products, determinants and inverses of mat_ZZ through plugin/matrix (the entries
// read and written as ZZ, row by row: each row of a mat_ZZ is a vector of its own), NTL's own
// mul, determinant and inv (their deterministic strategy) as the CPU backend. On the GPU a
// product or an inverse goes to a matrix of its own, swapped into x at the end, so that x may be
// an operand.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/matrix/fmpz_mat_cramer.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/ntl/mat_checks.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_adapter.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu {
namespace {

// The entries of a mat_ZZ in row-major order, looked up at each access.
struct MatEntries {
    const NTL::mat_ZZ* m;
    std::size_t cols;

    std::int64_t size(std::size_t i) const { return adapters::ZZReader((*m)[long(i / cols)].elts()).size(i % cols); }
    void copy(std::size_t i, limb_t* dst) const { adapters::ZZReader((*m)[long(i / cols)].elts()).copy(i % cols, dst); }
};

matrix::ZMatrix operand(const NTL::mat_ZZ& m, const char* name)
{
    const std::size_t rows = std::size_t(m.NumRows()), cols = std::size_t(m.NumCols());
    return {host_operand(MatEntries{&m, cols}, rows * cols, name), rows, cols, max_bits(m)};
}

// Writes values, entries first .. of m in row-major order: one row's part at a time (a chunk of
// entries may span rows).
void unpack_rows(NTL::mat_ZZ& m, std::size_t first, ConstBatchView values)
{
    const std::size_t cols = std::size_t(m.NumCols());
    for (std::size_t done = 0; done < values.count;) {
        const std::size_t at = first + done, i = at / cols, j = at % cols, n = std::min(cols - j, values.count - done);
        adapters::unpack_zz_array({values.limbs + done * values.stride, values.sizes + done, n, values.stride}, m[long(i)].elts() + j);
        done += n;
    }
}

// Hadamard's bound of a square mat_ZZ in bits (0 where a row is zero).
std::uint64_t hadamard_bits_of(const NTL::mat_ZZ& a)
{
    const long n = a.NumRows();
    std::vector<std::uint64_t> norm_bits(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
        NTL::ZZ norm;
        for (long j = 0; j < n; ++j) norm += a[i][j] * a[i][j];
        norm_bits[std::size_t(i)] = std::uint64_t(NTL::NumBits(norm));
    }
    return matrix::hadamard_bits(norm_bits);
}

}  // namespace

void mul(NTL::mat_ZZ& x, const NTL::mat_ZZ& a, const NTL::mat_ZZ& b)
{
    ntl::check_product(a, b, "mul");
    const long rows = a.NumRows(), cols = b.NumCols();
    if (rows == 0 || cols == 0 || a.NumCols() == 0) {  // empty shapes and zero products: NTL's
        set_last_backend(Backend::cpu);
        return NTL::mul(x, a, b);
    }
    const matrix::ZMatrix za = operand(a, "a"), zb = operand(b, "b");
    NTL::mat_ZZ product;
    product.SetDims(rows, cols);
    const auto unpack = [&](std::size_t first, ConstBatchView values) { unpack_rows(product, first, values); };
    if (matrix::fmpz_mat_product(za, zb, [&] { NTL::mul(x, a, b); }, unpack) == Backend::gpu) NTL::swap(x, product);
}

void determinant(NTL::ZZ& d, const NTL::mat_ZZ& a)
{
    ntl::check_square(a, "determinant");
    const long n = a.NumRows();
    // The empty matrix's determinant is 1; a zero row (Hadamard's bound 0) gives 0: the host's.
    const std::uint64_t bound = n == 0 ? 1 : hadamard_bits_of(a);
    if (n == 0 || bound == 0) {
        set_last_backend(Backend::cpu);
        d = n == 0 ? 1 : 0;
        return;
    }
    // d is written once, at the end (it may be an entry of a).
    FmpzTemp value;
    NTL::ZZ from_ntl;
    const Backend ran = matrix::fmpz_mat_determinant(value.get(), operand(a, "a"), bound, [&] { NTL::determinant(from_ntl, a, 1); });
    if (ran == Backend::gpu) set_zz(d, value.get());
    else d = from_ntl;
}

void inv(NTL::ZZ& d, NTL::mat_ZZ& x, const NTL::mat_ZZ& a)
{
    ntl::check_square(a, "inv");
    const long n = a.NumRows();
    const auto ntl = [&] { NTL::inv(d, x, a, 1); };
    const std::size_t size = std::size_t(n);
    const std::uint64_t bound = n == 0 ? 0 : hadamard_bits_of(a);
    // A zero row is singular: NTL's answer, as below the cost model's size.
    if (bound == 0 || choose(matrix::gpu_pays_for_solve_by_primes(size, size, bound, bound, host_threads())) == Backend::cpu)
        return run_on(Backend::cpu, {}, ntl);
    const matrix::ZMatrix za = operand(a, "a");
    FmpzTemp det;
    NTL::ZZ from_ntl;
    // A determinant the choice left to NTL: a matrix NTL inverts as fast.
    if (matrix::fmpz_mat_determinant(det.get(), za, bound, [&] { NTL::determinant(from_ntl, a, 1); }) != Backend::gpu)
        return run_on(Backend::cpu, {}, ntl);
    // Singular, decided exactly: d = 0, x untouched.
    if (fmpz_is_zero(det.get())) {
        d = 0;
        return;
    }
    // x = d a^-1 is the adjugate; written once, at the end (x may be a).
    NTL::mat_ZZ adjugate;
    adjugate.SetDims(n, n);
    const std::optional<Backend> ran = gpu_unless_it_stands_aside(
        [&] {
            return matrix::cramer_numerators(za, nullptr, det.get(), bound, matrix::gpu_fmpz_mat_cramer,
                                             [&](std::size_t first, ConstBatchView values) { unpack_rows(adjugate, first, values); });
        },
        ntl, "an inverse");
    if (ran == Backend::gpu) {
        NTL::swap(x, adjugate);
        set_zz(d, det.get());
    } else if (!ran) {
        run_on(Backend::cpu, {}, ntl);
    }
}

}  // namespace zgpu
