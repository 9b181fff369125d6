#include "plugin/matrix/fmpz_mat_dixon.hpp"

#include <algorithm>
#include <bit>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_mat.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"

namespace zgpu::matrix {
namespace {

// Primes tried as p before the caller takes another way: a is singular modulo a random prime
// only where a prime divides det(a).
constexpr std::size_t kCandidates = 2;

// inverse = a^-1 mod p by FLINT's nmod_mat_inv on the host threads; false where a is singular.
bool invert_mod_p(limb_t p, std::span<const limb_t> a_mod_p, std::span<limb_t> inverse, std::size_t n)
{
    nmod_mat_t a, b;
    nmod_mat_init(a, slong(n), slong(n), p);
    nmod_mat_init(b, slong(n), slong(n), p);
    for (std::size_t i = 0; i < n; ++i) std::copy_n(a_mod_p.data() + i * n, n, &nmod_mat_entry(a, slong(i), 0));
    bool invertible;
    {
        const FlintThreads threads(host_threads());
        invertible = nmod_mat_inv(b, a) != 0;
    }
    if (invertible)
        for (std::size_t i = 0; i < n; ++i) std::copy_n(&nmod_mat_entry(b, slong(i), 0), n, inverse.data() + i * n);
    nmod_mat_clear(a);
    nmod_mat_clear(b);
    return invertible;
}

}  // namespace

void DixonSolution::modulus(fmpz_t m) const
{
    fmpz_set_ui(m, p);
    fmpz_pow_ui(m, m, steps);
}

void DixonSolution::entry(fmpz_t x, std::size_t i, std::size_t c) const
{
    fmpz* digit = _fmpz_vec_init(slong(steps));
    for (std::size_t s = 0; s < steps; ++s) fmpz_set_ui(digit + s, digits[(s * n + i) * cols + c]);
    fmpz_t radix;
    fmpz_init_set_ui(radix, p);
    _fmpz_poly_evaluate_divconquer_fmpz(x, digit, slong(steps), radix);
    fmpz_clear(radix);
    _fmpz_vec_clear(digit, slong(steps));
}

std::size_t dixon_steps(std::uint64_t bits) { return std::size_t(bits / 61 + 1); }

std::optional<DixonSolution> dixon_solve(const ZMatrix& a, const ZMatrix& b, std::size_t steps,
                                         const std::function<void(std::uint64_t)>& steps_done)
{
    const std::size_t n = a.rows;
    // The residual stays below M = max(|b|, n |a|) < 2^residual_bits; the set's product exceeds
    // 2^(residual_bits + 63), so its primes other than p (each below 2^62) exceed 2 M.
    const std::uint64_t residual_bits = std::max<std::uint64_t>(b.bits, a.bits + std::bit_width(n));
    const PrimeSet set = product_primes(residual_bits + 62);
    if (set.size() - 1 > gpu::kDixonMaxResidueModuli) return std::nullopt;
    gpu::DixonDigits lifted = gpu::fmpz_mat_dixon_digits(
        a.entries, b.entries, n, b.cols, set.state().gpu_reduction_tables(), kCandidates, steps,
        [n](limb_t p, std::span<const limb_t> a_mod_p, std::span<limb_t> inverse) { return invert_mod_p(p, a_mod_p, inverse, n); },
        steps_done);
    if (lifted.p == 0) return std::nullopt;
    return DixonSolution{lifted.p, steps, n, b.cols, std::move(lifted.digits)};
}

}  // namespace zgpu::matrix
