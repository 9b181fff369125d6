// Division with remainder by Knuth's algorithm D, T lanes of a warp an element (T = 4 .. 32
// by the divisor's stride, several elements a warp below 32), for divisors up to
// kDivremWarpMaxDivisorLimbs and dividends of any length.
//
// Normalization: with s the leading zero bits of |b|'s top limb and p = W - |b| limbs of
// padding (W = T R, R limbs a lane), V = |b| 2^s B^p has W limbs and its top bit set, and
// U = |a| 2^s B^p; then floor(U / V) = floor(|a| / |b|) and the remainders differ by the
// factor 2^s B^p. Step j (j = Q-1 .. 0, Q = |a| - |b| + 1 quotient limbs) divides the W + 1
// limbs U[j .. j+W] by V, a window below B V: the lane of rank t holds window limbs
// [R t, R t + R), the top limb is held by every lane, and the next step moves the window one
// limb down. The lanes of a warp take as many steps as its longest division, the others
// idling (digit 0, window kept).
//
// The digit: with (u2, u1, u0) the window's top three limbs and (d1, d0) V's top two, the
// 3/2 quotient f = floor((u2, u1, u0) / (d1, d0)) is the true digit or one more: the limbs
// left out move window / V below f by less than (u2, u1, u0) / ((d1, d0) ((d1, d0) + 1))
// < B / (d1, d0) <= 2 / B, and never above it. Where (u2, u1) = (d1, d0), f would be B or more
// and the digit is B - 1 exactly (the window is below B V, and by the same bound above
// (B - 1) V). The digit times V is subtracted; a negative window (probability about 2/B)
// takes the digit down by one and V back. Cost a step: R limb products a lane, one 3/2
// division, two ballots and seven shuffles, for Q steps, shared by 32 / T elements.
#include "kernels/div/divrem.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/thread_group.cuh"
#include "kernels/common/warp_limbs.cuh"
#include "kernels/common/word_division.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kWarpsPerBlock = 4;

// Limb l of |x| 2^bits for the n-limb magnitude x and bits < 64; zero outside [0, n].
__device__ inline limb_t left_shifted_limb(const limb_t* x, std::int64_t n, int bits, std::int64_t l)
{
    const limb_t high = l >= 0 && l < n ? x[l] : 0, low = l >= 1 && l <= n ? x[l - 1] : 0;
    return bits ? high << bits | low >> (64 - bits) : high;
}

// Where `apply`: x = y + x, or y - x if subtract, over the group's W limbs; the carry out of the
// top is dropped. Every lane of the warp calls it.
template <int T, int R>
__device__ void add_to_or_subtract_from(const ThreadGroup<T>& group, limb_t (&x)[R], const limb_t (&y)[R], bool subtract,
                                        bool apply)
{
    limb_t sum[R];
    bool carry = false;
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const limb_t s = subtract ? y[k] - x[k] : y[k] + x[k];
        sum[k] = subtract ? s - carry : s + carry;
        carry = subtract ? (s > y[k]) | (sum[k] > s) : (s < y[k]) | (sum[k] < s);
    }
    // A carry into a lane is generated below it and passed on by chunks of all ones (adding)
    // or all zeros (subtracting); a chunk that generates one cannot also pass one on.
    const limb_t passes = subtract ? 0 : ~limb_t(0);
    bool propagate = !carry;
#pragma unroll
    for (int k = 0; k < R; ++k) propagate &= sum[k] == passes;
    bool in = group.carries(carry, propagate).into[0];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const bool out = in && sum[k] == passes;
        sum[k] = subtract ? sum[k] - in : sum[k] + in;
        in = out;
    }
    if (apply)
#pragma unroll
        for (int k = 0; k < R; ++k) x[k] = sum[k];
}

// u -= digit v over the group's W limbs, the window's top limb above them; returns whether the
// window went negative (then by less than v). Every lane of the warp calls it.
template <int T, int R>
__device__ bool subtract_multiple(const ThreadGroup<T>& group, limb_t (&u)[R], const limb_t (&v)[R], limb_t digit, limb_t top)
{
    // Each lane subtracts its own products: chunk - digit v_chunk = chunk' - borrow B^R, with
    // a borrow word below B (digit v_k + borrow <= (B - 1) B fits two words).
    limb_t borrow = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const TwoWords p = mul_wide(digit, v[k]) + TwoWords{0, borrow};
        const limb_t x = u[k] - p.low;
        borrow = p.high + (x > u[k]);
        u[k] = x;
    }
    // Each lane takes the borrow word of the lane below, which may leave a one-bit borrow: the
    // chunk generates one where it is below that word, passes one on where it equals it.
    const limb_t below = __shfl_up_sync(kFullWarp, borrow, 1, T), word = group.rank() == 0 ? 0 : below;
    bool high_zero = true;
