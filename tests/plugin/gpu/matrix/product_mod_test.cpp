// The choice between the tensor cores and the integer units for products mod n
// (plugin/gpu/matrix/product_mod.hpp): both sides of each edge of the rule, the long thin
// products that stay on the integer units, and the bound's modulus size read off a set.
#include <vector>

#include <gtest/gtest.h>

#include "plugin/gpu/matrix/product_mod.hpp"

namespace zgpu::testing {
namespace {

TEST(ProductModChoice, TensorCoresFrom256InnerTerms32RowsAndColumnsAndMoreThan256CubedTerms)
{
    EXPECT_TRUE(gpu::mat_mul_on_tensor_cores(32, 256, 32, 65));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(32, 256, 32, 64));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(31, 256, 32, 1000));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(32, 255, 32, 1000));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(32, 256, 31, 1000));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(256, 256, 256, 1));
    EXPECT_TRUE(gpu::mat_mul_on_tensor_cores(257, 256, 256, 1));
    EXPECT_TRUE(gpu::mat_mul_on_tensor_cores(256, 256, 256, 2));
    EXPECT_TRUE(gpu::mat_mul_on_tensor_cores(8192, 8192, 8192, 1));
    // Long inner dimensions: one thread a sum on the integer units.
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(32, 4096, 32, 1));
    EXPECT_TRUE(gpu::mat_mul_on_tensor_cores(32, 4097, 32, 1));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(1, std::size_t(1) << 24, 1, 1));
    EXPECT_FALSE(gpu::mat_mul_on_tensor_cores(441 * 64, 64, 64, 1));
}

TEST(ProductModChoice, TheLargestModulusSetsTheBits)
{
    EXPECT_EQ(gpu::modulus_bits({}), 1u);
    EXPECT_EQ(gpu::modulus_bits(std::vector<limb_t>{2}), 2u);
    EXPECT_EQ(gpu::modulus_bits(std::vector<limb_t>{3, (limb_t(1) << 62) + 135, 1000003}), 63u);
    EXPECT_EQ(gpu::modulus_bits(std::vector<limb_t>{~limb_t(0)}), 64u);
}

}  // namespace
}  // namespace zgpu::testing
