// NTL-style products and determinants of mat_zz_p (zgpu/ntl_matrix.hpp). The GPU's matrix
// functions read and write the rows in place, with no copy (mat_zz_p_rows.hpp). The choice is
// the cost models of FLINT's nmod_mat functions (plugin/matrix/mat_choice.hpp); NTL's own
// functions are the CPU backend, and finish a call whose GPU failed (gpu_or_host.hpp). The
// determinant gives progress lines as FLINT's face does.
#include <bit>
#include <functional>
#include <string>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/ntl/mat_checks.hpp"
#include "plugin/ntl/mat_zz_p_rows.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu {

using ntl::modulus;
using ntl::rows_of;
using ntl::shape;

void mul(NTL::mat_zz_p& x, const NTL::mat_zz_p& a, const NTL::mat_zz_p& b)
{
    ntl::check_product(a, b, "mul");
    const std::size_t rows = std::size_t(a.NumRows()), inner = std::size_t(a.NumCols()), cols = std::size_t(b.NumCols());
    // Empty shapes and zero products stay with NTL, which may be called on them before any
    // modulus is set: the modulus is read after.
    const bool empty = rows == 0 || inner == 0 || cols == 0;
    const limb_t p = empty ? 0 : modulus();
    const matrix::MatShape s{rows, inner, cols, unsigned(std::bit_width(p - 1))};
    const Backend backend = empty ? Backend::cpu : choose(matrix::gpu_pays_for_nmod_mat_mul(s, host_threads()));
    run_on(
        backend,
        [&] {
            NTL::mat_zz_p product;  // x may be a or b
            product.SetDims(long(rows), long(cols));
            const Backend ran = gpu_or_host(
                [&] {
                    gpu::nmod_mat_mul(rows_of<const limb_t*>(a), rows_of<const limb_t*>(b), rows_of<limb_t*>(product), inner, cols, p);
                },
                [&] { NTL::mul(product, a, b); }, "a matrix product");
            NTL::swap(x, product);
            return ran;
        },
        [&] { NTL::mul(x, a, b); });
}

void determinant(NTL::zz_p& d, const NTL::mat_zz_p& a)
{
    ntl::check_square(a, "determinant");
    const std::size_t n = std::size_t(a.NumRows());
    const limb_t p = n == 0 ? 0 : modulus();
    // The primality test only where the GPU would run: small matrices stay as cheap as NTL's.
    const bool gpu_pays = n > 0 && matrix::gpu_pays_for_nmod_mat_lu(n, n, false, host_threads());
    Backend backend = n == 0 ? Backend::cpu : choose(gpu_pays);
    if (backend == Backend::gpu && !n_is_prime(p)) backend = Backend::cpu;
    // Lines as FLINT's face gives them (ZGPU_PROGRESS=1), by FLINT's cost model.
    Progress progress("determinant of mat_zz_p, " + shape(a) + " mod " + std::to_string(p), matrix::flint_nmod_mat_lu_seconds(n, n),
                      n);
    std::function<void(std::uint64_t)> columns_done;
    if (progress.on()) columns_done = [&](std::uint64_t columns) { progress.advance(columns); };
    // d is written once, at the end (it may be an entry of a).
    NTL::zz_p value;
    Backend ran = backend;
    run_on(
        backend,
        [&] {
            return ran = gpu_or_host([&] { value.LoopHole() = long(gpu::nmod_mat_det(rows_of<const limb_t*>(a), p, columns_done)); },
                                     [&] { NTL::determinant(value, a); }, "a determinant mod p");
        },
        [&] { NTL::determinant(value, a); });
    progress.ran_on(ran);
    d = value;
}

}  // namespace zgpu
