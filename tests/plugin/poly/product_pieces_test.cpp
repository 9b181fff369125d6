// product_pieces: every pair of coefficients below the truncation once (those above at most once), every piece within the
// transform, at the edges of the halves.
#include <vector>

#include <gtest/gtest.h>

#include "plugin/poly/product_pieces.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

void expect_cover(std::size_t la, std::size_t lb, std::size_t out, std::uint64_t transform)
{
    std::vector<int> seen(la * lb, 0);
    for (const ProductPiece& p : product_pieces(la, lb, out, transform)) {
        ASSERT_GE(p.a_length, 1u);
        ASSERT_GE(p.b_length, 1u);
        ASSERT_LE(p.a_length + p.b_length - 1, transform);
        ASSERT_LT(p.out_first(), out) << "no piece wholly above the truncation";
        ASSERT_EQ(p.out_length, std::min(p.a_length + p.b_length - 1, out - p.out_first()));
        for (std::size_t i = p.a_first; i < p.a_first + p.a_length; ++i)
            for (std::size_t j = p.b_first; j < p.b_first + p.b_length; ++j) {
                ASSERT_LT(i, la);
                ASSERT_LT(j, lb);
                seen[i * lb + j] += 1;
            }
    }
    for (std::size_t i = 0; i < la; ++i)
        for (std::size_t j = 0; j < lb; ++j)
            if (i + j < out) ASSERT_EQ(seen[i * lb + j], 1) << la << " x " << lb << " to " << out << ": pair " << i << ", " << j;
            else ASSERT_LE(seen[i * lb + j], 1) << "a pair above the truncation, in a piece truncated";
}

TEST(ProductPieces, CoverEveryPairOnce)
{
    const std::size_t lengths[] = {1, 2, 7, 8, 9, 15, 16, 17, 40, 100};
    for (const std::uint64_t transform : {2u, 16u, 32u})
        for (const std::size_t la : lengths)
            for (const std::size_t lb : lengths)
                for (const std::size_t out : {std::size_t(1), std::size_t(9), (la + lb) / 2, la + lb - 2, la + lb - 1})
                    if (out >= 1 && out <= la + lb - 1) expect_cover(la, lb, out, transform);
}

TEST(ProductPieces, AShortOperandStaysWhole)
{
    // 3 coefficients times 100 in transforms of 16: b whole, a in pieces of 14.
    const std::vector<ProductPiece> pieces = product_pieces(100, 3, 102, 16);
    ASSERT_EQ(pieces.size(), 8u);
    for (const ProductPiece& p : pieces) EXPECT_EQ(p.b_length, 3u);
    EXPECT_EQ(pieces[0].a_length, 14u);
    // Both longer than half: the shorter in pieces of 8, the longer of 9.
    for (const ProductPiece& p : product_pieces(20, 30, 49, 16)) {
        EXPECT_LE(p.a_length, 8u);
        EXPECT_LE(p.b_length, 9u);
    }
}

TEST(ProductPieces, BadLengthsAreErrors)
{
    EXPECT_THROW(product_pieces(0, 3, 1, 16), Error);
    EXPECT_THROW(product_pieces(3, 3, 6, 16), Error);
    EXPECT_THROW(product_pieces(3, 3, 0, 16), Error);
    EXPECT_THROW(product_pieces(3, 3, 5, 1), Error);
}

}  // namespace
}  // namespace zgpu::poly
