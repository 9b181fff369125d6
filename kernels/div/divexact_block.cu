// Exact division by Hensel's method, R quotient limbs a step, T lanes an element (operand
// scanning). With a' = |a| / 2^t and b' = |b| / 2^t (t the low zero bits of b, b' odd, of m
// limbs), step s holds the remainder's W = T R limbs from position s R in registers, R a lane,
// with m <= W - R:
//   1. the step's R quotient limbs D: the window's lowest R limbs times b'^-1 mod B^R,
//      limb by limb from b'^-1 mod B (every lane, from lane 0's chunk: R (R + 1) / 2 products);
//   2. window -= D b': each lane subtracts D times its R limbs of b' (R^2 products), passes the
//      high R words up one lane, and the one-bit borrows left resolve by one lookahead over
//      ballots; the window's lowest R limbs become zero;
//   3. the window moves up R limbs, one lane, and a' enters at the top, less the borrow out of
//      the window (a bit: D b' < B^(R + m) <= B^W) carried on.
// Exact, the remainder ends at zero with nothing borrowed; checked, that is what is verified
// (with no bit of a stripped). Cost per R quotient limbs: R (R + 1) / 2 + R^2 products a lane
// and 3 R shuffles, two ballots: the shuffles and ballots of the one-limb steps are shared by
// R limbs.
#include <string>

#include "kernels/div/divexact_hensel.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/thread_group.cuh"
#include "kernels/common/warp_limbs.cuh"
#include "kernels/common/word_division.hpp"
#include "kernels/common/word_inverse.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 128;

// x -= y + borrow for R-limb x and y; returns the borrow out.
template <int R>
__device__ bool subtract_limbs(limb_t (&x)[R], const limb_t (&y)[R], bool borrow = false)
{
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const limb_t s = x[k] - y[k], t = s - borrow;
        borrow = (s > x[k]) | (t > s);
        x[k] = t;
    }
    return borrow;
}

template <int T, int R>
__global__ void __launch_bounds__(kBlockThreads)
    divexact_block_kernel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact)
{
    constexpr int W = T * R, kPerBlock = kBlockThreads / T;
    typename ThreadGroup<T>::Shared no_memory;
    const ThreadGroup<T> group(no_memory);
    const int rank = group.rank();
    const auto [i, other, active] = group_element<T>(kPerBlock, a.count, broadcast);
    const limb_t* divisor = b.element(other);
    const std::uint32_t nb = magnitude(b.sizes[other]);
    std::uint32_t z = 0;
    while (divisor[z] == 0) ++z;
    const int bits = __ffsll(divisor[z]) - 1;
    const std::uint32_t m = nb - z - ((divisor[nb - 1] >> bits) == 0);
    limb_t v[R], b_low[R], u[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        v[k] = shifted_limb(divisor, nb, z, bits, R * rank + k);
        b_low[k] = shifted_limb(divisor, nb, z, bits, k);
    }
    const limb_t inverse = inverse_mod_word(b_low[0]);

    const limb_t* dividend = a.element(active ? i : 0);
    const std::uint32_t na = active ? magnitude(a.sizes[i]) : 0;
    const std::uint32_t n = na <= z ? 0 : na - z - ((dividend[na - 1] >> bits) == 0);
    const std::uint32_t k_limbs = n >= m ? ::min(n - m + 1, q.stride) : 0;
    const bool checked = first_inexact != nullptr;
    // Checked, the stripped low bits of a must be zero.
    bool inexact = false;
    if (checked) {
        for (std::uint32_t l = rank; l < ::min(z, na); l += T) inexact |= dividend[l] != 0;
        if (z < na) inexact |= (dividend[z] & ((limb_t(1) << bits) - 1)) != 0;
    }
#pragma unroll
    for (int k = 0; k < R; ++k) u[k] = shifted_limb(dividend, na, z, bits, R * rank + k);

    limb_t* out = active ? q.element(i) : nullptr;
    const std::uint32_t steps = (k_limbs + R - 1) / R;
    std::uint32_t size = 0;
    limb_t pending = 0;  // borrowed from a' above the window
    const std::uint32_t most_steps = __reduce_max_sync(kFullWarp, steps);
    for (std::uint32_t s = 0; s < most_steps; ++s) {
        const bool live = s < steps;
        const std::uint32_t p = s * R;
        limb_t entering[R];
#pragma unroll
        for (int k = 0; k < R; ++k) entering[k] = rank == T - 1 && live ? shifted_limb(dividend, na, z, bits, p + W + k) : 0;

        // 1. D from the window's lowest R limbs, limb by limb: d_t = c_t b'^-1 mod B, then
        //    c -= d_t b' B^t.
        limb_t c[R], d[R];
#pragma unroll
        for (int k = 0; k < R; ++k) c[k] = __shfl_sync(kFullWarp, u[k], 0, T);
#pragma unroll
        for (int t = 0; t < R; ++t) {
            d[t] = live ? c[t] * inverse : 0;
            limb_t borrow = 0;
#pragma unroll
            for (int k = t; k < R; ++k) {
                const TwoWords product = mul_wide(d[t], b_low[k - t]) + TwoWords{0, borrow};
                const limb_t x = c[k] - product.low;
                borrow = product.high + (x > c[k]);
                c[k] = x;
            }
        }

        // 2. window -= D b': this lane's R limbs of D times its R limbs of b' (2R limbs), the
        //    low half subtracted here, the high half (plus the borrow) passed up one lane.
        limb_t low[R], high[R];
#pragma unroll
        for (int k = 0; k < R; ++k) low[k] = high[k] = 0;
#pragma unroll
        for (int x = 0; x < R; ++x) {
            limb_t carry = 0;
#pragma unroll
            for (int y = 0; y < R; ++y) {
                limb_t& place = x + y < R ? low[x + y] : high[x + y - R];
                const TwoWords t = mul_wide(d[x], v[y]) + TwoWords{0, place} + TwoWords{0, carry};
                place = t.low;
                carry = t.high;
            }
            high[x] = carry;
        }
        bool borrow = subtract_limbs(u, low);
#pragma unroll
        for (int k = 0; k < R; ++k) {  // high + borrow < B^R: high <= B^R - 2
            high[k] += borrow;
            borrow = borrow && high[k] == 0;
        }
        limb_t below[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            below[k] = __shfl_up_sync(kFullWarp, high[k], 1, T);
            if (rank == 0) below[k] = 0;
        }
        // The chunk generates a one-bit borrow where it is below the words from below, passes
        // one on where it equals them.
        bool less = false, equal = true;
#pragma unroll
        for (int k = R - 1; k >= 0; --k) {
            less |= equal && u[k] < below[k];
            equal &= u[k] == below[k];
        }
        const Carries borrows = group.carries(less, equal);
        subtract_limbs(u, below, borrows.into[0]);
        if (live) pending += borrows.generate;  // the top lane's words are zero: b' has m <= W - R limbs

#pragma unroll
        for (int t = 0; t < R; ++t) {
            if (live && t % T == rank && p + t < q.stride) out[p + t] = d[t];
            if (d[t] && p + t < q.stride) size = p + t + 1;
        }

        // 3. Up R limbs: each lane takes the chunk above; the top lane a' less what is pending.
        limb_t above[R];
#pragma unroll
        for (int k = 0; k < R; ++k) above[k] = __shfl_down_sync(kFullWarp, u[k], 1, T);
        if (live) {
            if (rank == T - 1) {
                limb_t owed[R] = {pending};
                pending = subtract_limbs(entering, owed);
#pragma unroll
                for (int k = 0; k < R; ++k) u[k] = entering[k];
            } else {
#pragma unroll
                for (int k = 0; k < R; ++k) u[k] = above[k];
            }
        }
    }
    pending = __shfl_sync(kFullWarp, pending, T - 1, T);

    if (checked) {
        bool nonzero = pending != 0;
#pragma unroll
        for (int k = 0; k < R; ++k) nonzero |= u[k] != 0;
        inexact = group.ballot(inexact || nonzero) != 0;
        if (active && inexact && rank == 0) atomicMin(first_inexact, (unsigned long long)i);
    }
    if (!active) return;  // no collective follows
    for (std::uint32_t l = ::min(steps * R, q.stride) + rank; l < q.stride; l += T) out[l] = 0;
    if (rank == 0) {
        const bool negative = (a.sizes[i] < 0) != (b.sizes[other] < 0);
        q.sizes[i] = negative ? -std::int32_t(size) : std::int32_t(size);
    }
}

