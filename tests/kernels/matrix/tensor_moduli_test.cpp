// The small moduli of the tensor-core products (kernels/matrix/tensor_moduli.hpp): pairwise
// coprime, at most 256, and for every modulus size and inner dimension the fewest whose product
// exceeds inner 2^(2 bits), checked in exact integers; sizes outside the bound are refused.
#include <numeric>

#include <flint/fmpz.h>
#include <gtest/gtest.h>

#include "kernels/matrix/tensor_moduli.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

TEST(TensorModuli, PairwiseCoprimeBytesLargestFirst)
{
    const auto moduli = kernels::tensor_moduli();
    ASSERT_EQ(moduli.size(), kernels::kMaxTensorModuli);
    EXPECT_EQ(moduli[0], 256u);
    for (std::size_t i = 0; i < moduli.size(); ++i) {
        if (i > 0) {
            EXPECT_LT(moduli[i], moduli[i - 1]);
        }
        for (std::size_t j = 0; j < i; ++j) EXPECT_EQ(std::gcd(moduli[i], moduli[j]), 1u) << moduli[i] << " and " << moduli[j];
    }
}

TEST(TensorModuli, TheFewestThatExceedTheBound)
{
    const auto moduli = kernels::tensor_moduli();
    for (const unsigned bits : {1u, 2u, 8u, 9u, 31u, 32u, 62u, 63u, 64u})
        for (const std::size_t inner : {std::size_t(1), std::size_t(2), std::size_t(2048), kernels::kTensorInnerChunk,
                                        kernels::kTensorInnerChunk + 1, (std::size_t(1) << 31) - 1}) {
            const unsigned t = kernels::tensor_moduli_count(bits, inner);
            FmpzTemp bound, product;
            fmpz_set_ui(bound.get(), inner);
            fmpz_mul_2exp(bound.get(), bound.get(), 2 * bits);
            fmpz_one(product.get());
            for (unsigned j = 0; j + 1 < t; ++j) fmpz_mul_ui(product.get(), product.get(), moduli[j]);
            EXPECT_LE(fmpz_cmp(product.get(), bound.get()), 0) << bits << " bits, " << inner << " terms: one fewer would do";
            fmpz_mul_ui(product.get(), product.get(), moduli[t - 1]);
            EXPECT_GT(fmpz_cmp(product.get(), bound.get()), 0) << bits << " bits, " << inner << " terms";
        }
    // 62-bit primes over 2048 terms, as the 2048 x 2048 product counts them.
    EXPECT_EQ(kernels::tensor_moduli_count(62, 2048), 18u);
    EXPECT_LE(kernels::tensor_moduli_count(64, (std::size_t(1) << 31) - 1), kernels::kMaxTensorModuli);
}

TEST(TensorModuli, OneChunkOfTheTightestTermsFitsA32BitSum)
{
    // Each term at most 128^2; a chunk added to an earlier sum reduced into [0, 256).
    EXPECT_EQ(kernels::kTensorInnerChunk % 16, 0u);
    EXPECT_LT(kernels::kTensorInnerChunk * 16384 + 255, std::size_t(1) << 31);
}

TEST(TensorModuli, SizesOutsideTheBoundAreRefused)
{
    EXPECT_THROW(kernels::tensor_moduli_count(0, 10), Error);
    EXPECT_THROW(kernels::tensor_moduli_count(65, 10), Error);
    EXPECT_THROW(kernels::tensor_moduli_count(64, 0), Error);
    EXPECT_THROW(kernels::tensor_moduli_count(64, std::size_t(1) << 31), Error);
}

}  // namespace
}  // namespace zgpu::testing
