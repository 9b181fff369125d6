// Which polynomial products mod n take the GPU path, and the rule that picks the backend.
//
// The backend: mul_host applies host_choice's rule for products of integers to the KS
// operands' sizes (the largest of a and of b, and the count). This is a first rule, to be
// fitted on the GPU machine: FLINT's nmod_poly_mul is not fmpz_mul of the KS integers (FLINT 3
// multiplies long polynomials by its small-prime FFT, faster than KS), so the GPU may be
// chosen where it does not pay.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "plugin/poly/ks_pair.hpp"

namespace zgpu::poly {

// Whether the KS product of operands of these limbs fits a batch, as mul_host checks it: the
// operands' size classes sum to at most kMaxLimbs. The product then has at most 2^22 bits:
// about (la + lb - 1) * b <= 2^22 (exactly, its (la + lb - 2) * b + 2 bits(n) bits), less up to
// the size classes' 1/8 of padding.
bool ks_fits_batch(std::uint64_t a_limbs, std::uint64_t b_limbs);

// The pairs, by index, for one batch of integer products: nonzero products that fit a batch,
// also against the largest b of the others (a batch's products have one stride, that of its
// largest a times its largest b; a holds each pair's longer operand). The others (zero
// products aside) are FLINT's.
std::vector<std::size_t> gpu_pairs(std::span<const KsPair> pairs);

}  // namespace zgpu::poly
