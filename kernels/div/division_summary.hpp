// What a division needs to know of its operands before it starts, and the bound on a quotient's
// length it rests on. Host and device; no CUDA needed (the CPU backend summarizes too).
#pragma once

#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// What a division needs to know of its operands before it starts.
struct DivisionSummary {
    unsigned long long first_zero;     // index of the first zero divisor, or b's count if none
    std::uint32_t min_size;            // of |b[i]|, in limbs
    std::uint32_t longest_quotient;    // the largest quotient_limbs_bound over the elements
};

// A bound on the limbs of floor(|a| / |b|), from the sizes na >= 0, nb > 0 of the magnitudes
// and their top limbs: a < (a_top + 1) B^(na-1) and b >= b_top B^(nb-1), so with a_top < b_top
// the quotient is below B^(na-nb) (na - nb limbs), otherwise below B^(na-nb+1) (B = 2^64).
ZGPU_HOST_DEVICE inline std::uint32_t quotient_limbs_bound(std::uint32_t na, limb_t a_top, std::uint32_t nb, limb_t b_top)
{
    return na < nb ? 0 : na - nb + (a_top >= b_top ? 1 : 0);
}

}  // namespace zgpu::kernels
