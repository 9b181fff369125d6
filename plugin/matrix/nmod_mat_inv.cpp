#include "plugin/matrix/nmod_mat_inv.hpp"

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

int nmod_mat_inverse(nmod_mat_struct* b, const nmod_mat_struct* a)
{
    const std::size_t n = std::size_t(a->r);
    int result = 0;
    const auto host = [&] {
        const FlintThreads threads(nmod_mat_lu_uses_threads(n, n) ? host_threads() : 1);
        result = ::nmod_mat_inv(b, a);
    };
    // The primality test only where the GPU would run: small matrices stay as cheap as FLINT's.
    Backend backend = n < 2 ? Backend::cpu : choose(gpu_pays_for_nmod_mat_inv(n, host_threads()));
    if (backend != Backend::cpu && !n_is_prime(a->mod.n)) backend = Backend::cpu;
    Progress progress("nmod_mat_inv, " + std::to_string(n) + " x " + std::to_string(n) + " mod " + std::to_string(a->mod.n),
                      flint_nmod_mat_lu_seconds(n, n), 0);
    if (backend == Backend::cpu) {
        run_on(Backend::cpu, {}, host);
        progress.ran_on(Backend::cpu);
        return result;
    }
    const std::optional<Backend> ran = gpu_unless_it_stands_aside(
        [&] {
            if (!gpu::nmod_mat_inv(rows_of<const limb_t*>(a), rows_of<limb_t*>(b), a->mod.n)) return false;
            result = 1;
            return true;
        },
        host, "an inverse mod p");
    // A singular block: FLINT answers, singular matrices included.
    if (!ran) run_on(Backend::cpu, {}, host);
    progress.ran_on(ran.value_or(Backend::cpu));
    return result;
}

}  // namespace zgpu::matrix
