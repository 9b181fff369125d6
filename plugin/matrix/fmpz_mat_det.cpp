#include "plugin/matrix/fmpz_mat_det.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/value_by_primes.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's fmpz_mat_det (one thread whatever it is given) on the H200 host
// (bench/results/2026-11-26-h200-matrix-det-3eca5f2.md): 20 x 20 of 64-bit entries 0.49 ms, and
// about (n / 20)^2.4 times that at n x n (4.6 ms at 50, 121 ms at 200, 892 ms at 400); about
// (b / 64)^1.6 times more for b bits an entry of the bound (100 x 100 of 1024 bits: 1.54 s).
constexpr double kFlintSeconds20x64 = 0.49e-3;
constexpr double kFlintSizeExponent = 2.4, kFlintBitsExponent = 1.6;
// The GPU (bench/results/2026-11-26-h200-det-ecce7e2.md): about 0.45 ms a call; 9 microseconds a
// column (a pivot's search, inversion and three synchronisations) for each wave of matrices the
// GPU holds at once (four blocks on each of the H200's 132 SMs); and 2.1e-12 s an elimination
// step n^3 / 3 a prime (400 x 400 modulo 439 primes: 19.9 ms; 300 x 300 modulo 4975: 91 ms).
constexpr double kGpuSecondsPerCall = 0.45e-3;
constexpr double kGpuSecondsPerColumn = 9e-6;
constexpr double kGpuMatricesAtOnce = 4 * 132;
constexpr double kGpuSecondsPerStepPrime = 2.1e-12;
constexpr double kPrimeBits = 62;

std::vector<limb_t> gpu_residues(const ZMatrix& a, const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done)
{
    return gpu::fmpz_mat_det_residues(a.entries, a.rows, set.state().gpu_reduction_tables(), primes_done);
}

}  // namespace

std::uint64_t hadamard_bits(std::span<const std::uint64_t> squared_norm_bits)
{
    std::uint64_t bits = 0;
    for (const std::uint64_t b : squared_norm_bits) {
        if (b == 0) return 0;
        bits += (b + 1) / 2;
    }
    return bits;
}

double flint_det_seconds(std::size_t n, std::uint64_t bound_bits)
{
    const double size = double(n), bits_per_row = std::max(1.0, double(bound_bits) / size);
    return kFlintSeconds20x64 * std::pow(size / 20, kFlintSizeExponent) * std::pow(bits_per_row / 64, kFlintBitsExponent);
}

bool gpu_pays_for_fmpz_mat_det(std::size_t n, std::uint64_t bound_bits)
{
    const double size = double(n);
    const double cpu = flint_det_seconds(n, bound_bits);
    const double primes = double(bound_bits + 1) / kPrimeBits + 1;
    const double waves = std::ceil(primes / kGpuMatricesAtOnce);
    const double gpu =
        kGpuSecondsPerCall + size * kGpuSecondsPerColumn * waves + size * size * size / 3 * primes * kGpuSecondsPerStepPrime;
    return gpu < cpu;
}

Backend fmpz_mat_determinant(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void()>& on_cpu)
{
    const bool gpu_pays = a.entries.too_large.empty() && gpu_pays_for_fmpz_mat_det(a.rows, bound_bits);
    return fmpz_mat_determinant_on(choose(gpu_pays), det, a, bound_bits, on_cpu, gpu_residues);
}

Backend fmpz_mat_determinant_on(Backend backend, fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits,
                                const std::function<void()>& on_cpu, const DetResiduesOnGpu& residues)
{
    const std::string n = std::to_string(a.rows);
    return value_by_primes(
        backend, det,
        {"fmpz_mat_det, " + n + " x " + n, "a determinant", bound_bits, flint_det_seconds(a.rows, bound_bits),
         a.entries.too_large.empty()},
        [&](const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done) { return residues(a, set, primes_done); },
        on_cpu);
}

}  // namespace zgpu::matrix
