// Division with remainder by Knuth's algorithm D, one warp an element, for divisors up to
// kDivremWarpMaxDivisorLimbs and dividends of any length.
//
// Normalization: with s the leading zero bits of |b|'s top limb and p = W - |b| limbs of
// padding (W = 32 R, R limbs a lane), V = |b| 2^s B^p has W limbs and its top bit set, and
// U = |a| 2^s B^p; then floor(U / V) = floor(|a| / |b|) and the remainders differ by the
// factor 2^s B^p. Step j (j = Q-1 .. 0, Q = |a| - |b| + 1 quotient limbs) divides the W + 1
// limbs U[j .. j+W] by V, a window below B V: lane t holds window limbs [R t, R t + R), the
// top limb is held by every lane, and the next step moves the window one limb down.
//
// The digit: with (u2, u1, u0) the window's top three limbs and (d1, d0) V's top two, the
// 3/2 quotient f = floor((u2, u1, u0) / (d1, d0)) is the true digit or one more: the limbs
// left out move window / V below f by less than (u2, u1, u0) / ((d1, d0) ((d1, d0) + 1))
// < B / (d1, d0) <= 2 / B, and never above it. Where (u2, u1) = (d1, d0), f would be B or more
// and the digit is B - 1 exactly (the window is below B V, and by the same bound above
// (B - 1) V). The digit times V is subtracted; a negative window (probability about 2/B)
// takes the digit down by one and V back. Cost a step: R limb products a lane, one 3/2
// division, two ballots and six shuffles, for Q steps.
#include "divrem.hpp"

#include <string>

#include "thread_group.cuh"
#include "warp_limbs.cuh"
#include "word_division.hpp"
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

// x = y + x, or y - x if subtract, over the warp's W limbs; the carry out of the top is dropped.
template <int R>
__device__ void add_to_or_subtract_from(limb_t (&x)[R], const limb_t (&y)[R], bool subtract)
{
    bool carry = false;
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const limb_t s = subtract ? y[k] - x[k] : y[k] + x[k];
        const limb_t t = subtract ? s - carry : s + carry;
        carry = subtract ? (s > y[k]) | (t > s) : (s < y[k]) | (t < s);
        x[k] = t;
    }
    // A carry into a lane is generated below it and passed on by chunks of all ones (adding)
    // or all zeros (subtracting); a chunk that generates one cannot also pass one on.
    const limb_t passes = subtract ? 0 : ~limb_t(0);
    bool propagate = !carry;
#pragma unroll
    for (int k = 0; k < R; ++k) propagate &= x[k] == passes;
    const CarryLookahead lookahead(__ballot_sync(kFullWarp, carry), __ballot_sync(kFullWarp, propagate), 0);
    bool in = lookahead.carry_into(warp_lane());
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const bool out = in && x[k] == passes;
        x[k] = subtract ? x[k] - in : x[k] + in;
        in = out;
    }
}

// u -= digit v over the warp's W limbs, the window's top limb above them; returns whether the
// window went negative (then by less than v).
template <int R>
__device__ bool subtract_multiple(limb_t (&u)[R], const limb_t (&v)[R], limb_t digit, limb_t top)
{
    // Each lane subtracts its own products: chunk - digit v_chunk = chunk' - borrow B^R, with
    // a borrow word below B (digit v_k + borrow < B^2 - B + ... fits two words).
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
    const int lane = warp_lane();
    const limb_t below = __shfl_up_sync(kFullWarp, borrow, 1), word = lane == 0 ? 0 : below;
    bool high_zero = true;
#pragma unroll
    for (int k = 1; k < R; ++k) high_zero &= u[k] == 0;
    const bool generate = high_zero && u[0] < word, propagate = high_zero && u[0] == word;
    const CarryLookahead lookahead(__ballot_sync(kFullWarp, generate), __ballot_sync(kFullWarp, propagate), 0);
    const limb_t bit = lookahead.carry_into(lane);
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
    const limb_t out_word = __shfl_sync(kFullWarp, borrow, 31);
    return out_word > top || (out_word == top && lookahead.carry_out(32));
}

// Adds 1 to the n-limb magnitude at x, one warp; returns one past the limb that took the carry.
__device__ std::uint32_t increment(limb_t* x, std::uint32_t n)
{
    for (std::uint32_t base = 0; base < n; base += 32) {
        const std::uint32_t k = base + warp_lane();
        const limb_t value = k < n ? x[k] : 0;
        const unsigned takes = __ballot_sync(kFullWarp, k >= n || value != ~limb_t(0));
        const int taker = takes ? __ffs(takes) - 1 : 32;
        if (k < n && warp_lane() <= taker) x[k] = warp_lane() < taker ? 0 : value + 1;
        if (taker < 32) return base + taker + 1;
    }
    return n;
}

