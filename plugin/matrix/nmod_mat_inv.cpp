#include "plugin/matrix/nmod_mat_inv.hpp"

#include <functional>
#include <optional>
#include <string>

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

void inverse_or_solution(std::size_t n, limb_t p, bool pays, const std::string& what, const std::function<bool()>& gpu,
                         const std::function<void()>& host, const std::function<void()>& host_after_gpu)
{
    // The primality test only where the GPU would run: small matrices stay as cheap as the host's.
    Backend backend = n < 2 ? Backend::cpu : choose(pays);
    if (backend != Backend::cpu && !n_is_prime(p)) backend = Backend::cpu;
    Progress progress(what + ", " + std::to_string(n) + " x " + std::to_string(n) + " mod " + std::to_string(p),
                      flint_nmod_mat_lu_seconds(n, n), 0);
    std::optional<Backend> ran;
    if (backend != Backend::cpu) ran = gpu_unless_it_stands_aside(gpu, host, what.c_str());
    if (backend == Backend::cpu) run_on(Backend::cpu, {}, host);
    // A singular block: the host answers, singular matrices included.
    else if (!ran) run_on(Backend::cpu, {}, host_after_gpu);
    progress.ran_on(ran.value_or(Backend::cpu));
}

namespace {

// FLINT's function on its threads where its LU would use them.
std::function<void()> on_flint_threads(std::size_t n, int& result, const std::function<int()>& flint)
{
    return [n, &result, flint] {
        const FlintThreads threads(nmod_mat_lu_uses_threads(n, n) ? host_threads() : 1);
        result = flint();
    };
}

// A GPU way that sets result to 1 where it served.
std::function<bool()> gpu_result(int& result, const std::function<limb_t()>& gpu)
{
    return [&result, gpu] {
        if (gpu() == 0) return false;
        result = 1;
        return true;
    };
}

}  // namespace

int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a)
{
    const std::size_t n = std::size_t(a->r);
    int result = 0;
    inverse_or_solution(
        n, a->mod.n, gpu_pays_for_nmod_mat_inv(n, host_threads()), "nmod_mat_inv",
        gpu_result(result, [&] { return gpu::nmod_mat_inv(rows_of<const limb_t*>(a), rows_of<limb_t*>(b), a->mod.n); }),
        on_flint_threads(n, result, [&] { return ::nmod_mat_inv(b, a); }), on_flint_threads(n, result, [&] {
            // FLINT's inverse from two rows on, as FLINT computes it: a solution against the
            // identity. Called from here, the plugin passes that solution straight to FLINT.
            nmod_mat_t identity;
            nmod_mat_init(identity, a->r, a->r, a->mod.n);
            nmod_mat_one(identity);
            const int invertible = ::nmod_mat_solve(b, a, identity);
            nmod_mat_clear(identity);
            return invertible;
        }));
    return result;
}

int nmod_mat_solution(nmod_mat_struct* x, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const std::size_t n = std::size_t(a->r), cols = std::size_t(b->c);
    // FLINT answers 1 at once for an empty system.
    if (n == 0 || cols == 0) return ::nmod_mat_solve(x, a, b);
    int result = 0;
    const std::function<void()> flint = on_flint_threads(n, result, [&] { return ::nmod_mat_solve(x, a, b); });
    inverse_or_solution(
        n, a->mod.n, gpu_pays_for_nmod_mat_solve(n, cols, host_threads()), "nmod_mat_solve",
        gpu_result(result,
                   [&] {
                       return gpu::nmod_mat_solve(rows_of<const limb_t*>(a), rows_of<const limb_t*>(b), cols, rows_of<limb_t*>(x),
                                                  a->mod.n);
                   }),
        flint, flint);
    return result;
}

}  // namespace zgpu::matrix
