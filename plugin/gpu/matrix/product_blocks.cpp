#include "plugin/gpu/matrix/product_blocks.hpp"

#include <algorithm>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// Bytes of a block of h rows and w columns, in long double: the products of sizes may exceed a
// word.
long double block_bytes(std::size_t h, std::size_t w, std::size_t inner, const ProductEntryBytes& bytes)
{
    const long double in = inner;
    return h * in * bytes.a + w * in * bytes.b + (long double)h * w * bytes.c;
}

// The most rows of a that fit beside w columns of b.
std::size_t rows_beside(std::size_t w, std::size_t inner, const ProductEntryBytes& bytes, std::size_t budget)
{
    const long double left = (long double)budget - (long double)w * inner * bytes.b;
    const long double per_row = (long double)inner * bytes.a + (long double)w * bytes.c;
    return left <= 0 ? 0 : std::size_t(left / per_row);
}

}  // namespace

ProductBlock product_block(std::size_t rows, std::size_t inner, std::size_t cols, const ProductEntryBytes& bytes, std::size_t budget)
{
    if (block_bytes(rows, cols, inner, bytes) <= budget) return {rows, cols};
    std::size_t w = cols;
    if ((long double)cols * inner * bytes.b > budget / 2) w = std::size_t(budget / 2 / ((long double)inner * bytes.b));
    const std::size_t h = w == 0 ? 0 : std::min(rows, rows_beside(w, inner, bytes, budget));
    if (h == 0)
        throw Error("a matrix product over Z: a row of a and a column of b (" + std::to_string(inner) +
                    " entries each) do not fit the " + std::to_string(budget) + " bytes of device memory it may use");
    return {h, w};
}

ProductBands product_bands(std::size_t rows, std::size_t most_rows)
{
    if (rows == 0) return {0, 0};
    const std::size_t most = std::clamp<std::size_t>(most_rows, 1, rows);
    const std::size_t fewest = (rows + most - 1) / most;
    const std::size_t even = (rows + fewest - 1) / fewest;  // at most `most`
    return {even, (rows + even - 1) / even};
}

}  // namespace zgpu::gpu
