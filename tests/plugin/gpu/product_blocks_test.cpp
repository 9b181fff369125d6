// The blocks of a matrix product over Z (plugin/gpu/matrix/product_blocks.hpp): the whole product
// where it fits, bands of a's rows where b fits in half the budget, bands of b's columns
// otherwise, every block within the budget, and an error where one row and one column do not fit.
// A pass's bands of rows: within their bytes, even, covering every row once.
#include <gtest/gtest.h>

#include "plugin/gpu/matrix/product_blocks.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

using gpu::product_block;
using gpu::ProductBlock;
using gpu::ProductEntryBytes;

long double bytes_of(const ProductBlock& b, std::size_t inner, const ProductEntryBytes& e)
{
    return (long double)b.rows * inner * e.a + (long double)b.cols * inner * e.b + (long double)b.rows * b.cols * e.c;
}

TEST(ProductBlocks, TheWholeProductWhereItFitsExactly)
{
    const ProductEntryBytes e{10, 20, 30};
    const std::size_t exact = 7 * 5 * 10 + 9 * 5 * 20 + 7 * 9 * 30;
    const ProductBlock whole = product_block(7, 5, 9, e, exact);
    EXPECT_EQ(whole.rows, 7u);
    EXPECT_EQ(whole.cols, 9u);
    const ProductBlock less = product_block(7, 5, 9, e, exact - 1);
    EXPECT_LT(less.rows, 7u);
    EXPECT_EQ(less.cols, 9u);
    EXPECT_LE(bytes_of(less, 5, e), exact - 1);
}

TEST(ProductBlocks, BandsOfRowsWhereBFitsInHalf)
{
    const ProductEntryBytes e{100, 100, 200};
    const std::size_t budget = 1 << 20, inner = 50, cols = 80;  // b: 400 kB
    const ProductBlock block = product_block(100000, inner, cols, e, budget);
    EXPECT_EQ(block.cols, cols);
    EXPECT_GT(block.rows, 0u);
    EXPECT_LE(bytes_of(block, inner, e), budget);
    EXPECT_GT(bytes_of({block.rows + 1, cols}, inner, e), budget) << "the most rows that fit";
}

TEST(ProductBlocks, BandsOfColumnsWhereBDoesNot)
{
    const ProductEntryBytes e{100, 100, 200};
    const std::size_t budget = 1 << 20, inner = 50;
    const ProductBlock block = product_block(1000, inner, 100000, e, budget);
    EXPECT_LT(block.cols, 100000u);
    EXPECT_LE((long double)block.cols * inner * e.b, budget / 2);
    EXPECT_GT(block.rows, 0u);
    EXPECT_LE(bytes_of(block, inner, e), budget);
}

TEST(ProductBlocks, SizesWhoseBytesExceedAWord)
{
    const ProductEntryBytes e{1000, 1000, 1000};
    const std::size_t huge = std::size_t(1) << 40;
    const ProductBlock block = product_block(huge, 4, huge, e, std::size_t(1) << 34);
    EXPECT_GT(block.rows, 0u);
    EXPECT_GT(block.cols, 0u);
    EXPECT_LE(bytes_of(block, 4, e), (long double)(std::size_t(1) << 34));
}

TEST(ProductBlocks, OneRowAndOneColumnThatDoNotFitAreAnError)
{
    const ProductEntryBytes e{100, 100, 200};
    EXPECT_THROW(product_block(10, 1000, 10, e, 150000), Error);
    EXPECT_NO_THROW(product_block(10, 1000, 10, e, 200201));
}

TEST(ProductBands, TheFewestEvenBandsCoverEveryRow)
{
    EXPECT_EQ(gpu::product_bands(0, 100).count, 0u);
    // 1024 rows, at most 84 a band (24 MiB of values of 36 limbs and a size, 1024 a row): 13
    // bands of 79 rows, the last of 76.
    const gpu::ProductBands big = gpu::product_bands(1024, 84);
    EXPECT_EQ(big.count, 13u);
    EXPECT_EQ(big.rows, 79u);
    // No rows allowed: one a band. More than all: one band.
    EXPECT_EQ(gpu::product_bands(7, 0).rows, 1u);
    EXPECT_EQ(gpu::product_bands(7, 0).count, 7u);
    EXPECT_EQ(gpu::product_bands(7, 100).rows, 7u);
    EXPECT_EQ(gpu::product_bands(7, 100).count, 1u);
    for (std::size_t rows = 1; rows < 200; ++rows)
        for (std::size_t most = 1; most <= rows + 1; ++most) {
            const gpu::ProductBands b = gpu::product_bands(rows, most);
            EXPECT_LE(b.rows, most) << rows << " rows, " << most << " a band at most";
            EXPECT_GE(b.rows * b.count, rows) << rows << " rows, " << most << " a band at most";
            EXPECT_LT(b.rows * (b.count - 1), rows) << rows << " rows, " << most << " a band at most";
            EXPECT_EQ(b.count, (rows + std::min(most, rows) - 1) / std::min(most, rows)) << "the fewest bands";
        }
}

}  // namespace
}  // namespace zgpu::testing
