#include "plugin/matrix/fmpz_mat_det.hpp"

#include <string>

#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/value_by_primes.hpp"

namespace zgpu::matrix {
namespace {

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