#pragma unroll
    for (int k = 1; k < R; ++k) high_zero &= u[k] == 0;
    const Carries borrows = group.carries(high_zero && u[0] < word, high_zero && u[0] == word);
    const limb_t bit = borrows.into[0];
    const limb_t first = u[0] - word;
    bool in = (first > u[0]) | (first < bit);
    u[0] = first - bit;
#pragma unroll
    for (int k = 1; k < R; ++k) {
        const bool out = in && u[k] == 0;
        u[k] -= in;
        in = out;
    }
    // The top limb pays the top lane's borrow word and bit.
    const limb_t out_word = __shfl_sync(kFullWarp, borrow, T - 1, T);
    return out_word > top || (out_word == top && borrows.generate);
}

// Where `carry`: adds 1 to the n-limb magnitude at x; returns one past the limb that took the
// carry, else 0. Every lane of the warp calls it.
template <int T>
__device__ std::uint32_t increment(const ThreadGroup<T>& group, limb_t* x, std::uint32_t n, bool carry)
{
    std::uint32_t taken = 0;
    for (std::uint32_t base = 0; __any_sync(kFullWarp, carry); base += T) {
        const std::uint32_t k = base + group.rank();
        const limb_t value = carry && k < n ? x[k] : 0;
        const std::uint32_t takes = group.ballot(k >= n || value != ~limb_t(0));
        const int taker = takes ? __ffs(takes) - 1 : T;
        if (carry && k < n && group.rank() <= taker) x[k] = group.rank() < taker ? 0 : value + 1;
        if (carry && taker < T) {
            taken = base + taker + 1;
            carry = false;
        }
    }
    return taken;
}

