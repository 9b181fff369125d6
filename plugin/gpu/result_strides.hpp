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

// Quotients |a| / |b|: at most |a| - |b| + 1 limbs, plus `rounding` - 1 where floor rounding
// (rounding 2) may carry into one more, never more than a's stride (as DeviceBatch's, in
// device_ops/batch_div.cpp), and one limb where |b| may exceed |a| that much. Exact and
// truncated quotients take rounding 1.
constexpr std::uint32_t quotient_stride(std::uint64_t a_limbs, std::uint64_t b_min_limbs, std::uint32_t rounding = 1)
{
    const std::uint64_t sa = size_class(std::uint32_t(std::min<std::uint64_t>(a_limbs, kMaxLimbs)));
    const std::uint64_t smallest = std::max<std::uint64_t>(1, b_min_limbs);
    return size_class(std::uint32_t(smallest < sa + rounding ? std::min(sa, sa + rounding - smallest) : 1));
}

}  // namespace zgpu::gpu
