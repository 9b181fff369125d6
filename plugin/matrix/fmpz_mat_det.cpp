#include "plugin/matrix/fmpz_mat_det.hpp"

#include <cstdio>

#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/poly/flint_threads.hpp"
#include "plugin/poly/product_primes.hpp"
#include "zgpu/error.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's fmpz_mat_det on one thread (issue #21's table; it uses one thread whatever it is
// given): 400 x 400 of 64-bit entries (441 primes of the bound) 1.08 s, about 4e-11 s an
// elimination step n^3 a prime; 300 x 300 of 1024 bits far slower (118 s). The GPU: about 0.3 ms
// a call, the residues written and read (8 bytes each) at about 100 GB/s, and 3e-12 s a step
// n^3 / 3 a prime (a block a prime, the matrix in device memory).
constexpr double kFlintSecondsPerStepPrime = 4e-11;
constexpr double kGpuSecondsPerCall = 0.3e-3;
constexpr double kGpuResidueBytesPerSecond = 100e9;
constexpr double kGpuSecondsPerStepPrime = 3e-12;

std::vector<limb_t> gpu_residues(const ZMatrix& a, const PrimeSet& set)
{
    return gpu::fmpz_mat_det_residues(a.entries, a.rows, set.state().gpu_tables());
}

}  // namespace

std::uint64_t hadamard_bits(std::span<const fmpz* const> squared_norms)
{
    std::uint64_t bits = 0;
    for (const fmpz* s : squared_norms) {
        if (fmpz_is_zero(s)) return 0;
        bits += (fmpz_bits(s) + 1) / 2;
    }
    return bits;
}

bool gpu_pays_for_fmpz_mat_det(std::size_t n, std::size_t primes, unsigned)
{
    const double cube = double(n) * double(n) * double(n), k = double(primes);
    const double cpu = cube * k * kFlintSecondsPerStepPrime;
    const double gpu = kGpuSecondsPerCall + 16.0 * double(n) * double(n) * k / kGpuResidueBytesPerSecond +
                       cube / 3 * k * kGpuSecondsPerStepPrime;
    return gpu < cpu;
}

Backend fmpz_mat_determinant(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void()>& on_cpu)
{
    const std::size_t primes = std::size_t((bound_bits + 1) / 62 + 1);
    const bool gpu_pays = a.entries.too_large.empty() && gpu_pays_for_fmpz_mat_det(a.rows, primes, host_threads());
    return fmpz_mat_determinant_on(choose(gpu_pays), det, a, bound_bits, on_cpu, gpu_residues);
}

Backend fmpz_mat_determinant_on(Backend backend, fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits,
                                const std::function<void()>& on_cpu, const DetResiduesOnGpu& residues)
{
    if (!a.entries.too_large.empty()) backend = Backend::cpu;
    const auto on_host = [&] {
        const poly::FlintThreads threads(host_threads());
        on_cpu();
    };
    const auto on_gpu = [&] {
        // |det| < 2^bound_bits: primes whose product exceeds 2^(bound_bits + 1) give it back
        // from its signed residue.
        const PrimeSet set = poly::product_primes(bound_bits);
        std::vector<limb_t> r;
        try {
            r = residues(a, set);
        } catch (const Error& e) {
            if (backend_forced()) throw;
            std::fprintf(stderr, "zgpu: the GPU failed on a determinant (%s); the host computes it\n", e.what());
            on_host();
            return Backend::cpu;
        }
        const PrimeSet::State& state = set.state();
        CombTemp temp(state);
        fmpz_multi_CRT_ui(det, r.data(), state.comb, temp.get(), 1);
        return Backend::gpu;
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, on_host);
    return ran;
}

}  // namespace zgpu::matrix
