// NTL-style products and determinants of mat_ZZ through plugin/matrix (the entries read and
// written as ZZ, row by row: each row of a mat_ZZ is a vector of its own), NTL's own mul and
// determinant (its deterministic strategy) as the CPU backend. On the GPU a product goes to a
// matrix of its own, swapped into x at the end, so that x may be an operand.
#include <algorithm>
#include <string>
#include <vector>

#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
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
    const auto unpack = [&](std::size_t first, ConstBatchView values) {
        // A chunk of entries may span rows: one row's part at a time.
        for (std::size_t done = 0; done < values.count;) {
            const std::size_t at = first + done, i = at / std::size_t(cols), j = at % std::size_t(cols);
            const std::size_t n = std::min(std::size_t(cols) - j, values.count - done);
            adapters::unpack_zz_array({values.limbs + done * values.stride, values.sizes + done, n, values.stride},
                                      product[long(i)].elts() + j);
            done += n;
        }
    };
    if (matrix::fmpz_mat_product(za, zb, [&] { NTL::mul(x, a, b); }, unpack) == Backend::gpu) NTL::swap(x, product);
}

void determinant(NTL::ZZ& d, const NTL::mat_ZZ& a)
{
    ntl::check_square(a, "determinant");
    const long n = a.NumRows();
    // The empty matrix's determinant is 1; a zero row (Hadamard's bound 0) gives 0: the host's.
    std::vector<std::uint64_t> norm_bits(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
        NTL::ZZ norm;
        for (long j = 0; j < n; ++j) norm += a[i][j] * a[i][j];
        norm_bits[std::size_t(i)] = std::uint64_t(NTL::NumBits(norm));
    }
    const std::uint64_t bound = n == 0 ? 1 : matrix::hadamard_bits(norm_bits);
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

}  // namespace zgpu
