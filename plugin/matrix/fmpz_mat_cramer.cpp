#include "plugin/matrix/fmpz_mat_cramer.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <flint/fmpz_vec.h>

#include "base/parallel.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::matrix {

bool gpu_fmpz_mat_cramer(const ZMatrix& a, const ZMatrix* b, const PrimeSet& set, const HostResult& result)
{
    return gpu::fmpz_mat_adjugate_times(a.entries, b ? &b->entries : nullptr, a.rows, b ? b->cols : a.rows, set.state().gpu_tables(), result);
}

PrimeSet primes_not_dividing(const fmpz_t det, std::uint64_t bound_bits)
{
    FmpzTemp need, product;
    fmpz_one(need.get());
    fmpz_mul_2exp(need.get(), need.get(), bound_bits + 1);
    fmpz_one(product.get());
    // At most bits(det) / 61 of the primes divide det: a few more than the bound needs suffice
    // nearly always, and the list grows until they do.
    std::size_t candidates = std::size_t((bound_bits + 1) / 61 + 8);
    std::vector<limb_t> chosen;
    for (std::size_t next = 0; fmpz_cmp(product.get(), need.get()) <= 0; ++next) {
        if (next == candidates) candidates *= 2;
        const limb_t p = kernels::ntt_primes(candidates)[next];
        if (fmpz_fdiv_ui(det, p) == 0) continue;
        chosen.push_back(p);
        fmpz_mul_ui(product.get(), product.get(), p);
    }
    return PrimeSet(chosen);
}

void solution_from_numerators(fmpz* numerators, std::size_t count, const fmpz_t det, fmpz_t den)
{
    // Each host thread's share: gcd with |det|, stopping at 1 (at once, nearly always).
    FmpzTemp g;
    std::mutex mutex;
    fmpz_abs(g.get(), det);
    parallel_for(count, 256, [&](std::size_t begin, std::size_t end) {
        FmpzTemp part;
        fmpz_abs(part.get(), det);
        for (std::size_t e = begin; e < end && !fmpz_is_one(part.get()); ++e) fmpz_gcd(part.get(), part.get(), numerators + e);
        const std::lock_guard<std::mutex> lock(mutex);
        fmpz_gcd(g.get(), g.get(), part.get());
    });
    const bool negative = fmpz_sgn(det) < 0, divide = !fmpz_is_one(g.get());
    if (negative || divide)
        parallel_for(count, 256, [&](std::size_t begin, std::size_t end) {
            for (std::size_t e = begin; e < end; ++e) {
                if (divide) fmpz_divexact(numerators + e, numerators + e, g.get());
                if (negative) fmpz_neg(numerators + e, numerators + e);
            }
        });
    fmpz_abs(den, det);
    fmpz_divexact(den, den, g.get());
}

bool cramer_numerators(const ZMatrix& a, const ZMatrix* b, const fmpz_t det, std::uint64_t bound_bits, const CramerOnGpu& cramer,
                       const HostResult& result)
{
    const PrimeSet set = primes_not_dividing(det, bound_bits);
    return set.state().product_limbs <= kMaxLimbs && cramer(a, b, set, result);
}

bool fmpz_mat_solve_by_primes(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix* b, const fmpz_t det, std::uint64_t bound_bits,
                              const CramerOnGpu& cramer)
{
    const std::size_t count = a.rows * (b ? b->cols : a.rows);
    // x is written only once the GPU has served (x may be a's or b's entries).
    const std::unique_ptr<fmpz, std::function<void(fmpz*)>> numerators(_fmpz_vec_init(slong(count)),
                                                                       [count](fmpz* v) { _fmpz_vec_clear(v, slong(count)); });
    const auto unpack = [&](std::size_t first, ConstBatchView values) { adapters::unpack_fmpz_vec(values, numerators.get() + first); };
    if (!cramer_numerators(a, b, det, bound_bits, cramer, unpack)) return false;
    solution_from_numerators(numerators.get(), count, det, den);
    _fmpz_vec_swap(x, numerators.get(), slong(count));
    return true;
}

}  // namespace zgpu::matrix