template <int T, int R>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    divrem_kernel(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r)
{
    constexpr int W = T * R, kPerBlock = kWarpsPerBlock * 32 / T;
    __shared__ limb_t staged[kPerBlock][W + 1];
    typename ThreadGroup<T>::Shared no_memory;
    const ThreadGroup<T> group(no_memory);
    const int rank = group.rank();
    const auto [i, other, active] = group_element<T>(kPerBlock, a.count, broadcast);
    const limb_t* divisor = b.element(other);
    const std::int64_t nb = magnitude(b.sizes[other]);
    const int bits = __clzll(divisor[nb - 1]);
    const std::int64_t pad = W - nb;
    limb_t v[R], u[R];
#pragma unroll
    for (int k = 0; k < R; ++k) v[k] = left_shifted_limb(divisor, nb, bits, R * rank + k - pad);
    const limb_t d1 = __shfl_sync(kFullWarp, v[R - 1], T - 1, T);
    const limb_t d0 = __shfl_sync(kFullWarp, v[R > 1 ? R - 2 : 0], R > 1 ? T - 1 : T - 2, T);
    const limb_t reciprocal = reciprocal_two_words(d1, d0);

    // The first window: U[first .. first+W] with first = Q - 1, or U[0 .. W] (= |a| 2^s B^p)
    // when there is no quotient limb.
    const limb_t* dividend = a.element(active ? i : 0);
    const std::int64_t na = active ? magnitude(a.sizes[i]) : 0, steps = na - nb + 1, first = steps > 0 ? steps - 1 : 0;
#pragma unroll
    for (int k = 0; k < R; ++k) u[k] = left_shifted_limb(dividend, na, bits, first + R * rank + k - pad);
    limb_t top = left_shifted_limb(dividend, na, bits, first + W - pad);

    limb_t* quotient = q.limbs && active ? q.element(i) : nullptr;
    limb_t digits = 0;  // the lane of rank t holds digit j with j mod T = t until a store of T
    std::uint32_t q_size = 0;
    limb_t incoming = 0;  // U's limbs below the window, T at a time
    std::int64_t incoming_first = first - pad;
    const std::int64_t most_steps = __reduce_max_sync(kFullWarp, steps > 0 ? unsigned(steps) : 0u);
    for (std::int64_t j = most_steps - 1; j >= 0; --j) {
        const bool live = j < steps;
        const limb_t u1 = __shfl_sync(kFullWarp, u[R - 1], T - 1, T);
        const limb_t u0 = __shfl_sync(kFullWarp, u[R > 1 ? R - 2 : 0], R > 1 ? T - 1 : T - 2, T);
        limb_t digit = !live                      ? 0
                       : top == d1 && u1 == d0 ? ~limb_t(0)
                                                : divide_three_by_two(top, u1, u0, d1, d0, reciprocal);
        const bool negative = subtract_multiple(group, u, v, digit, top);
        if (__any_sync(kFullWarp, negative)) add_to_or_subtract_from(group, u, v, false, negative);
        digit -= negative;
        if (q_size == 0 && digit != 0) q_size = std::uint32_t(j + 1);
        if (quotient && live) {
            if (rank == j % T) digits = digit;
            if (j % T == 0 && j + rank < steps && j + rank < q.stride) quotient[j + rank] = digits;
        }
        if (j == 0) break;
        // The window moves down: its top limb leaves (the remainder's top is now zero), U[j-1]
        // enters at the bottom.
        const std::int64_t enters = j - 1 - pad;
        if (live && enters < incoming_first) {
            incoming_first = enters - (T - 1);
            incoming = left_shifted_limb(dividend, na, bits, incoming_first + rank);
        }
        const limb_t entering = __shfl_sync(kFullWarp, incoming, int(enters - incoming_first) & (T - 1), T);
        const limb_t leaving = __shfl_sync(kFullWarp, u[R - 1], T - 1, T);
        const limb_t from_below = __shfl_up_sync(kFullWarp, u[R - 1], 1, T);
        if (live) {
            top = leaving;
#pragma unroll
            for (int k = R - 1; k > 0; --k) u[k] = u[k - 1];
            u[0] = rank == 0 ? entering : from_below;
        }
    }

    // u is the remainder times 2^s B^p. Floor rounding with the signs apart and a nonzero
    // remainder takes |q| + 1 and |b| - |r|.
    bool nonzero = false;
#pragma unroll
    for (int k = 0; k < R; ++k) nonzero |= u[k] != 0;
    const bool negative_a = active && a.sizes[i] < 0, negative_b = b.sizes[other] < 0;
    const bool remainder_nonzero = group.ballot(nonzero) != 0;  // every lane votes: no collective under a condition
    const bool adjust = active && floor && negative_a != negative_b && remainder_nonzero;
    if (__any_sync(kFullWarp, adjust)) add_to_or_subtract_from(group, u, v, true, adjust);
    limb_t* window = staged[group.instance_in_block()];
#pragma unroll
    for (int k = 0; k < R; ++k) window[R * rank + k] = u[k];
    if (rank == 0) window[W] = 0;
    __syncwarp();
    std::uint32_t r_size = 0;
    if (active) {
        limb_t* remainder = r.element(i);
        for (std::uint32_t x = rank; x < r.stride; x += T) {
            const limb_t low = x < nb ? window[pad + x] : 0, high = x < nb ? window[pad + x + 1] : 0;
            const limb_t value = bits ? low >> bits | high << (64 - bits) : low;
            remainder[x] = value;
            if (value) r_size = x + 1;
        }
    }
    r_size = group.max(r_size);
    if (active && rank == 0) r.sizes[i] = (adjust ? negative_b : negative_a) ? -std::int32_t(r_size) : std::int32_t(r_size);

    if (!q.limbs) return;  // the whole grid
    if (quotient)
        for (std::int64_t x = (steps > 0 ? steps : 0) + rank; x < q.stride; x += T) quotient[x] = 0;
    __syncwarp();
    q_size = ::max(q_size, increment(group, quotient, q.stride, adjust));
    if (active && rank == 0) q.sizes[i] = negative_a != negative_b ? -std::int32_t(q_size) : std::int32_t(q_size);
}

}  // namespace

void divrem_warp(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r,
                 cudaStream_t stream)
{
    if (a.count == 0) return;
    // T lanes an element and R limbs a lane, the fewest that hold the divisor stride.
    const auto launch = [&]<int T, int R>() {
        const std::size_t per_block = kWarpsPerBlock * 32 / T, blocks = (a.count + per_block - 1) / per_block;
        if (blocks > 0x7fffffffu) throw Error("division: " + std::to_string(a.count) + " elements exceed one launch");
        divrem_kernel<T, R><<<unsigned(blocks), 32 * kWarpsPerBlock, 0, stream>>>(a, b, broadcast, floor, q, r);
    };
    const std::uint32_t n = b.stride, per_lane = (n + 31) / 32;
    if (n <= 4) launch.operator()<4, 1>();
    else if (n <= 8) launch.operator()<8, 1>();
    else if (n <= 16) launch.operator()<16, 1>();
    else if (per_lane <= 1) launch.operator()<32, 1>();
    else if (per_lane <= 2) launch.operator()<32, 2>();
    else if (per_lane <= 3) launch.operator()<32, 3>();
    else if (per_lane <= 4) launch.operator()<32, 4>();
    else if (per_lane <= 6) launch.operator()<32, 6>();
    else if (per_lane <= 8) launch.operator()<32, 8>();
    else if (per_lane <= 12) launch.operator()<32, 12>();
    else if (per_lane <= 16) launch.operator()<32, 16>();
    else throw Error("division: internal error: divisor stride " + std::to_string(n) + " exceeds the one-warp kernel");
    check_launch("division kernel launch");
}

}  // namespace zgpu::kernels
