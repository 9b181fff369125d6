#include "plugin/matrix/nmod_mat_echelon.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"

namespace zgpu::matrix {
namespace {

std::size_t rows(const nmod_mat_struct* a) { return std::size_t(a->r); }
std::size_t cols(const nmod_mat_struct* a) { return std::size_t(a->c); }

// FLINT's function on its threads where its LU would use them.
void on_flint_threads(const nmod_mat_struct* a, const std::function<void()>& flint)
{
    const FlintThreads threads(nmod_mat_lu_uses_threads(rows(a), cols(a)) ? host_threads() : 1);
    flint();
}

Backend backend_of(const nmod_mat_struct* a) { return lu_backend(rows(a), cols(a), a->mod.n); }

void lu_on_backend(const nmod_mat_struct* a, const char* what, const char* failure, const LuOnGpu& gpu, const std::function<void()>& host)
{
    on_lu(rows(a), cols(a), a->mod.n, what, failure, gpu, host);
}

// The LU of a into its own rows on the GPU.
gpu::LuPivots gpu_lu(nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)
{
    return gpu::nmod_mat_lu(rows_of<const limb_t*>(a), cols(a), a->mod.n, rows_of<limb_t*>(a), columns_done);
}

// a (its LU in FLINT's form, pivots in pivot_columns) becomes its reduced row echelon form, as
// FLINT's _nmod_mat_rref: L cleared; the pivot columns of U's rows become the identity's and
// the other columns U_p^-1 times themselves, U_p the pivot columns' triangle.
void echelon_from_lu(nmod_mat_struct* a, const std::vector<std::size_t>& pivot_columns)
{
    const std::size_t rank = pivot_columns.size(), n = cols(a);
    parallel_rows(rows(a), n, [&](std::size_t i) {
        for (std::size_t j = 0; j < std::min(i, rank); ++j) nmod_mat_entry(a, i, j) = 0;
    });
    std::vector<std::size_t> others;
    for (std::size_t j = 0, t = 0; j < n; ++j)
        if (t < rank && pivot_columns[t] == j) ++t;
        else others.push_back(j);
    if (!others.empty() && rank > 0) {
        NmodMatTemp u_temp{slong(rank), slong(rank), a->mod.n}, v_temp{slong(rank), slong(others.size()), a->mod.n};
        nmod_mat_struct *u = u_temp.get(), *v = v_temp.get();
        parallel_rows(rank, n, [&](std::size_t i) {
            for (std::size_t t = i; t < rank; ++t) nmod_mat_entry(u, i, t) = nmod_mat_entry(a, i, pivot_columns[t]);
            for (std::size_t k = 0; k < others.size(); ++k) nmod_mat_entry(v, i, k) = nmod_mat_entry(a, i, others[k]);
        });
        solve_upper_triangular(v, u);
        parallel_rows(rank, n, [&](std::size_t i) {
            for (std::size_t k = 0; k < others.size(); ++k) nmod_mat_entry(a, i, others[k]) = nmod_mat_entry(v, i, k);
        });
    }
    parallel_rows(rank, n, [&](std::size_t i) {
        for (std::size_t t = i; t < rank; ++t) nmod_mat_entry(a, i, pivot_columns[t]) = i == t;
    });
}

}  // namespace

Backend lu_backend(std::size_t rows, std::size_t cols, limb_t p)
{
    if (rows == 0 || cols == 0) return Backend::cpu;
    const Backend backend = choose(gpu_pays_for_nmod_mat_lu_factors(rows, cols, host_threads()));
    return backend != Backend::cpu && !n_is_prime(p) ? Backend::cpu : backend;
}

void on_lu(std::size_t rows, std::size_t cols, limb_t p, const std::string& what, const char* failure, const LuOnGpu& gpu,
           const std::function<void()>& host)
{
    const Backend backend = lu_backend(rows, cols, p);
    Progress progress(what + ", " + std::to_string(rows) + " x " + std::to_string(cols) + " mod " + std::to_string(p),
                      flint_nmod_mat_lu_seconds(rows, cols), std::uint64_t(cols));
    std::function<void(std::uint64_t)> columns_done;
    if (progress.on()) columns_done = [&](std::uint64_t columns) { progress.advance(columns); };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = gpu_or_host([&] { gpu(columns_done); }, host, failure); }, host);
    progress.ran_on(ran);
}

