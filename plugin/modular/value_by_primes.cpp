#include "plugin/modular/value_by_primes.hpp"

#include "base/parallel.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/modular/product_primes.hpp"

namespace zgpu {

Backend value_by_primes(Backend backend, fmpz_t value, const ValueByPrimes& call, const ResiduesOnGpu& residues,
                        const std::function<void()>& on_cpu)
{
    if (!call.packable || call.bound_bits > PrimeSet::kMaxBits) backend = Backend::cpu;
    Progress progress(call.call + ", a bound of " + std::to_string(call.bound_bits) + " bits", call.flint_seconds, 0);
    const auto on_host = [&] {
        const FlintThreads threads(host_threads());
        on_cpu();
    };
    const auto on_gpu = [&] {
        // |value| < 2^bound_bits: primes whose product exceeds 2^(bound_bits + 1) give it back
        // from its signed residue.
        const PrimeSet set = product_primes(call.bound_bits);
        progress.set_total(set.moduli().size());
        // Only where lines are shown: counting costs the GPU's wait a poll.
        std::function<void(std::uint64_t)> primes_done;
        if (progress.on()) primes_done = [&](std::uint64_t primes) { progress.advance(primes); };
        return gpu_or_host([&] { crt_one(value, residues(set, primes_done), set.state()); }, on_host, call.value);
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, on_host);
    progress.ran_on(ran);
    return ran;
}

}  // namespace zgpu
