// The longest length L for which KS multiplies two length-L polynomials mod n with every
// coefficient n - 1 in one batch (the bound's tightest case at the batch's limit).
#pragma once

#include <cstddef>
#include <vector>

#include "plugin/poly/ks.hpp"
#include "plugin/poly/poly_choice.hpp"

namespace zgpu::testing {

inline std::size_t ks_limit_length(ulong n)
{
    const auto fits = [n](std::size_t len) {
        const std::vector<ulong> p(len, n - 1);
        const std::uint64_t limbs = poly::ks_limbs(p.data(), len, poly::ks_bits(n, len));
        return poly::ks_fits_batch(limbs, limbs);
    };
    std::size_t lo = 1, hi = std::size_t(1) << 23;  // fits(lo), not fits(hi)
    while (lo + 1 < hi) {
        const std::size_t mid = (lo + hi) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

}  // namespace zgpu::testing
