#include "plugin/poly/resultant.hpp"

#include <algorithm>
#include <string>

#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/value_by_primes.hpp"

namespace zgpu::poly {
namespace {

std::vector<limb_t> gpu_residues(const ZPoly& a, const ZPoly& b, const PrimeSet& set,
                                 const std::function<void(std::uint64_t)>& primes_done)
{
    return gpu::fmpz_poly_resultant_residues(a.coeffs, a.length, b.coeffs, b.length, set.state().gpu_reduction_tables(), primes_done);
}

}  // namespace

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