template <int R>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    divrem_warp_kernel(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r)
{
    constexpr int W = 32 * R;
    __shared__ limb_t staged[kWarpsPerBlock][W + 1];
    const std::size_t i = std::size_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
    if (i >= a.count) return;  // the whole warp
    const int lane = warp_lane();
    const std::size_t other = broadcast ? 0 : i;
    const limb_t* divisor = b.element(other);
    const std::int64_t nb = magnitude(b.sizes[other]);
    const int bits = __clzll(divisor[nb - 1]);
    const std::int64_t pad = W - nb;
    limb_t v[R], u[R];
#pragma unroll
    for (int k = 0; k < R; ++k) v[k] = left_shifted_limb(divisor, nb, bits, R * lane + k - pad);
    const limb_t d1 = __shfl_sync(kFullWarp, v[R - 1], 31);
    const limb_t d0 = __shfl_sync(kFullWarp, v[R > 1 ? R - 2 : 0], R > 1 ? 31 : 30);
    const limb_t reciprocal = reciprocal_two_words(d1, d0);

    // The first window: U[first .. first+W] with first = Q - 1, or U[0 .. W] (= |a| 2^s B^p)
    // when there is no quotient limb.
    const limb_t* dividend = a.element(i);
    const std::int64_t na = magnitude(a.sizes[i]), steps = na - nb + 1, first = steps > 0 ? steps - 1 : 0;
#pragma unroll
    for (int k = 0; k < R; ++k) u[k] = left_shifted_limb(dividend, na, bits, first + R * lane + k - pad);
    limb_t top = left_shifted_limb(dividend, na, bits, first + W - pad);

    limb_t* quotient = q.limbs ? q.element(i) : nullptr;
    limb_t digits = 0;  // lane t holds digit j with j mod 32 = t until a store of 32
    std::uint32_t q_size = 0;
    limb_t incoming = 0;  // U's limbs below the window, 32 at a time
    std::int64_t incoming_first = first - pad;
    for (std::int64_t j = steps - 1; j >= 0; --j) {
        const limb_t u1 = __shfl_sync(kFullWarp, u[R - 1], 31);
        const limb_t u0 = __shfl_sync(kFullWarp, u[R > 1 ? R - 2 : 0], R > 1 ? 31 : 30);
        limb_t digit = top == d1 && u1 == d0 ? ~limb_t(0) : divide_three_by_two(top, u1, u0, d1, d0, reciprocal);
        if (subtract_multiple(u, v, digit, top)) {
            --digit;
            add_to_or_subtract_from(u, v, false);
        }
        if (q_size == 0 && digit != 0) q_size = std::uint32_t(j + 1);
        if (quotient) {
            if (lane == j % 32) digits = digit;
            if (j % 32 == 0 && j + lane < steps && j + lane < q.stride) quotient[j + lane] = digits;
        }
        if (j == 0) break;
        // The window moves down: its top limb leaves (the remainder's top is now zero), U[j-1]
        // enters at the bottom.
        const std::int64_t enters = j - 1 - pad;
        if (enters < incoming_first) {
            incoming_first = enters - 31;
            incoming = left_shifted_limb(dividend, na, bits, incoming_first + lane);
        }
        const limb_t entering = __shfl_sync(kFullWarp, incoming, int(enters - incoming_first));
        top = __shfl_sync(kFullWarp, u[R - 1], 31);
        const limb_t from_below = __shfl_up_sync(kFullWarp, u[R - 1], 1);
#pragma unroll
        for (int k = R - 1; k > 0; --k) u[k] = u[k - 1];
        u[0] = lane == 0 ? entering : from_below;
    }

    // u is the remainder times 2^s B^p. Floor rounding with the signs apart and a nonzero
    // remainder takes |q| + 1 and |b| - |r|.
    bool nonzero = false;
#pragma unroll
    for (int k = 0; k < R; ++k) nonzero |= u[k] != 0;
    const bool negative_a = a.sizes[i] < 0, negative_b = b.sizes[other] < 0;
    const bool adjust = floor && negative_a != negative_b && __any_sync(kFullWarp, nonzero);
    if (adjust) add_to_or_subtract_from(u, v, true);
    limb_t* window = staged[threadIdx.x / 32];
#pragma unroll
    for (int k = 0; k < R; ++k) window[R * lane + k] = u[k];
    if (lane == 0) window[W] = 0;
    __syncwarp();
    limb_t* remainder = r.element(i);
    std::uint32_t r_size = 0;
    for (std::uint32_t x = lane; x < r.stride; x += 32) {
        const limb_t low = x < nb ? window[pad + x] : 0, high = x < nb ? window[pad + x + 1] : 0;
        const limb_t value = bits ? low >> bits | high << (64 - bits) : low;
        remainder[x] = value;
        if (value) r_size = x + 1;
    }
    r_size = warp_max(r_size);
    if (lane == 0) r.sizes[i] = (adjust ? negative_b : negative_a) ? -std::int32_t(r_size) : std::int32_t(r_size);

    if (!quotient) return;
    for (std::int64_t x = (steps > 0 ? steps : 0) + lane; x < q.stride; x += 32) quotient[x] = 0;
    __syncwarp();
    if (adjust) q_size = ::max(q_size, increment(quotient, q.stride));
    if (lane == 0) q.sizes[i] = negative_a != negative_b ? -std::int32_t(q_size) : std::int32_t(q_size);
}

}  // namespace

void divrem_warp(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r,
                 cudaStream_t stream)
{
    const std::size_t blocks = (a.count + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks == 0) return;
    if (blocks > 0x7fffffffu) throw Error("division: " + std::to_string(a.count) + " elements exceed one launch");
    const auto launch = [&](auto kernel) { kernel<<<unsigned(blocks), 32 * kWarpsPerBlock, 0, stream>>>(a, b, broadcast, floor, q, r); };
    // The fewest limbs a lane that hold the divisor stride.
    const std::uint32_t per_lane = (b.stride + 31) / 32;
    if (per_lane <= 1) launch(divrem_warp_kernel<1>);
    else if (per_lane <= 2) launch(divrem_warp_kernel<2>);
    else if (per_lane <= 3) launch(divrem_warp_kernel<3>);
    else if (per_lane <= 4) launch(divrem_warp_kernel<4>);
    else if (per_lane <= 6) launch(divrem_warp_kernel<6>);
    else if (per_lane <= 8) launch(divrem_warp_kernel<8>);
    else if (per_lane <= 12) launch(divrem_warp_kernel<12>);
    else if (per_lane <= 16) launch(divrem_warp_kernel<16>);
    else throw Error("division: internal error: divisor stride " + std::to_string(b.stride) + " exceeds the one-warp kernel");
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("division kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace zgpu::kernels
