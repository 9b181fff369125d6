// NTL-style inverses and solutions of mat_zz_p (zgpu/ntl_matrix.hpp), in the frame of FLINT's
// faces (plugin/matrix/nmod_mat_inv.hpp): the GPU's inverse by blocks, which gives the
// determinant as it goes, where it pays and the modulus is prime; NTL's own functions otherwise,
// and where the GPU stands aside at a singular block (singular matrices among them). NTL's
// functions write the outputs as NTL does (what x holds where d = 0 included); the GPU's results
// go into temporaries first, so that outputs may alias inputs and a failure writes nothing.
#include <cstddef>
#include <string>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_inv.hpp"
#include "plugin/ntl/mat_checks.hpp"
#include "plugin/ntl/mat_zz_p_rows.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu {
namespace {

using ntl::column_rows;
using ntl::modulus;
using ntl::rows_of;
using ntl::check_square;
using ntl::check_system;

// d = det a and x with a x = b (a's rows as given, or its transpose's where `transposed`),
// x undefined where d = 0, as NTL's solve.
void solve_columns(NTL::zz_p& d, NTL::vec_zz_p& x, const NTL::mat_zz_p& a, const NTL::vec_zz_p& b, bool transposed)
{
    const std::size_t n = std::size_t(a.NumRows());
    const limb_t p = n == 0 ? 0 : modulus();
    const auto host = [&] {
        if (transposed) NTL::solve(d, x, a, b);
        else NTL::solve(d, a, x, b);
    };
    matrix::inverse_or_solution(
        n, p, matrix::gpu_pays_for_nmod_mat_solve(n, 1, host_threads()), "solve of mat_zz_p",
        [&] {
            NTL::mat_zz_p t;
            if (transposed) NTL::transpose(t, a);
            NTL::vec_zz_p solution;
            solution.SetLength(long(n));
            const limb_t det = gpu::nmod_mat_solve(rows_of<const limb_t*>(transposed ? t : a), column_rows<const limb_t*>(b), 1,
                                                   column_rows<limb_t*>(solution), p);
            if (det == 0) return false;
            move_into(x, solution);  // x may be a row of a matrix
            d.LoopHole() = long(det);
            return true;
        },
        host, host);
}

}  // namespace

void inv(NTL::zz_p& d, NTL::mat_zz_p& x, const NTL::mat_zz_p& a)
{
    check_square(a, "inv");
    const std::size_t n = std::size_t(a.NumRows());
    const limb_t p = n == 0 ? 0 : modulus();
    const auto host = [&] { NTL::inv(d, x, a); };
    matrix::inverse_or_solution(
        n, p, matrix::gpu_pays_for_nmod_mat_inv(n, host_threads()), "inverse of mat_zz_p",
        [&] {
            NTL::mat_zz_p inverse;
            inverse.SetDims(long(n), long(n));
            const limb_t det = gpu::nmod_mat_inv(rows_of<const limb_t*>(a), rows_of<limb_t*>(inverse), p);
            if (det == 0) return false;
            NTL::swap(x, inverse);
            d.LoopHole() = long(det);
            return true;
        },
        host, host);
}

void inv(NTL::mat_zz_p& x, const NTL::mat_zz_p& a)
{
    NTL::zz_p d;
    NTL::mat_zz_p inverse;
    zgpu::inv(d, inverse, a);
    if (d == 0) NTL::ArithmeticError("inv: non-invertible matrix");
    NTL::swap(x, inverse);
}

void solve(NTL::zz_p& d, const NTL::mat_zz_p& a, NTL::vec_zz_p& x, const NTL::vec_zz_p& b)
{
    check_system(a, b, "solve");
    solve_columns(d, x, a, b, false);
}

void solve(NTL::zz_p& d, NTL::vec_zz_p& x, const NTL::mat_zz_p& a, const NTL::vec_zz_p& b)
{
    check_system(a, b, "solve");
    solve_columns(d, x, a, b, true);
}

}  // namespace zgpu
