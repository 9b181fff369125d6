#include "plugin/matrix/fmpz_mat_solve.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_dixon.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/fmpz_temp.hpp"

namespace zgpu::matrix {
namespace {

// Entries reconstructed first, on host threads at once: their denominators' lcm is nearly
// always the whole answer's, which the other entries then only check.
constexpr std::size_t kFirstEntries = 2;

double milliseconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

SolveBounds solve_bounds(const fmpz_mat_struct* a, const fmpz_mat_struct* b)
{
    std::vector<std::uint64_t> row_bits(std::size_t(a->r)), with_b_bits(std::size_t(a->r));
    parallel_for(std::size_t(a->r), 16, [&](std::size_t begin, std::size_t end) {
        FmpzTemp norm, square, largest;
        for (std::size_t i = begin; i < end; ++i) {
            fmpz_zero(norm.get());
            for (slong j = 0; j < a->c; ++j) fmpz_addmul(norm.get(), fmpz_mat_entry(a, slong(i), j), fmpz_mat_entry(a, slong(i), j));
            row_bits[i] = fmpz_bits(norm.get());
            fmpz_zero(largest.get());
            for (slong j = 0; j < b->c; ++j) {
                fmpz_mul(square.get(), fmpz_mat_entry(b, slong(i), j), fmpz_mat_entry(b, slong(i), j));
                if (fmpz_cmp(square.get(), largest.get()) > 0) fmpz_swap(square.get(), largest.get());
            }
            fmpz_add(norm.get(), norm.get(), largest.get());
            with_b_bits[i] = fmpz_bits(norm.get());
        }
    });
    return {hadamard_bits(with_b_bits), hadamard_bits(row_bits)};
}

std::size_t solve_lift_steps(const SolveBounds& bounds)
{
    return dixon_steps(bounds.numerator_bits + 2 * bounds.denominator_bits + 1);
}

bool solution_from_digits(const DixonSolution& solution, const SolveBounds& bounds, fmpz* x, fmpz_t den)
{
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t n_bits = bounds.numerator_bits, d_bits = bounds.denominator_bits;
    const std::size_t count = solution.n * solution.cols;
    FmpzTemp d, m, half, limit;
    if (!solution.first_denominators_lcm(d.get(), kFirstEntries, n_bits, d_bits)) return false;
    std::vector<FmpzTemp> numerators(count), denominators(count);
    // d divides det(a), so d <= D. An entry a_e / b_e (|a_e| <= N, b_e <= D) with t = d x_e mod M
    // in the symmetric range and |t| <= N d is t / d: t b_e = a_e d mod M, and |t b_e - a_e d| <=
    // N d (D + 1) < M, so t b_e = a_e d and b_e divides d.
    solution.modulus(m.get());
    fmpz_fdiv_q_2exp(half.get(), m.get(), 1);
    fmpz_mul_2exp(limit.get(), d.get(), n_bits);
    std::vector<char> checked(count);
    parallel_for(count, 2, [&](std::size_t begin, std::size_t end) {
        FmpzTemp value;
        for (std::size_t e = begin; e < end; ++e) {
            solution.entry(value.get(), e);
            fmpz_mul(value.get(), value.get(), d.get());
            fmpz_mod(value.get(), value.get(), m.get());
            if (fmpz_cmp(value.get(), half.get()) > 0) fmpz_sub(value.get(), value.get(), m.get());
            if (fmpz_cmpabs(value.get(), limit.get()) > 0) continue;
            fmpz_swap(numerators[e].get(), value.get());
            fmpz_set(denominators[e].get(), d.get());
            checked[e] = 1;
        }
    });
    std::vector<std::size_t> others;
    for (std::size_t e = 0; e < count; ++e)
        if (!checked[e]) others.push_back(e);
    if (!others.empty()) {
        std::vector<FmpzTemp> other_numerators(others.size()), other_denominators(others.size());
        if (!solution.reconstruct(others, n_bits, d_bits, other_numerators, other_denominators)) return false;
        for (std::size_t k = 0; k < others.size(); ++k) {
            fmpz_swap(numerators[others[k]].get(), other_numerators[k].get());
            fmpz_swap(denominators[others[k]].get(), other_denominators[k].get());
            fmpz_lcm(d.get(), d.get(), denominators[others[k]].get());
        }
    }
    // x = den x_e = numerator (den / denominator).
    parallel_for(count, 64, [&](std::size_t begin, std::size_t end) {
        FmpzTemp scale;
        for (std::size_t e = begin; e < end; ++e) {
            fmpz_divexact(scale.get(), d.get(), denominators[e].get());
            fmpz_mul(x + e, numerators[e].get(), scale.get());
        }
    });
    fmpz_set(den, d.get());
    if (settings::timing())
        std::fprintf(stderr, "zgpu: fmpz_mat_solve %zu x %zu by %zu columns: reconstruction on the host %.2f ms (%zu of %zu entries in full)\n",
                     solution.n, solution.n, solution.cols, milliseconds(std::chrono::steady_clock::now() - start),
                     std::min(count, kFirstEntries) + others.size(), count);
    return true;
}

bool fmpz_mat_solve_by_lifting(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix& b, const SolveBounds& bounds,
                               const std::function<void(std::uint64_t)>& steps_done)
{
    const std::optional<DixonSolution> solution = dixon_solve(a, b, solve_lift_steps(bounds), steps_done);
    return solution && solution_from_digits(*solution, bounds, x, den);
}

bool fmpz_mat_solve(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix& b, const SolveBounds& bounds,
                    const std::function<void()>& on_cpu)
{
    const bool packable = a.entries.too_large.empty() && b.entries.too_large.empty();
    const bool gpu_pays = packable && gpu_pays_for_fmpz_mat_solve(a.rows, b.cols, bounds.numerator_bits, bounds.denominator_bits,
                                                                  host_threads());
    const auto on_host = [&] {
        const FlintThreads threads(host_threads());
        on_cpu();
    };
    if (!packable || choose(gpu_pays) == Backend::cpu) {
        run_on(Backend::cpu, {}, on_host);
        return false;
    }
    const std::string n = std::to_string(a.rows);
    Progress progress("fmpz_mat_solve, " + n + " x " + n + " by " + std::to_string(b.cols) + " columns",
                      flint_solve_seconds(a.rows, b.cols, bounds.denominator_bits), 0);
    // The residual's kernel counts the steps: all but the last.
    progress.set_total(solve_lift_steps(bounds) - 1);
    std::function<void(std::uint64_t)> steps_done;
    if (progress.on()) steps_done = [&](std::uint64_t steps) { progress.advance(steps); };
    const std::optional<Backend> ran =
        gpu_unless_it_stands_aside([&] { return fmpz_mat_solve_by_lifting(x, den, a, b, bounds, steps_done); }, on_host, "a solution");
    // The lifting stood aside: FLINT answers, singular matrices included.
    if (!ran) run_on(Backend::cpu, {}, on_host);
    progress.ran_on(ran.value_or(Backend::cpu));
    return ran == Backend::gpu;
}

}  // namespace zgpu::matrix
