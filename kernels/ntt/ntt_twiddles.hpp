// The twiddle tables of the NTT (layout: ntt_tables.hpp), computed on the host.
#pragma once

#include <span>

#include "kernels/ntt/ntt_tables.hpp"

namespace zgpu::kernels {

// Fills `table` (a power of two, at most kNttMaxLength entries, dividing f.p - 1) for field f:
// entry M/2 + j = w_M^j, or w_M^-j when `inverse`, with w_M = root_of_unity(f, M) for
// M = 2, 4, ..., table.size(); entry 0 unused.
// All roots are powers of the same non-residue, so w_M = w_2M^2, as the stages require.
inline void fill_twiddles(const PrimeField& f, bool inverse, std::span<Twiddle> table)
{
    table[0] = {0, 0};
    for (std::uint32_t half = 1; half < table.size(); half *= 2) {
        const std::uint32_t root = root_of_unity(f, 2 * half);
        const std::uint32_t step = inverse ? f.inverse(root) : root;
        std::uint32_t w = 1;
        for (std::uint32_t j = 0; j < half; ++j) {
            table[half + j] = {w, f.shoup(w)};
            w = std::uint32_t(std::uint64_t(w) * step % f.p);
        }
    }
}

}  // namespace zgpu::kernels
