// A product too long for one transform, as products of pieces of its operands: a = sum a_i
// x^(i pa), b = sum b_j x^(j pb), so a b = sum a_i b_j x^(i pa + j pb), each a_i b_j short
// enough for the transform, the results added where they overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zgpu::poly {

// a's coefficients [a_first, a_first + a_length) times b's [b_first, b_first + b_length),
// truncated to out_length coefficients, added into the product from out_first = a_first + b_first.
struct ProductPiece {
    std::size_t a_first, a_length, b_first, b_length, out_length;
    std::size_t out_first() const { return a_first + b_first; }
};

// The pieces of a product of a_length and b_length coefficients (both at least 1) truncated to
// out_length (1 to a_length + b_length - 1): each with a_length + b_length - 1 <= max_transform
// (at least 2), together every pair of coefficients whose sum of indices is below out_length,
// each pair once. The shorter operand stays whole where it takes at most half the transform,
// else goes in pieces of half; the longer one in pieces of the rest. Pieces wholly above
// out_length are left out.
std::vector<ProductPiece> product_pieces(std::size_t a_length, std::size_t b_length, std::size_t out_length,
                                         std::uint64_t max_transform);

}  // namespace zgpu::poly
