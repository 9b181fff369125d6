#include <gtest/gtest.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu {
namespace {

TEST(SizeClass, HoldsTheSizeWithBoundedPadding)
{
    EXPECT_EQ(size_class(0), 1u);
    EXPECT_EQ(size_class(1), 1u);
    for (std::uint32_t n = 2; n <= kMaxLimbs; ++n) {
        const std::uint32_t s = size_class(n);
        ASSERT_GE(s, n);
        ASSERT_EQ(s % 2, 0u) << "strides >= 2 must keep elements 16-byte aligned, n = " << n;
        ASSERT_EQ(size_class(s), s) << "a class is its own class, n = " << n;
        ASSERT_LE(s, n < 16 ? n + 1 : n + n / 8) << "padding above 1/8, n = " << n;
        ASSERT_GE(s, size_class(n - 1)) << "classes grow with n, n = " << n;
    }
    EXPECT_EQ(size_class(kMaxLimbs), kMaxLimbs);
}

TEST(SizeClass, FewClassesPerOctave)
{
    std::uint32_t classes = 0;
    for (std::uint32_t n = 1024 + 1; n <= 2048; ++n) classes += size_class(n) != size_class(n - 1);
    EXPECT_EQ(classes, 8u);
}

}  // namespace
}  // namespace zgpu
