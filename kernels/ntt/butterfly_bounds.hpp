// Where a group of butterflies needs its corrections, worked out at compile time.
//
// A lazy residue is a word below b p, b its bound (a small integer known at compile time).
// A sum's bound is the sum of its operands'; a product by a twiddle (Shoup's) has bound 2 for
// any word; a correction min(x, x - c p) takes a word below 2c p below c p. A field's
// kHeadroom H is the largest bound its words hold without wrapping around (H p <= 2^bits), so
// that sums need a correction only where their bound would pass H: with H = 4 (32-bit words,
// p < 2^30) every forward sum and every inverse butterfly needs one; with H = 8 (p < 2^29)
// about half of them do.
// Between passes forward words have bound H / 2 and inverse ones H; `in` tells the first
// stage's bound where it is smaller (words just reduced, pointwise products).
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// A group of 2^K words through K stages. bound[k][m]: word m's bound before stage k (bound[K]:
// after the last); operand[k][m] (inverse plans only: the forward butterflies read their words
// as they are): its bound as stage k's butterfly reads it, after a correction where that is
// smaller than bound[k][m]. Stage k pairs m with m + 2^level, level K - 1 - k
// forward and k inverse (ntt_stages.cuh's butterflies).
// exact: no sum passes H and every correction is one subtraction (the users static_assert it).
template <int K>
struct GroupBounds {
    int bound[K + 1][1 << K];
    int operand[K][1 << K];
    bool exact = true;
};

// A correction from bound `from` to `to` is one subtraction, or none where to >= from.
ZGPU_HOST_DEVICE constexpr bool one_correction(int from, int to) { return to >= from || from <= 2 * to; }
// The fields keep c p for c = 2 and 4, the constants of the differences.
ZGPU_HOST_DEVICE constexpr bool has_multiple(int c) { return c == 2 || c == 4; }

// Forward (u, v) -> (u + v, (u - v) w): the difference u + b_v p - v reads the words as they
// are, its product has bound 2, and a sum above H / 2 is corrected to H / 2 (sums stay within
// H as both operands are within H / 2). UpperZero: stage 0's v words are zero, its butterflies
// products only. Bottom: the bottom stages of a group whose first word is a multiple of 2^K,
// where a butterfly with j = 0 has the twiddle 1 (ntt_stages.cuh's bottom_butterflies): its
// difference is corrected as its sum is.
template <int K>
ZGPU_HOST_DEVICE constexpr GroupBounds<K> forward_bounds(int headroom, int in, bool upper_zero, bool bottom)
{
    const int boundary = headroom / 2;
    GroupBounds<K> g{};
    for (int m = 0; m < (1 << K); ++m) g.bound[0][m] = in;
    for (int k = 0; k < K; ++k) {
        const int level = K - 1 - k;
        for (int m = 0; m < (1 << K); ++m) {
            if (m & (1 << level)) continue;
            const int h = m + (1 << level), sum = g.bound[k][m] + g.bound[k][h];
            const bool unit = bottom && (m & ((1 << level) - 1)) == 0;
            if (upper_zero && k == 0) {
                g.bound[k + 1][m] = g.bound[k][m];
                g.bound[k + 1][h] = 2;
                continue;
            }
            g.exact = g.exact && sum <= headroom && one_correction(sum, boundary) && has_multiple(g.bound[k][h]);
            g.bound[k + 1][m] = sum > boundary ? boundary : sum;
            g.bound[k + 1][h] = unit ? g.bound[k + 1][m] : 2;
        }
    }
    return g;
}

// Inverse (Harvey's) (u, v) -> (u + v w, u - v w): v w has bound 2 and u is corrected to H / 2
// where u + 2 would pass H; both outputs have u's bound plus 2. With the twiddle 1 (Bottom,
// j = 0) v is not multiplied: it is corrected to H / 2 where larger, so that the difference
// u + b_v p - v has a constant of the fields' (2p or 4p), then u where the sum would pass H.
template <int K>
ZGPU_HOST_DEVICE constexpr GroupBounds<K> inverse_bounds(int headroom, int in, bool bottom)
{
    const int half = headroom / 2;
    GroupBounds<K> g{};
    for (int m = 0; m < (1 << K); ++m) g.bound[0][m] = in;
    for (int k = 0; k < K; ++k) {
        const int level = k;
        for (int m = 0; m < (1 << K); ++m) {
            if (m & (1 << level)) continue;
            const int h = m + (1 << level);
            const bool unit = bottom && (m & ((1 << level) - 1)) == 0;
            int x = g.bound[k][m], y = unit ? g.bound[k][h] : 2;
            if (unit && y > half) y = half;
            if (x + y > headroom) x = half;
            const bool v_fits = !unit || (one_correction(g.bound[k][h], y) && has_multiple(y));
            g.exact = g.exact && x + y <= headroom && one_correction(g.bound[k][m], x) && v_fits;
            g.operand[k][m] = x;
            g.operand[k][h] = unit ? y : g.bound[k][h];
            g.bound[k + 1][m] = g.bound[k + 1][h] = x + y;
        }
    }
    return g;
}

}  // namespace zgpu::kernels