// Where the GPU fails the host finishes: its callers' LU is written already.
void solve_upper_triangular(nmod_mat_struct* v, const nmod_mat_struct* u)
{
    const auto host = [&] { on_flint_threads(u, [&] { ::nmod_mat_solve_triu(v, u, v, 0); }); };
    const Backend backend = choose(gpu_pays_for_nmod_mat_solve_triu(rows(u), cols(v), host_threads()));
    if (backend == Backend::cpu) return host();
    const auto gpu = [&] {
        NmodMatTemp x(v->r, v->c, v->mod.n);
        const limb_t det =
            gpu::nmod_mat_solve(rows_of<const limb_t*>(u), rows_of<const limb_t*>(v), cols(v), rows_of<limb_t*>(x.get()), u->mod.n);
        // A triangular matrix's leading blocks are triangular with the same nonzero diagonal:
        // the block recursion does not stand aside.
        if (det == 0) throw Error("the block recursion stood aside on a triangular matrix");
        nmod_mat_swap(v, x.get());
    };
    gpu_or_host(gpu, host, "a triangular solve mod p", [] { return true; });
}

slong nmod_mat_factor_lu(slong* P, nmod_mat_struct* a, int rank_check)
{
    slong rank = 0;
    const auto host = [&] { on_flint_threads(a, [&] { rank = ::nmod_mat_lu(P, a, rank_check); }); };
    const auto gpu = [&](const std::function<void(std::uint64_t)>& columns_done) {
        const gpu::LuPivots pivots = gpu_lu(a, columns_done);
        for (slong i = 0; i < a->r; ++i) P[i] = i;
        for (std::size_t t = 0; t < pivots.rows.size(); ++t) std::swap(P[t], P[pivots.rows[t]]);
        rank = slong(pivots.columns.size());
        // FLINT's check fails at the first column without a pivot while rows are left: the
        // pivots are then not the columns 0, 1, ... up to the shorter side.
        bool leading = pivots.columns.size() == std::min(rows(a), cols(a));
        for (std::size_t t = 0; t < pivots.columns.size() && leading; ++t) leading = pivots.columns[t] == t;
        if (rank_check && !leading) rank = 0;
    };
    lu_on_backend(a, "nmod_mat_lu", "an LU mod p", gpu, host);
    return rank;
}

slong nmod_mat_reduced_echelon(nmod_mat_struct* a)
{
    slong rank = 0;
    const auto host = [&] { on_flint_threads(a, [&] { rank = ::nmod_mat_rref(a); }); };
    const auto gpu = [&](const std::function<void(std::uint64_t)>& columns_done) {
        const gpu::LuPivots pivots = gpu_lu(a, columns_done);
        rank = slong(pivots.columns.size());
        echelon_from_lu(a, pivots.columns);
    };
    lu_on_backend(a, "nmod_mat_rref", "a reduced row echelon form mod p", gpu, host);
    return rank;
}

slong nmod_mat_null_space(nmod_mat_struct* x, const nmod_mat_struct* a)
{
    if (backend_of(a) == Backend::cpu) {
        slong nullity = 0;
        on_flint_threads(a, [&] { nullity = ::nmod_mat_nullspace(x, a); });
        return nullity;
    }
    nmod_mat_t echelon;
    nmod_mat_init_set(echelon, a);
    const std::size_t rank = std::size_t(nmod_mat_reduced_echelon(echelon)), n = cols(a);
    // Row i's pivot is its first nonzero entry; each other column k gives the vector with 1 in
    // row k and minus column k's entries of the echelon form in the pivot rows.
    std::vector<std::size_t> pivots, others;
    for (std::size_t j = 0; j < n; ++j)
        if (pivots.size() < rank && nmod_mat_entry(echelon, pivots.size(), j) != 0) pivots.push_back(j);
        else others.push_back(j);
    nmod_mat_zero(x);
    for (std::size_t k = 0; k < others.size(); ++k) {
        nmod_mat_entry(x, others[k], k) = 1;
        for (std::size_t i = 0; i < rank; ++i) {
            const ulong e = nmod_mat_entry(echelon, i, others[k]);
            nmod_mat_entry(x, pivots[i], k) = e == 0 ? 0 : a->mod.n - e;
        }
    }
    nmod_mat_clear(echelon);
    return slong(others.size());
}

}  // namespace zgpu::matrix
