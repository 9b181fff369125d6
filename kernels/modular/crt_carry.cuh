// What the CRT's combine kernels share (multi_crt.cu has the algorithm): the chunk of values and
// temporaries they work on, and the carrying lane's pass over one value's limbs, from the low
// limbs up, that turns S's column sums into limbs of the result's magnitude.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/modular/modular_tables.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// What is left for crt_fix: 0, done; 1 + limb `product_limbs` of D; kNegativeWrap, s < 0.
inline constexpr std::uint8_t kNegativeWrap = 3;

// One chunk of values and its temporaries: y, h and l of F, and what is left for crt_fix. y is
// prime-major (y_i of value e at y[i * count + e]) where y_stages is 0; else it holds the images
// of the tensor kernel's stages (crt_y_image_word in crt_combine.hpp, zeros past k and past the
// values up to a whole block), each y_i with the bytes of its two 32-bit halves reversed.
struct CrtChunk {
    limb_t* y;
    std::size_t y_stages;
    limb_t* quotient;
    limb_t* fraction;
    std::uint8_t* pending;
    std::size_t first, count;
    BatchView out;  // the chunk's values
};

// y = r c mod n and f = floor(y B / n) (below B as y < n) for a residue r and c = M^-1 mod n.
struct CrtTerm {
    limb_t y, fraction;
};
__device__ inline CrtTerm crt_term(const Modulus& m, limb_t r, limb_t inverse)
{
    const limb_t y = m.mul(r, inverse);
    return {y, m.divide(y, 0).quotient};
}

// A carrying lane's value between limbs: u, the direction, and the running carries.
struct CarryState {
    limb_t u = 0, s_carry0 = 0, s_carry1 = 0, p_carry = 0;  // S's carry (two words), u P's (one)
    bool negative = false, open = false, wrap = false, borrow = false;
    std::uint32_t used = 0;  // limbs up to the highest nonzero one so far

    // The estimate of value e: which of S - h P, S - (h + 1) P or (h + 1) P - S the pass computes.
    __device__ void begin(const CrtChunk& c, std::size_t e, std::size_t k, bool sign)
    {
        const limb_t l = c.fraction[e], half = limb_t(1) << 63;
        if (l > limb_t(0) - k) wrap = true;  // l > B - k: s = S - (h + 1) P is small
        else if (sign && l > half) negative = true;
        else if (sign && l > half - k) open = true;  // 2x vs P undecided
        u = c.quotient[e] + (negative || wrap);
    }

    // Limb w of the magnitude from S's column w (c2 B^2 + c1 B + c0, without the carries from
    // below) and limb w of P: S's limb is the column's low word plus the carry, and the carry
    // takes the column's upper words. A column and the carry stay below (k + 1) B^2 and the
    // carry below (k + 1) B: two words.
    __device__ limb_t limb(limb_t c0, limb_t c1, limb_t c2, limb_t pw, std::uint32_t w)
    {
        const limb_t sw = c0 + s_carry0;
        const limb_t cy = sw < s_carry0;
        limb_t n0 = c1 + s_carry1;
        limb_t n1 = c2 + (n0 < s_carry1);
        n0 += cy;
        n1 += n0 < cy;
        s_carry0 = n0;
        s_carry1 = n1;
        // u P's limb.
        const limb_t low = u * pw, p = low + p_carry;
        p_carry = mul_high(u, pw) + (p < low);
        // The magnitude: S - u P, or u P - S for a negative result.
        const limb_t x = negative ? p : sw, y = negative ? sw : p;
        const limb_t d = x - y - borrow;
        borrow = x < y || (x == y && borrow);
        if (d != 0) used = w + 1;
        return d;
    }

    // S's part above the limbs of P (a column past the last limb, two words) joins the carry.
    __device__ void add_above(limb_t c0, limb_t c1)
    {
        s_carry0 += c0;
        s_carry1 += c1 + (s_carry0 < c0);
    }

    // After the last limb: value e's size, or what crt_fix and crt_negate still have to do.
    // Limb `limbs` of the difference is 0 for a finished value, 0 or 1 for D, all ones for a
    // negative s (S < k P and u P < k P keep both below k B^limbs, so one word holds what is
    // above).
    __device__ void finish(const CrtChunk& c, std::size_t e) const
    {
        const limb_t x = negative ? p_carry : s_carry0, y = negative ? s_carry0 : p_carry;
        const limb_t top = x - y - borrow;
        const bool negative_wrap = wrap && top != 0;  // s < 0: the pass left B^limbs + s
        c.pending[e] = negative_wrap ? kNegativeWrap : open ? std::uint8_t(1 + (top & 1)) : 0;
        if (!open && !negative_wrap) c.out.sizes[e] = negative ? -std::int32_t(used) : std::int32_t(used);
    }
};

// Zeros in the limbs above P's, up to the stride, of values e0 .. e0 + values - 1 (the block's
// threads together).
__device__ inline void zero_above_product(const CrtChunk& c, std::size_t e0, std::size_t values, std::uint32_t limbs)
{
    const std::uint32_t above = c.out.stride - limbs;
    for (std::size_t idx = threadIdx.x; idx < values * above; idx += blockDim.x) {
        const std::size_t e = idx / above;
        if (e0 + e < c.count) c.out.element(e0 + e)[limbs + idx % above] = 0;
    }
}

}  // namespace zgpu::kernels
