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
namespace {

// FLINT's answer by flint() on its threads, or gpu()'s where the choice picks the GPU (`pays`)
// and the modulus is prime; gpu() stands aside (returns false) where a block is singular, and
// flint_after_gpu() answers then (FLINT's function, called so that the plugin does not send its
// inner calls to the GPU again).
int inverse_or_solution(const nmod_mat_struct* a, bool pays, const std::string& what, const std::function<bool()>& gpu,
                        const std::function<int()>& flint, const std::function<int()>& flint_after_gpu)
{
    const std::size_t n = std::size_t(a->r);
    int result = 0;
    const auto on_threads = [&](const std::function<int()>& f) {
        const FlintThreads threads(nmod_mat_lu_uses_threads(n, n) ? host_threads() : 1);
        result = f();
    };
    const auto host = [&] { on_threads(flint); };
    // The primality test only where the GPU would run: small matrices stay as cheap as FLINT's.
    Backend backend = n < 2 ? Backend::cpu : choose(pays);
    if (backend != Backend::cpu && !n_is_prime(a->mod.n)) backend = Backend::cpu;
    Progress progress(what + ", " + std::to_string(n) + " x " + std::to_string(n) + " mod " + std::to_string(a->mod.n),
                      flint_nmod_mat_lu_seconds(n, n), 0);
    std::optional<Backend> ran;
    if (backend != Backend::cpu)
        ran = gpu_unless_it_stands_aside(
            [&] {
                if (!gpu()) return false;
                result = 1;
                return true;
            },
            host, what.c_str());
    if (backend == Backend::cpu) run_on(Backend::cpu, {}, host);
    // A singular block: FLINT answers, singular matrices included.
    else if (!ran) run_on(Backend::cpu, {}, [&] { on_threads(flint_after_gpu); });
    progress.ran_on(ran.value_or(Backend::cpu));
    return result;
}

}  // namespace

int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a)
{
    const std::size_t n = std::size_t(a->r);
    return inverse_or_solution(
        a, gpu_pays_for_nmod_mat_inv(n, host_threads()), "nmod_mat_inv",
        [&] { return gpu::nmod_mat_inv(rows_of<const limb_t*>(a), rows_of<limb_t*>(b), a->mod.n); }, [&] { return ::nmod_mat_inv(b, a); },
        [&] {
            // FLINT's inverse from two rows on, as FLINT computes it: a solution against the
            // identity. Called from here, the plugin passes that solution straight to FLINT.
            nmod_mat_t identity;
            nmod_mat_init(identity, a->r, a->r, a->mod.n);
            nmod_mat_one(identity);
            const int invertible = ::nmod_mat_solve(b, a, identity);
            nmod_mat_clear(identity);
            return invertible;
        });
}

int nmod_mat_solution(nmod_mat_struct* x, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const std::size_t n = std::size_t(a->r), cols = std::size_t(b->c);
    // FLINT answers 1 at once for an empty system.
    if (n == 0 || cols == 0) return ::nmod_mat_solve(x, a, b);
    return inverse_or_solution(
        a, gpu_pays_for_nmod_mat_solve(n, cols, host_threads()), "nmod_mat_solve",
        [&] { return gpu::nmod_mat_solve(rows_of<const limb_t*>(a), rows_of<const limb_t*>(b), cols, rows_of<limb_t*>(x), a->mod.n); },
        [&] { return ::nmod_mat_solve(x, a, b); }, [&] { return ::nmod_mat_solve(x, a, b); });
}

}  // namespace zgpu::matrix
