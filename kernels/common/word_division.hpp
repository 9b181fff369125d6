// Division of a few words by one or two invariant words through a precomputed reciprocal
// (Möller and Granlund, "Improved division by invariant integers", IEEE TC 2011, algorithms
// 4 to 6): the quotient digit of schoolbook division. Host and device; B = 2^64 throughout.
#pragma once

#include <cmath>
#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The high word of x y.
ZGPU_HOST_DEVICE inline limb_t mul_high(limb_t x, limb_t y)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(x, y);
#else
    return limb_t((unsigned __int128)x * y >> 64);
#endif
}

// A two-word value (high, low) and its wrapping arithmetic.
struct TwoWords {
    limb_t high, low;

    ZGPU_HOST_DEVICE friend TwoWords operator+(TwoWords x, TwoWords y)
    {
        const limb_t low = x.low + y.low;
        return {x.high + y.high + (low < x.low), low};
    }
    ZGPU_HOST_DEVICE friend TwoWords operator-(TwoWords x, TwoWords y)
    {
        return {x.high - y.high - (x.low < y.low), x.low - y.low};
    }
    ZGPU_HOST_DEVICE friend bool operator>=(TwoWords x, TwoWords y)
    {
        return x.high > y.high || (x.high == y.high && x.low >= y.low);
    }
};

ZGPU_HOST_DEVICE inline TwoWords mul_wide(limb_t x, limb_t y) { return {mul_high(x, y), x * y}; }

// The signed value of a two-word remainder, to about 53 bits.
ZGPU_HOST_DEVICE inline double to_double(TwoWords x) { return double(std::int64_t(x.high)) * 0x1p64 + double(x.low); }

// floor((B^2 - 1) / d) - B for d >= B/2, a word. A division of doubles gets it to within
// 2^13; the remainder (B^2 - 1) - (B + v) d, below 2^78 in magnitude, divided the same way
// corrects that to within one, and the last step to the exact floor. (A 128-bit integer
// division would do it in one line, but costs hundreds of instructions on the GPU.)
ZGPU_HOST_DEVICE inline limb_t reciprocal_word(limb_t d)
{
    const double divisor = double(d), estimate = 0x1p128 / divisor - 0x1p64;
    limb_t v = estimate >= 0x1p64 ? ~limb_t(0) : limb_t(estimate);
    const auto remainder = [d](limb_t v) { return TwoWords{~limb_t(0), ~limb_t(0)} - mul_wide(v, d) - TwoWords{d, 0}; };
    const std::int64_t step = std::int64_t(floor(to_double(remainder(v)) / divisor));
    v = step > 0 && v + limb_t(step) < v ? ~limb_t(0) : v + limb_t(step);  // v <= B - 1
    TwoWords r = remainder(v);
    for (; std::int64_t(r.high) < 0; r = r + TwoWords{0, d}) --v;
    for (; r >= TwoWords{0, d}; r = r - TwoWords{0, d}) ++v;
    return v;
}

// floor((B^3 - 1) / (d1 B + d0)) - B for d1 >= B/2: the reciprocal of d1 corrected for d0
// (algorithm 6). Each step lowers v while v d = B^2 + p, kept in one word p, overflows.
ZGPU_HOST_DEVICE inline limb_t reciprocal_two_words(limb_t d1, limb_t d0)
{
    limb_t v = reciprocal_word(d1);
    limb_t p = d1 * v + d0;
    if (p < d0) {
        --v;
        if (p >= d1) {
            --v;
            p -= d1;
        }
        p -= d1;
    }
    const TwoWords t = mul_wide(v, d0);
    p += t.high;
    if (p < t.high) {
        --v;
        if (TwoWords{p, t.low} >= TwoWords{d1, d0}) --v;
    }
    return v;
}

// floor((u2 B^2 + u1 B + u0) / (d1 B + d0)) for (u2, u1) < (d1, d0), d1 >= B/2 and
// v = reciprocal_two_words(d1, d0) (algorithm 5): a candidate from v u2, then at most two
// corrections, the second rare.
ZGPU_HOST_DEVICE inline limb_t divide_three_by_two(limb_t u2, limb_t u1, limb_t u0, limb_t d1, limb_t d0, limb_t v)
{
    const TwoWords d{d1, d0};
    TwoWords q = mul_wide(v, u2) + TwoWords{u2, u1};
    TwoWords r = TwoWords{u1 - q.high * d1, u0} - mul_wide(d0, q.high) - d;
    ++q.high;
    if (r.high >= q.low) {
        --q.high;
        r = r + d;
    }
    if (r >= d) ++q.high;
    return q.high;
}

}  // namespace zgpu::kernels
