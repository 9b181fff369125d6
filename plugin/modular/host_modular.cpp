#include "plugin/modular/host_modular.hpp"

#include "base/parallel.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/modular_choice.hpp"
#include "zgpu/backend.hpp"

namespace zgpu {

void multi_mod_host(const PrimeSet& set, const HostOperand& x, std::size_t count, const FmpzSource& value,
                    std::span<limb_t* const> residues)
{
    if (set.size() == 0) return set_last_backend(Backend::cpu);  // no residues to write
    const PrimeSet::State& state = set.state();
    const auto on_cpu = [&](std::size_t first) { cpu_multi_mod(state, first, count, value, residues); };
    // The GPU's residues of a value travel as one batch element: at most kMaxLimbs moduli.
    const bool gpu_pays = x.too_large.empty() && set.size() <= kMaxLimbs &&
                          gpu_pays_for_host_multi_mod({x.max_limbs, set.size(), count}, host_threads());
    const auto on_gpu = [&] {
        x.require_packable();
        return gpu::host_multi_mod(x, count, state.gpu_tables(), residues, on_cpu);
    };
    run_on(choose(gpu_pays), on_gpu, [&] { on_cpu(0); });
}

void multi_crt_host(const PrimeSet& set, std::span<const limb_t* const> residues, std::size_t count, bool sign,
                    const FmpzSink& sink, const HostResult& on_gpu_result)
{
    if (set.size() == 0) {  // P = 1: every value is 0
        set_last_backend(Backend::cpu);
        FmpzTemp zero;
        for (std::size_t e = 0; e < count; ++e) {
            fmpz_zero(zero.get());
            sink(e, zero.get());
        }
        return;
    }
    const PrimeSet::State& state = set.state();
    const auto on_cpu = [&](std::size_t first) { cpu_multi_crt(state, first, count, residues, sign, sink); };
    // Results of P's limbs must fit a batch on the GPU (k up to 65536 moduli).
    const bool gpu_pays = state.product_limbs <= kMaxLimbs &&
                          gpu_pays_for_host_multi_crt({state.product_limbs, set.size(), count}, host_threads());
    const auto on_gpu = [&] {
        return gpu::host_multi_crt(residues, count, state.gpu_tables(), sign, on_gpu_result, on_cpu);
    };
    run_on(choose(gpu_pays), on_gpu, [&] { on_cpu(0); });
}

}  // namespace zgpu
