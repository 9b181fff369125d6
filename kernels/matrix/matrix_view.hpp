// Batches of row-major matrices of words: matrix b of the batch at data + b * matrix_stride,
// its entry (i, j) at i * row_stride + j. One matrix a prime, prime-major, as a multi-modular
// algorithm keeps the same matrix modulo each prime of a set.
#pragma once

#include <cstddef>
#include <type_traits>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

template <class Word>
struct BasicMatricesView {
    Word* data = nullptr;
    std::size_t rows = 0, cols = 0;
    std::size_t row_stride = 0;     // >= cols
    std::size_t matrix_stride = 0;  // >= rows * row_stride where the batch has several
    std::size_t count = 0;          // matrices in the batch

    ZGPU_HOST_DEVICE Word* matrix(std::size_t b) const { return data + b * matrix_stride; }

    // The block of the first matrix with `rows` rows and `cols` columns from entry (row, col), as a
    // batch of one (an LU's views into its own matrix).
    ZGPU_HOST_DEVICE BasicMatricesView block(std::size_t row, std::size_t col, std::size_t block_rows, std::size_t block_cols) const
    {
        return {data + row * row_stride + col, block_rows, block_cols, row_stride, 0, 1};
    }

    // A mutable view converts to a read-only one.
    template <class W = Word>
        requires(!std::is_const_v<W>)
    ZGPU_HOST_DEVICE operator BasicMatricesView<const W>() const
    {
        return {data, rows, cols, row_stride, matrix_stride, count};
    }
};
using MatricesView = BasicMatricesView<limb_t>;
using ConstMatricesView = BasicMatricesView<const limb_t>;

}  // namespace zgpu::kernels
