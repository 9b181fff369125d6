#include "plugin/poly/poly_choice.hpp"

#include <algorithm>

#include "plugin/gpu/result_strides.hpp"

namespace zgpu::poly {

bool ks_fits_batch(std::uint64_t a_limbs, std::uint64_t b_limbs)
{
    return a_limbs <= kMaxLimbs && b_limbs <= kMaxLimbs && gpu::product_stride(a_limbs, b_limbs) <= kMaxLimbs;
}

std::vector<std::size_t> gpu_pairs(std::span<const KsPair> pairs)
{
    std::uint64_t largest_b = 0;
    for (const KsPair& p : pairs)
        if (p.out_len && ks_fits_batch(p.a_limbs, p.b_limbs)) largest_b = std::max(largest_b, p.b_limbs);
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].out_len && ks_fits_batch(pairs[i].a_limbs, pairs[i].b_limbs) &&
            ks_fits_batch(pairs[i].a_limbs, largest_b))
            chosen.push_back(i);
    return chosen;
}

}  // namespace zgpu::poly
