// Where a tile kernel's products come from and go (poly_mul.cu, poly_mul_mod_n.cu): a block's
// products, one a tile, each with its operands' words, how many of them the transform reads,
// and its result.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/poly/poly_mul.hpp"

namespace zgpu::kernels {

// How many coefficients of operand x of product j a transform reads: the result's length bounds
// what matters (mullow).
__device__ inline std::uint32_t read_length(const ConstPolyBatchView& x, const PolyBatchView& out, std::size_t j)
{
    return min(x.length(j), out.length(j));
}

template <int MaxTiles>
struct ProductSlots {
    const limb_t* source[2][MaxTiles];  // a's words, b's
    std::uint32_t limit[2][MaxTiles];   // read_length of each
    limb_t* product[MaxTiles];
    std::uint32_t product_length[MaxTiles];

    // Products first .. first + tiles - 1 (those below `products`), words of prime `prime`, by
    // the block's threads; returns (to all of them) whether every operand lies within the lower
    // half of its transform of `length` words.
    __device__ bool fill(const ConstPolyBatchView& a, const ConstPolyBatchView& b, const PolyBatchView& out, std::size_t prime,
                         std::size_t first, int tiles, std::size_t products, std::uint32_t length)
    {
        bool lower_half = true;
        for (int q = threadIdx.x; q < tiles; q += blockDim.x) {
            const std::size_t j = first + q;
            const bool present = j < products;
            for (int operand = 0; operand < 2; ++operand) {
                const ConstPolyBatchView& x = operand ? b : a;
                source[operand][q] = present ? x.values.prime(prime) + x.offset(j) : nullptr;
                limit[operand][q] = present ? read_length(x, out, j) : 0;
            }
            product[q] = present ? out.values.prime(prime) + out.offset(j) : nullptr;
            product_length[q] = present ? out.length(j) : 0;
            lower_half = lower_half && max(limit[0][q], limit[1][q]) <= length / 2;
        }
        return __syncthreads_and(lower_half);
    }
};

}  // namespace zgpu::kernels
