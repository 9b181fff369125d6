#include "plugin/poly/resultant.hpp"

#include <algorithm>
#include <cmath>

#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/poly/flint_threads.hpp"
#include "plugin/poly/product_primes.hpp"

namespace zgpu::poly {
namespace {

// FLINT 3.6's fmpz_poly_resultant (one thread) on an H100 host, from the issue: both lengths 500
// with 64-bit coefficients 0.53 s, 1000 with 256 bits 14.7 s, 2000 with 64 bits 29.4 s; about
// L^2.9 and linear in the bits. Not yet measured here: a first model, to be fitted.
constexpr double kFlintSeconds500x64 = 0.53;
constexpr double kFlintLengthExponent = 2.9;
// The GPU, by the counts of bench/NOTES-resultants.md: about 0.3 ms a call, 2 L^2 steps of a
// remainder sequence a prime, at det_mod's 1.3e11 steps a second on the H200.
constexpr double kGpuSecondsPerCall = 0.3e-3;
constexpr double kGpuSecondsPerStep = 1 / 1.3e11;
constexpr double kPrimeBits = 62;

std::vector<limb_t> gpu_residues(const ZPoly& a, const ZPoly& b, const PrimeSet& set)
{
    return gpu::fmpz_poly_resultant_residues(a.coeffs, a.length, b.coeffs, b.length, set.state().gpu_tables());
}

}  // namespace

std::uint64_t resultant_bits(std::size_t a_length, std::uint64_t a_norm_bits, std::size_t b_length, std::uint64_t b_norm_bits)
{
    return std::uint64_t(b_length - 1) * ((a_norm_bits + 1) / 2) + std::uint64_t(a_length - 1) * ((b_norm_bits + 1) / 2);
}

bool gpu_pays_for_resultant(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits)
{
    const double length = double(std::max(a_length, b_length)), bits_per_coefficient = double(bound_bits) / std::max(1.0, length);
    const double cpu =
        kFlintSeconds500x64 * std::pow(length / 500, kFlintLengthExponent) * std::max(1.0, bits_per_coefficient / 64);
    const double primes = double(bound_bits + 1) / kPrimeBits + 1;
    const double gpu = kGpuSecondsPerCall + 2 * double(a_length) * double(b_length) * primes * kGpuSecondsPerStep;
    return gpu < cpu;
}

Backend resultant(fmpz_t res, const ZPoly& a, const ZPoly& b, std::uint64_t bound_bits, const std::function<void()>& on_cpu)
{
    const bool gpu_pays = a.coeffs.too_large.empty() && b.coeffs.too_large.empty() &&
                          gpu_pays_for_resultant(a.length, b.length, bound_bits);
    return resultant_on(choose(gpu_pays), res, a, b, bound_bits, on_cpu, gpu_residues);
}

Backend resultant_on(Backend backend, fmpz_t res, const ZPoly& a, const ZPoly& b, std::uint64_t bound_bits,
                     const std::function<void()>& on_cpu, const ResultantResiduesOnGpu& residues)
{
    if (!a.coeffs.too_large.empty() || !b.coeffs.too_large.empty()) backend = Backend::cpu;
    const auto on_host = [&] {
        const FlintThreads threads(host_threads());
        on_cpu();
    };
    const auto on_gpu = [&] {
        // |Res| < 2^bound_bits: the set represents it signed.
        const PrimeSet set = product_primes(bound_bits);
        return gpu_or_host([&] { crt_one(res, residues(a, b, set), set.state()); }, on_host, "a resultant");
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, on_host);
    return ran;
}

}  // namespace zgpu::poly
