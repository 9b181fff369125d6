#include "plugin/poly/resultant.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/value_by_primes.hpp"

namespace zgpu::poly {
namespace {

// FLINT 3.6's fmpz_poly_resultant (one thread) on the H200 host
// (bench/results/2026-11-26-h200-resultant-det-first.md), both polynomials of length L with 64-bit
// coefficients: 0.1 ms at L = 10, 2.7 ms at 50, 65 ms at 200, 465 ms at 500, about L^2.2; longer
// coefficients cost about in proportion (1000 of 256 bits: 11.3 s). The bound's bits a
// coefficient measure them: 67 at 500 x 64 bits.
constexpr double kFlintSeconds500x64 = 0.465;
constexpr double kFlintLengthExponent = 2.2;
constexpr double kFlintBitsPerCoefficient500x64 = 67;
// The GPU, same run: about 0.07 ms a call, and La Lb updates of a remainder sequence a prime
// (each beta a_j + c b_j mod p) at 1.7e11 a second where the primes fill the GPU (2000 x 2000
// of 64 bits, 4514 primes: 106 ms).
constexpr double kGpuSecondsPerCall = 0.07e-3;
constexpr double kGpuSecondsPerUpdate = 1 / 1.7e11;
constexpr double kPrimeBits = 62;
// One resultant modulo a prime: FLINT's nmod_poly_resultant (Euclid, then the half-gcd) against
// one block of the GPU, on the H200 host (bench/results/2026-11-26-h200-nmod-resultant-cde638a.md):
// FLINT 1.18 ms at length 1000, 9.5 ms at 3000 (about L^1.9), 45 ms at 10000 and 171 ms at
// 30000 (about L^1.25); the GPU about 0.05 ms a call, 1.2 microseconds an elimination (each ends
// with a __syncthreads; (La + Lb) / 2 of them) and 6.4e-10 s an update (0.47, 1.9, 9.4 and
// 76 ms at 300, 1000, 3000 and 10000). They tie near 3000; FLINT wins elsewhere.
constexpr double kFlintNmodSeconds3000 = 9.5e-3, kFlintNmodHalfGcdFrom = 3000;
constexpr double kFlintNmodEuclidExponent = 1.9, kFlintNmodHalfGcdExponent = 1.25;
constexpr double kGpuNmodSecondsPerCall = 0.05e-3, kGpuNmodSecondsPerElimination = 1.2e-6;
constexpr double kGpuNmodSecondsPerUpdate = 6.4e-10;

std::vector<limb_t> gpu_residues(const ZPoly& a, const ZPoly& b, const PrimeSet& set,
                                 const std::function<void(std::uint64_t)>& primes_done)
{
    return gpu::fmpz_poly_resultant_residues(a.coeffs, a.length, b.coeffs, b.length, set.state().gpu_reduction_tables(), primes_done);
}

}  // namespace

bool gpu_pays_for_nmod_resultant(std::size_t a_length, std::size_t b_length)
{
    const double length = double(std::max(a_length, b_length));
    const double cpu = kFlintNmodSeconds3000 * std::pow(length / kFlintNmodHalfGcdFrom, length < kFlintNmodHalfGcdFrom
                                                                                           ? kFlintNmodEuclidExponent
                                                                                           : kFlintNmodHalfGcdExponent);
    const double gpu = kGpuNmodSecondsPerCall + double(a_length + b_length) / 2 * kGpuNmodSecondsPerElimination +
                       double(a_length) * double(b_length) * kGpuNmodSecondsPerUpdate;
    return gpu < cpu;
}

limb_t nmod_resultant(const limb_t* a, std::size_t a_length, const limb_t* b, std::size_t b_length, limb_t n,
                      const std::function<limb_t()>& on_cpu)
{
    limb_t res = 0;
    const auto on_host = [&] { res = on_cpu(); };
    run_on(
        choose(gpu_pays_for_nmod_resultant(a_length, b_length)),
        [&] {
            return gpu_or_host([&] { res = gpu::nmod_poly_resultant({a, a_length}, {b, b_length}, n); }, on_host,
                               "a resultant mod p");
        },
        on_host);
    return res;
}

std::uint64_t resultant_bits(std::size_t a_length, std::uint64_t a_norm_bits, std::size_t b_length, std::uint64_t b_norm_bits)
{
    // Two constants: the resultant is 1, which the product bound (0 bits) does not cover.
    return std::max<std::uint64_t>(
        1, std::uint64_t(b_length - 1) * ((a_norm_bits + 1) / 2) + std::uint64_t(a_length - 1) * ((b_norm_bits + 1) / 2));
}

double flint_resultant_seconds(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits)
{
    const double length = double(std::max(a_length, b_length));
    const double bits_per_coefficient = double(bound_bits) / double(a_length + b_length);
    return kFlintSeconds500x64 * std::pow(length / 500, kFlintLengthExponent) *
           std::max(1.0, bits_per_coefficient / kFlintBitsPerCoefficient500x64);
}

bool gpu_pays_for_resultant(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits)
{
    const double cpu = flint_resultant_seconds(a_length, b_length, bound_bits);
    const double primes = double(bound_bits + 1) / kPrimeBits + 1;
    const double gpu = kGpuSecondsPerCall + double(a_length) * double(b_length) * primes * kGpuSecondsPerUpdate;
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
    return value_by_primes(
        backend, res,
        {"fmpz_poly_resultant, lengths " + std::to_string(a.length) + " and " + std::to_string(b.length), "a resultant",
         bound_bits, flint_resultant_seconds(a.length, b.length, bound_bits),
         a.coeffs.too_large.empty() && b.coeffs.too_large.empty()},
        [&](const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done) { return residues(a, b, set, primes_done); },
        on_cpu);
}

}  // namespace zgpu::poly
