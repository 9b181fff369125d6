#include "plugin/ntl/lu_forms.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>

#include <flint/nmod_mat.h>

#include "base/parallel.hpp"
#include "plugin/matrix/nmod_mat_echelon.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"
#include "plugin/ntl/mat_zz_p_rows.hpp"

namespace zgpu::ntl {

void echelon_from_lu(NTL::mat_zz_p& lu, const gpu::LuPivots& pivots)
{
    const std::size_t rank = pivots.columns.size();
    parallel_rows(std::size_t(lu.NumRows()), std::size_t(lu.NumCols()), [&](std::size_t i) {
        const long zeros = i < rank ? long(pivots.columns[i]) : lu.NumCols();
        std::fill_n(lu[long(i)].elts(), zeros, NTL::zz_p());
    });
}

void kernel_from_lu(NTL::mat_zz_p& x, const NTL::mat_zz_p& lu, const gpu::LuPivots& pivots)
{
    const long n = lu.NumRows(), r = long(pivots.columns.size()), nullity = n - r;
    const limb_t p = modulus();
    const auto l = [&](long row, long k) { return limb_t(NTL::rep(lu[row][k])); };
    // Rows of u and v, or of the basis, on the host threads.
    const auto each_row = [&](long rows, long length, const std::function<void(long)>& body) {
        parallel_rows(std::size_t(rows), std::size_t(length), [&](std::size_t i) { body(long(i)); });
    };
    NTL::mat_zz_p basis;
    basis.SetDims(nullity, n);
    if (r > 0 && nullity > 0) {
        // L11^T v = -L21^T: v's column i is y of row i.
        matrix::NmodMatTemp upper(r, r, p), right(r, nullity, p);
        nmod_mat_struct* const u = upper.get();
        nmod_mat_struct* const v = right.get();
        each_row(r, n, [&](long k) {
            nmod_mat_entry(u, k, k) = 1;
            for (long j = k + 1; j < r; ++j) nmod_mat_entry(u, k, j) = l(j, k);
            for (long i = 0; i < nullity; ++i) {
                const limb_t e = l(r + i, k);
                nmod_mat_entry(v, k, i) = e == 0 ? 0 : p - e;
            }
        });
        matrix::solve_upper_triangular(v, u);
        each_row(nullity, r, [&](long i) {
            for (long k = 0; k < r; ++k) basis[i][k].LoopHole() = long(nmod_mat_entry(v, k, i));
        });
    }
    each_row(nullity, n, [&](long i) {
        basis[i][r + i].LoopHole() = 1;
        for (long k = r - 1; k >= 0; --k) {
            const long swapped = long(pivots.rows[std::size_t(k)]);
            if (swapped != k) std::swap(basis[i][swapped], basis[i][k]);
        }
    });
    NTL::swap(x, basis);
}

}  // namespace zgpu::ntl
