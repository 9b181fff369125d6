// NTL-style echelon forms, images and kernels of mat_zz_p (zgpu/ntl_matrix.hpp): the GPU's LU
// gives NTL's pivots (lu_forms.hpp), where the modulus is prime and the LU's cost model picks the
// GPU (matrix::on_lu, FLINT's faces' frame); NTL's own functions otherwise: composite moduli,
// empty matrices, gauss stopped at a column before the last. gauss's LU goes into m's rows, which
// the GPU writes only once it has read them; image's and kernel's into a temporary, so that x
// may be a. A failure writes nothing.
#include <cstddef>
#include <string>

#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/matrix/nmod_mat_echelon.hpp"
#include "plugin/ntl/lu_forms.hpp"
#include "plugin/ntl/mat_zz_p_rows.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu {
namespace {

using ntl::modulus;
using ntl::rows_of;

// on_lu for a, with the GPU's LU of a written into the rows of `into(a's rows, a's columns)` (a
// itself, or a temporary); on_gpu(that matrix, pivots) then makes the answer. The modulus is
// read only where a has an entry: NTL's functions may be called on empty matrices before any
// modulus is set.
template <class Into, class OnGpu, class OnHost>
void from_lu(const NTL::mat_zz_p& a, const char* what, const char* failure, const Into& into, const OnGpu& on_gpu, const OnHost& on_host)
{
    const std::size_t rows = std::size_t(a.NumRows()), cols = std::size_t(a.NumCols());
    const limb_t p = rows == 0 || cols == 0 ? 0 : modulus();
    matrix::on_lu(
        rows, cols, p, what, failure,
        [&](const std::function<void(std::uint64_t)>& columns_done) {
            NTL::mat_zz_p& lu = into(a.NumRows(), a.NumCols());
            const gpu::LuPivots pivots = gpu::nmod_mat_lu(rows_of<const limb_t*>(a), cols, p, rows_of<limb_t*>(lu), columns_done);
            on_gpu(lu, pivots);
        },
        on_host);
}

// A fresh matrix of the given shape, kept by the caller.
auto fresh(NTL::mat_zz_p& keep)
{
    return [&keep](long rows, long cols) -> NTL::mat_zz_p& {
        keep.SetDims(rows, cols);
        return keep;
    };
}

}  // namespace

long gauss(NTL::mat_zz_p& m)
{
    long rank = 0;
    // The LU into m's own rows: the GPU writes them once it has read them, or not at all; the
    // zeros after it cannot fail.
    from_lu(
        m, "gauss of mat_zz_p", "an echelon form mod p", [&](long, long) -> NTL::mat_zz_p& { return m; },
        [&](NTL::mat_zz_p& lu, const gpu::LuPivots& pivots) {
            ntl::echelon_from_lu(lu, pivots);
            rank = long(pivots.columns.size());
        },
        [&] { rank = NTL::gauss(m); });
    return rank;
}

long gauss(NTL::mat_zz_p& m, long w)
{
    if (w < 0 || w > m.NumCols()) throw Error("gauss: w = " + std::to_string(w) + " with " + std::to_string(m.NumCols()) + " columns");
    return w == m.NumCols() ? zgpu::gauss(m) : NTL::gauss(m, w);
}

void image(NTL::mat_zz_p& x, const NTL::mat_zz_p& a)
{
    NTL::mat_zz_p factors;  // x may be a
    from_lu(
        a, "image of mat_zz_p", "an image mod p", fresh(factors),
        [&](NTL::mat_zz_p& lu, const gpu::LuPivots& pivots) {
            ntl::echelon_from_lu(lu, pivots);
            lu.SetDims(long(pivots.columns.size()), lu.NumCols());
            NTL::swap(x, lu);
        },
        [&] { NTL::image(x, a); });
}

void kernel(NTL::mat_zz_p& x, const NTL::mat_zz_p& a)
{
    NTL::mat_zz_p factors;
    from_lu(
        a, "kernel of mat_zz_p", "a kernel mod p", fresh(factors),
        [&](const NTL::mat_zz_p& lu, const gpu::LuPivots& pivots) { ntl::kernel_from_lu(x, lu, pivots); },
        [&] { NTL::kernel(x, a); });
}

}  // namespace zgpu
