// Strides of results on the GPU from their operands' largest (or smallest) elements, in limbs:
// one rule each, shared by the plugin's checks on whole vectors and by the size groups of
// plugin/gpu/grouped_run.hpp, which apply them to each group's elements.
#pragma once

#include <algorithm>
#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Products of a's elements by b's: the sum of their strides, as a size class. Operands within
// kMaxLimbs.
constexpr std::uint32_t product_stride(std::uint64_t a_limbs, std::uint64_t b_limbs)
{
    return size_class(size_class(std::uint32_t(a_limbs)) + size_class(std::uint32_t(b_limbs)));
}

// Sums and differences: one limb more than the longer operand (capped, as elements beyond
// kMaxLimbs are refused before any stride is used).
constexpr std::uint32_t sum_stride(std::uint64_t a_limbs, std::uint64_t b_limbs)
{
    return size_class(std::uint32_t(std::min<std::uint64_t>(std::max(a_limbs, b_limbs), kMaxLimbs) + 1));
}

// Limbs of r +- a * b, from r's largest element and the products' stride (may exceed kMaxLimbs:
// the caller checks it before taking its size class).
constexpr std::uint64_t addmul_sum_limbs(std::uint64_t r_limbs, std::uint32_t products)
{
    return std::max(size_class(std::uint32_t(r_limbs)), products) + std::uint64_t(1);
}

// Exact quotients: |a| / |b| has at most |a| - |b| + 1 limbs, and never more than |a|.
constexpr std::uint32_t quotient_stride(std::uint64_t a_limbs, std::uint64_t b_min_limbs)
{
    const std::uint32_t sa = size_class(std::uint32_t(std::min<std::uint64_t>(a_limbs, kMaxLimbs)));
    return size_class(std::uint32_t(sa + 1 - std::clamp<std::uint64_t>(b_min_limbs, 1, sa)));
}

}  // namespace zgpu::gpu
