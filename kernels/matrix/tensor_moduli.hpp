// The small moduli of the matrix products mod n on the 8-bit tensor cores
// (mat_mul_tensor.hpp), and how many a product needs. Host code, without CUDA, so that the
// bound is tested where there is no GPU.
//
// The scheme (Ozaki's scheme II): entries of a and b lifted to (-n/2, n/2], so the exact
// product c = a b over Z has |c| <= inner (n/2)^2 < inner 2^(2 bits - 2) for n < 2^bits. Each
// small modulus m_j <= 256 takes residues in [-128, 127], one 8-bit GEMM with 32-bit sums, and
// c is rebuilt from c mod m_j (j < t) by the CRT with M = m_0 ... m_(t-1). The count t is the
// least with M > inner 2^(2 bits) = 4 max |c|: then c / M lies in (-1/4, 1/4), so the integer
// nearest to the sum of the CRT's fractions (e_j / m_j, each in [0, 1)) is found in double
// precision with room to spare (its error is below t^2 2^-53).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace zgpu::kernels {

// Enough for every modulus below 2^64 and every inner dimension below 2^31: their logarithms
// add up to 184.6 bits, above the 159 that such a product needs.
inline constexpr unsigned kMaxTensorModuli = 24;

// Pairwise coprime, at most 256, largest first (256, 255, 253, 251, 247, ...): greedy from 256
// down, so that t is as small as can be.
std::span<const std::uint32_t> tensor_moduli();

// t for entries mod n < 2^modulus_bits (1 <= modulus_bits <= 64) summed over `inner` terms
// (1 <= inner < 2^31): the least t with m_0 ... m_(t-1) > inner 2^(2 modulus_bits).
unsigned tensor_moduli_count(unsigned modulus_bits, std::size_t inner);

// Residues a GEMM sums exactly: |x y| <= 128^2 = 2^14 a term, and a sum that starts from an
// earlier chunk's sum reduced into [0, 256) stays below 2^31 for this many terms
// (131056 2^14 + 255 < 2^31), a multiple of 16 as the GEMM's operands are padded to.
inline constexpr std::size_t kTensorInnerChunk = 131056;

}  // namespace zgpu::kernels