// The (T, R) shapes instantiated, and the launch of the one with the narrowest window that
// holds a divisor of `stride` limbs and R limbs more (more limbs a lane on ties: fewer steps).
template <int T, int R>
struct Shape {};

template <class Launch, int... T, int... R>
bool launch_narrowest(std::uint32_t stride, Launch launch, Shape<T, R>... shapes)
{
    int best_width = 1 << 30, best_per_lane = 0;
    ((T * R >= int(stride) + R && (T * R < best_width || (T * R == best_width && R > best_per_lane))
          ? (best_width = T * R, best_per_lane = R)
          : 0),
     ...);
    bool launched = false;
    ((!launched && T * R == best_width && R == best_per_lane ? (launch(Shape<T, R>{}), launched = true) : false), ...);
    return launched;
}

}  // namespace

void divexact_hensel_block(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                           cudaStream_t stream)
{
    if (a.count == 0) return;
    const auto launch = [&]<int T, int R>(Shape<T, R>) {
        const std::size_t per_block = kBlockThreads / T, blocks = (a.count + per_block - 1) / per_block;
        if (blocks > 0x7fffffffu) throw Error("divexact: " + std::to_string(a.count) + " elements exceed one launch");
        divexact_block_kernel<T, R><<<unsigned(blocks), kBlockThreads, 0, stream>>>(a, b, broadcast, q, first_inexact);
    };
    const bool launched = launch_narrowest(b.stride, launch, Shape<4, 2>{}, Shape<4, 3>{}, Shape<4, 4>{}, Shape<4, 5>{},
                                           Shape<8, 3>{}, Shape<8, 4>{}, Shape<8, 5>{}, Shape<8, 8>{}, Shape<16, 4>{},
                                           Shape<16, 5>{}, Shape<16, 8>{}, Shape<16, 9>{}, Shape<32, 4>{}, Shape<32, 5>{},
                                           Shape<32, 8>{}, Shape<32, 9>{});
    if (!launched)
        throw Error("divexact: internal error: divisor stride " + std::to_string(b.stride) + " exceeds the block kernel");
    check_launch("divexact kernel launch");
}

}  // namespace zgpu::kernels
