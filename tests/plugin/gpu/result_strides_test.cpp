// The result strides that the host path's checks and its size groups share
// (plugin/gpu/result_strides.hpp).
#include <gtest/gtest.h>

#include "plugin/gpu/result_strides.hpp"

namespace zgpu::testing {
namespace {

// |a| - |b| + 1 limbs as a size class, one more for floor rounding, never above a's stride,
// one limb where b is the longer.
TEST(ResultStrides, QuotientStrides)
{
    EXPECT_EQ(gpu::quotient_stride(64, 32), 36u);     // 33 limbs: the size class 36
    EXPECT_EQ(gpu::quotient_stride(64, 32, 2), 36u);  // 34 limbs
    EXPECT_EQ(gpu::quotient_stride(64, 31), 36u);     // 34 limbs
    EXPECT_EQ(gpu::quotient_stride(64, 29, 2), 40u);  // 37 limbs
    EXPECT_EQ(gpu::quotient_stride(64, 1), 64u);      // never above a's stride
    EXPECT_EQ(gpu::quotient_stride(64, 1, 2), 64u);
    EXPECT_EQ(gpu::quotient_stride(5, 9), 1u);        // |b| > |a|: quotients of at most one limb
    EXPECT_EQ(gpu::quotient_stride(5, 0), 6u);        // a zero divisor's size counts as one
    EXPECT_EQ(gpu::quotient_stride(kMaxLimbs + 5, 1), kMaxLimbs);
}

TEST(ResultStrides, ProductsAndSums)
{
    EXPECT_EQ(gpu::product_stride(16, 16), 32u);
    EXPECT_EQ(gpu::product_stride(17, 1), 20u);       // 18 + 1 limbs: the size class 20
    EXPECT_EQ(gpu::sum_stride(16, 3), 18u);
    EXPECT_EQ(gpu::sum_stride(kMaxLimbs + 9, 1), size_class(kMaxLimbs + 1));
}

}  // namespace
}  // namespace zgpu::testing
