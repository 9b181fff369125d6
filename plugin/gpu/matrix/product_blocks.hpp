// How a matrix product over Z splits into blocks that fit the device: bands of rows of a times
// bands of columns of b, each block's operands, residues and CRT values within a budget of
// device memory; and how a block's pass splits a's rows into the bands it pipelines. Pure
// functions, so that they are tested without a GPU.
#pragma once

#include <cstddef>

namespace zgpu::gpu {

// Device bytes an entry takes: of a and of b (packed limbs and size, residues), of c (residues
// and CRT value).
struct ProductEntryBytes {
    std::size_t a, b, c;
};

// A block: `rows` rows of a (rows x inner) times `cols` columns of b (inner x cols).
struct ProductBlock {
    std::size_t rows, cols;
};

// The largest blocks within `budget` bytes: the whole product where it fits; else all of b's
// columns, where b takes at most half the budget, with as many rows of a as the rest holds; else
// bands of b's columns taking half the budget. zgpu::Error where one row of a and one column of
// b do not fit.
ProductBlock product_block(std::size_t rows, std::size_t inner, std::size_t cols, const ProductEntryBytes& bytes, std::size_t budget);

// A block's pass in bands of a's rows (banded_product.hpp): `count` bands of `rows` rows, the
// last one possibly shorter.
struct ProductBands {
    std::size_t rows, count;
};

// The fewest bands of at most most_rows rows (at least one), as even as may be. No bands for no
// rows.
ProductBands product_bands(std::size_t rows, std::size_t most_rows);

}  // namespace zgpu::gpu
