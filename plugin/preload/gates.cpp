#include "plugin/preload/gates.hpp"

#include <algorithm>
#include <bit>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/poly/nmod_compose.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::preload {

bool nmod_product_worth_it(slong la, slong lb, slong out, ulong n)
{
    if (out < kNmodModelFrom || la <= 0 || lb <= 0) return false;
    const auto a = std::uint64_t(std::min(la, out)), b = std::uint64_t(std::min(lb, out));
    const poly::PolyShape shape = poly::nmod_product_shape(a, b, std::uint64_t(out), n, poly::transform_length_estimate(a, b));
    return poly::gpu_pays_for_nmod_products({&shape, 1}, host_threads());
}

bool nmod_powmod_worth_it(slong lenf, ulong e, ulong n, bool of_x)
{
    if (lenf < 3 || e < 2) return false;
    const std::uint64_t steps = poly::powering_steps(e), flint_steps = of_x ? poly::powering_squarings(e) : steps;
    return poly::gpu_pays_for_nmod_powmod(std::uint64_t(lenf - 1), steps, flint_steps, n, host_threads());
}

bool nmod_mulmod_worth_it(slong len1, slong len2, slong lenf, ulong n)
{
    const slong m = lenf - 1;
    if (m < kNmodModelFrom / 2 || len1 > m || len2 > m || len1 + len2 - 1 <= m) return false;
    return poly::gpu_pays_for_nmod_powmod(std::uint64_t(m), 1, 1, n, host_threads());
}

bool nmod_compose_precomp_worth_it(slong len1, slong lenf, slong rows, ulong n)
{
    if (lenf - 1 < kNmodModelFrom / 2 || len1 < 2 || len1 >= lenf || rows < 2) return false;
    return poly::gpu_pays_for_nmod_compose_precomp(lenf, rows, n);
}

bool nmod_compose_vec_worth_it(slong lenf, slong count, ulong n)
{
    if (lenf - 1 < kNmodModelFrom / 2 || count < 1) return false;
    return poly::gpu_pays_for_nmod_compose_vec(lenf, count, n);
}

namespace {

// The most bits of x's first, middle and last coefficients: a lower bound on its largest.
std::uint64_t sampled_bits(const fmpz* x, slong length)
{
    return std::max({fmpz_bits(x), fmpz_bits(x + length / 2), fmpz_bits(x + length - 1)});
}

}  // namespace

bool fmpz_sizes_worth_reading(const fmpz* a, slong la, const fmpz* b, slong lb, slong out)
{
    if (la <= 0 || lb <= 0 || out < kSampleSizesFrom) return false;
    return out >= kReadSizesFrom ||
           sampled_bits(a, std::min(la, out)) + sampled_bits(b, std::min(lb, out)) >= kLargeProductBits;
}

bool fmpz_product_pays(slong la, slong lb, slong out, std::uint64_t a_bits, std::uint64_t b_bits)
{
    return poly::gpu_pays_for_fmpz_poly_product(
        poly::fmpz_product_shape(std::uint64_t(la), std::uint64_t(lb), std::uint64_t(out), a_bits, b_bits), host_threads());
}

bool fmpz_mat_product_pays(slong rows, slong inner, slong cols, std::uint64_t a_bits, std::uint64_t b_bits)
{
    const matrix::ZMatrix x{{}, std::size_t(rows), std::size_t(inner), a_bits};
    const matrix::ZMatrix y{{}, std::size_t(inner), std::size_t(cols), b_bits};
    return matrix::gpu_pays_for_fmpz_mat_mul(x, y, host_threads());
}

bool fmpz_power_long_enough(slong len, ulong e)
{
    return len >= 2 && e >= 3 && e <= ulong(WORD_MAX / 2) / ulong(len) && slong(e) * (len - 1) + 1 >= kReadSizesFrom;
}

bool fmpz_power_pays(slong len, ulong e, std::uint64_t max_bits)
{
    // ||f||_1 < len 2^max_bits bounds the power's bits by e (max_bits + bits(len)).
    const std::uint64_t norm_bits = max_bits + std::uint64_t(std::bit_width(ulong(len)));
    if (e > std::uint64_t(64) * kMaxLimbs / norm_bits) return false;
    return poly::gpu_pays_for_fmpz_poly_product(poly::fmpz_power_shape(std::uint64_t(len), e, e * norm_bits), host_threads());
}

bool fmpz_compose_long_enough(slong len1, slong len2)
{
    // Results longer than the GPU's longest transform stay with FLINT before their sizes are read.
    const slong longest = slong(gpu::kMaxPolyTransform);
    return len1 > 4 && len2 > 2 && len1 - 1 <= (longest - 1) / (len2 - 1) && (len1 - 1) * (len2 - 1) + 1 >= kReadSizesFrom;
}

bool fmpz_compose_pays(slong len1, slong len2, std::uint64_t f_bits, std::uint64_t h_bits)
{
    // ||f||_1 < len1 2^f_bits and ||h||_1 < len2 2^h_bits bound the result's bits.
    const std::uint64_t f_norm_bits = f_bits + std::uint64_t(std::bit_width(ulong(len1)));
    const std::uint64_t h_norm_bits = h_bits + std::uint64_t(std::bit_width(ulong(len2)));
    if (h_norm_bits > std::uint64_t(64) * kMaxLimbs / std::uint64_t(len1 - 1)) return false;
    const poly::ComposeShape shape{std::uint64_t(len1), std::uint64_t(len2), f_bits, h_bits,
                                   f_norm_bits + std::uint64_t(len1 - 1) * h_norm_bits};
    return poly::gpu_pays_for_fmpz_poly_compose(shape, host_threads());
}

}  // namespace zgpu::preload
