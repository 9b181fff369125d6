#include "plugin/poly/product_pieces.hpp"

#include <algorithm>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::poly {

std::vector<ProductPiece> product_pieces(std::size_t a_length, std::size_t b_length, std::size_t out_length,
                                         std::uint64_t max_transform)
{
    if (a_length == 0 || b_length == 0 || out_length == 0 || out_length > a_length + b_length - 1 || max_transform < 2)
        throw Error("product pieces: lengths " + std::to_string(a_length) + " x " + std::to_string(b_length) + " to " +
                    std::to_string(out_length) + " in transforms of " + std::to_string(max_transform));
    // Coefficients beyond out_length never reach the result.
    a_length = std::min(a_length, out_length);
    b_length = std::min(b_length, out_length);
    const std::size_t half = std::size_t(max_transform / 2);
    const std::size_t shorter = std::min(a_length, b_length);
    const std::size_t short_piece = shorter <= half ? shorter : half;
    const std::size_t long_piece = std::size_t(max_transform) + 1 - short_piece;
    const std::size_t a_piece = a_length <= b_length ? short_piece : long_piece;
    const std::size_t b_piece = a_length <= b_length ? long_piece : short_piece;
    std::vector<ProductPiece> pieces;
    for (std::size_t i = 0; i < a_length; i += a_piece)
        for (std::size_t j = 0; j < b_length && i + j < out_length; j += b_piece) {
            const std::size_t la = std::min(a_piece, a_length - i), lb = std::min(b_piece, b_length - j);
            pieces.push_back({i, la, j, lb, std::min(la + lb - 1, out_length - i - j)});
        }
    return pieces;
}

}  // namespace zgpu::poly
