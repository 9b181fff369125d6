#include "plugin/matrix/fmpz_mat_dixon.hpp"

#include <algorithm>
#include <bit>

#include <flint/fmpq.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"

namespace zgpu::matrix {
namespace {

// Primes tried as p before the caller takes another way: a is singular modulo a prime only where
// the prime divides det(a).
constexpr std::size_t kCandidates = 2;

}  // namespace

void DixonSolution::modulus(fmpz_t m) const
{
    fmpz_set_ui(m, p);
    fmpz_pow_ui(m, m, steps);
}

void DixonSolution::entry(fmpz_t x, std::size_t e) const
{
    fmpz* digit = _fmpz_vec_init(slong(steps));
    for (std::size_t s = 0; s < steps; ++s) fmpz_set_ui(digit + s, digits[s * n * cols + e]);
    fmpz_t radix;
    fmpz_init_set_ui(radix, p);
    _fmpz_poly_evaluate_divconquer_fmpz(x, digit, slong(steps), radix);
    fmpz_clear(radix);
    _fmpz_vec_clear(digit, slong(steps));
}

bool DixonSolution::reconstruct(std::span<const std::size_t> entries, std::uint64_t numerator_bits, std::uint64_t denominator_bits,
                                std::vector<FmpzTemp>& numerators, std::vector<FmpzTemp>& denominators) const
{
    FmpzTemp m, n_bound, d_bound;
    modulus(m.get());
    fmpz_one(n_bound.get());
    fmpz_mul_2exp(n_bound.get(), n_bound.get(), numerator_bits);
    fmpz_one(d_bound.get());
    fmpz_mul_2exp(d_bound.get(), d_bound.get(), denominator_bits);
    std::vector<char> found(entries.size());
    parallel_for(entries.size(), 2, [&](std::size_t begin, std::size_t end) {
        FmpzTemp value;
        for (std::size_t k = begin; k < end; ++k) {
            entry(value.get(), entries[k]);
            found[k] = _fmpq_reconstruct_fmpz_2(numerators[k].get(), denominators[k].get(), value.get(), m.get(), n_bound.get(),
                                                d_bound.get());
        }
    });
    return std::all_of(found.begin(), found.end(), [](char f) { return f != 0; });
}

bool DixonSolution::first_denominators_lcm(fmpz_t d, std::size_t count, std::uint64_t numerator_bits,
                                           std::uint64_t denominator_bits) const
{
    count = std::min(count, n * cols);
    std::vector<std::size_t> entries(count);
    for (std::size_t e = 0; e < count; ++e) entries[e] = e;
    std::vector<FmpzTemp> numerators(count), denominators(count);
    if (!reconstruct(entries, numerator_bits, denominator_bits, numerators, denominators)) return false;
    fmpz_one(d);
    for (const FmpzTemp& denominator : denominators) fmpz_lcm(d, d, denominator.get());
    return true;
}

std::size_t dixon_steps(std::uint64_t bits) { return std::size_t(bits / 61 + 1); }

std::optional<DixonSolution> dixon_solve(const ZMatrix& a, const ZMatrix& b, std::size_t steps,
                                         const std::function<void(std::uint64_t)>& steps_done)
{
    const std::size_t n = a.rows;
    // The residual stays below M = max(|b|, n |a|) < 2^residual_bits; the set's product is at
    // least 2^(residual_bits + 63) - 1, so its primes other than p (each below 2^62) exceed 2 M.
    const std::uint64_t residual_bits = std::max<std::uint64_t>(b.bits, a.bits + std::bit_width(n));
    const PrimeSet set = product_primes(residual_bits + 62);
    if (set.size() - 1 > gpu::kDixonMaxResidueModuli) return std::nullopt;
    gpu::DixonDigits lifted =
        gpu::fmpz_mat_dixon_digits(a.entries, b.entries, n, b.cols, set.state().gpu_reduction_tables(), kCandidates, steps, steps_done);
    if (lifted.p == 0) return std::nullopt;
    return DixonSolution{lifted.p, steps, n, b.cols, std::move(lifted.digits)};
}

}  // namespace zgpu::matrix
