#include "plugin/matrix/nmod_mat_lu.hpp"

#include <string>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"
#include "plugin/host_ops/flint_threads.hpp"

namespace zgpu::matrix {
namespace {

template <class Result>
Result on_host(const nmod_mat_struct* a, Result (*flint)(const nmod_mat_struct*))
{
    const FlintThreads threads(nmod_mat_lu_uses_threads(std::size_t(a->r), std::size_t(a->c)) ? host_threads() : 1);
    return flint(a);
}

ulong flint_det(const nmod_mat_struct* a) { return ::nmod_mat_det(a); }
slong flint_rank(const nmod_mat_struct* a) { return ::nmod_mat_rank(a); }

ulong gpu_det(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)
{
    return gpu::nmod_mat_det(rows_of<const limb_t*>(a), a->mod.n, columns_done);
}
slong gpu_rank(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)
{
    return slong(gpu::nmod_mat_rank(rows_of<const limb_t*>(a), std::size_t(a->c), a->mod.n, columns_done));
}

bool empty(const nmod_mat_struct* a) { return a->r == 0 || a->c == 0; }
// The GPU's elimination needs a prime (FLINT's determinant takes any modulus) and an entry.
bool gpu_can(const nmod_mat_struct* a) { return !empty(a) && n_is_prime(a->mod.n); }

// `what` names the function for progress lines, `failure` the computation for the warning.
template <class Result, class Gpu>
Result on(Backend backend, const nmod_mat_struct* a, const Gpu& gpu, Result (*flint)(const nmod_mat_struct*), const char* what,
          const char* failure)
{
    // The primality test only where the GPU would run: small matrices stay as cheap as FLINT's.
    if (backend != Backend::cpu && !gpu_can(a)) backend = Backend::cpu;
    Progress progress(std::string(what) + ", " + std::to_string(a->r) + " x " + std::to_string(a->c) + " mod " + std::to_string(a->mod.n),
                      flint_nmod_mat_lu_seconds(std::size_t(a->r), std::size_t(a->c)), std::uint64_t(a->c));
    // Only where lines are shown: the GPU's determinant then waits for its panels now and then.
    std::function<void(std::uint64_t)> columns_done;
    if (progress.on()) columns_done = [&](std::uint64_t columns) { progress.advance(columns); };
    Result result{};
    const auto host = [&] { result = on_host(a, flint); };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = gpu_or_host([&] { result = gpu(a, columns_done); }, host, failure); }, host);
    progress.ran_on(ran);
    return result;
}

// ZGPU_BACKEND=gpu forces the GPU where it can run (on() tests that).
Backend choice(const nmod_mat_struct* a, bool rank_mode)
{
    if (empty(a)) return Backend::cpu;
    return choose(gpu_pays_for_nmod_mat_lu(std::size_t(a->r), std::size_t(a->c), rank_mode, host_threads()));
}

}  // namespace

ulong nmod_mat_lu_det_on(Backend backend, const nmod_mat_struct* a, const NmodMatDetGpu& gpu)
{
    return on(backend, a, gpu, flint_det, "nmod_mat_det", "a determinant mod p");
}

slong nmod_mat_lu_rank_on(Backend backend, const nmod_mat_struct* a, const NmodMatRankGpu& gpu)
{
    return on(backend, a, gpu, flint_rank, "nmod_mat_rank", "a rank mod p");
}

ulong nmod_mat_lu_det(const nmod_mat_struct* a) { return nmod_mat_lu_det_on(choice(a, false), a, gpu_det); }
slong nmod_mat_lu_rank(const nmod_mat_struct* a) { return nmod_mat_lu_rank_on(choice(a, true), a, gpu_rank); }

}  // namespace zgpu::matrix
