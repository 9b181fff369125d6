#include "plugin/matrix/fmpz_mat_det.hpp"

#include <string>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/fmpz_mat_dixon.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_groups.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"
#include "plugin/modular/value_by_primes.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::matrix {
namespace {

// The solution's entries whose denominators the divisor takes, reconstructed on host threads
// at once: for random matrices the first alone is nearly always the largest invariant factor.
constexpr std::size_t kDivisorEntries = 2;

// b = (-1, 1, -1, ...), as FLINT's fmpz_mat_det_divisor takes it.
struct AlternatingColumn {
    explicit AlternatingColumn(std::size_t n) : values(n)
    {
        for (std::size_t i = 0; i < n; ++i) values[i] = i % 2 ? 1 : -1;
    }
    std::vector<fmpz> values;  // small: no clearing needed
    ZMatrix matrix() const { return {host_operand(adapters::FmpzReader(values.data()), values.size(), "b"), values.size(), 1, 1}; }
};

}  // namespace

bool divide_residues(std::vector<limb_t>& residues, const PrimeSet& set, const fmpz_t d)
{
    const std::span<const limb_t> primes = set.moduli();
    for (std::size_t i = 0; i < primes.size(); ++i) {
        const limb_t d_mod = fmpz_fdiv_ui(d, primes[i]);
        if (d_mod == 0) return false;
        residues[i] = n_mulmod2_preinv(residues[i], n_invmod(d_mod, primes[i]), primes[i], n_preinvert_limb(primes[i]));
    }
    return true;
}

std::vector<limb_t> gpu_fmpz_mat_det_residues(const ZMatrix& a, const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done)
{
    return residues_in_groups(
        set, gpu::fmpz_mat_det_primes_at_once(a.rows),
        [&](const PrimeSet& group, const PrimesDone& done) {
            return gpu::fmpz_mat_det_residues(a.entries, a.rows, group.state().gpu_reduction_tables(),
                                              det_by_blocks(a.rows, group.size()), done);
        },
        primes_done);
}

std::uint64_t hadamard_bits(std::span<const std::uint64_t> squared_norm_bits)
{
    std::uint64_t bits = 0;
    for (const std::uint64_t b : squared_norm_bits) {
        if (b == 0) return 0;
        bits += (b + 1) / 2;
    }
    return bits;
}

namespace {

// Cramer: x_i = det(a_i) / det(a), a_i being a with column i replaced by b. Each row of a_i has
// a squared norm at most a's row's plus 1 <= twice a's row's (no row of a is zero).
std::uint64_t divisor_numerator_bits(std::size_t n, std::uint64_t bound_bits) { return bound_bits + (n + 1) / 2; }

}  // namespace

std::size_t divisor_lift_steps(std::size_t n, std::uint64_t bound_bits)
{
    return dixon_steps(divisor_numerator_bits(n, bound_bits) + bound_bits + 1);
}

bool fmpz_mat_det_divisor(fmpz_t d, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void(std::uint64_t)>& steps_done)
{
    const std::size_t n = a.rows;
    const std::uint64_t numerator_bits = divisor_numerator_bits(n, bound_bits);
    const AlternatingColumn b(n);
    const std::optional<DixonSolution> x = dixon_solve(a, b.matrix(), divisor_lift_steps(n, bound_bits), steps_done);
    // Every denominator divides det(a); the reconstruction is exact, the modulus being above
    // 2^(numerator_bits + bound_bits + 1).
    FmpzTemp found;
    if (!x || !x->first_denominators_lcm(found.get(), kDivisorEntries, numerator_bits, bound_bits)) return false;
    fmpz_swap(d, found.get());
    return true;
}

std::uint64_t det_quotient_bits(std::uint64_t bound_bits, const fmpz_t d)
{
    // |det / d| < 2^bound_bits / 2^(bits(d) - 1).
    return bound_bits - std::min<std::uint64_t>(bound_bits, fmpz_bits(d) - 1);
}

bool fmpz_mat_det_by_divisor(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void(std::uint64_t)>& steps_done)
{
    FmpzTemp d, quotient;
    if (!fmpz_mat_det_divisor(d.get(), a, bound_bits, steps_done)) return false;
    const PrimeSet set = product_primes(det_quotient_bits(bound_bits, d.get()));
    std::vector<limb_t> residues = gpu_fmpz_mat_det_residues(a, set, {});
    if (!divide_residues(residues, set, d.get())) return false;
    crt_one(quotient.get(), residues, set.state());
    fmpz_mul(det, quotient.get(), d.get());
    return true;
}

Backend fmpz_mat_determinant(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void()>& on_cpu)
{
    const bool packable = a.entries.too_large.empty();
    const bool gpu_pays = packable && gpu_pays_for_fmpz_mat_det(a.rows, bound_bits);
    const Backend backend = choose(gpu_pays);
    if (backend == Backend::gpu && packable && divisor_pays_for_fmpz_mat_det(a.rows, a.bits, bound_bits)) {
        const std::string n = std::to_string(a.rows);
        Progress progress("fmpz_mat_det, " + n + " x " + n + ", a bound of " + std::to_string(bound_bits) + " bits, by a divisor",
                          flint_det_seconds(a.rows, bound_bits), 0);
        std::function<void(std::uint64_t)> steps_done;
        if (progress.on()) steps_done = [&](std::uint64_t steps) { progress.advance(steps); };
        // The residual's kernel counts the steps: all but the last.
        progress.set_total(divisor_lift_steps(a.rows, bound_bits) - 1);
        const std::optional<Backend> ran = gpu_unless_it_stands_aside(
            [&] { return fmpz_mat_det_by_divisor(det, a, bound_bits, steps_done); },
            [&] {
                const FlintThreads threads(host_threads());
                on_cpu();
            },
            "a determinant");
        if (ran) {
            progress.ran_on(*ran);
            return *ran;
        }
    }
    return fmpz_mat_determinant_on(backend, det, a, bound_bits, on_cpu, gpu_fmpz_mat_det_residues);
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
