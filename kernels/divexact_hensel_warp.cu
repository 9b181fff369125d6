// Exact division by Hensel's method in product-scanning order, one warp an element, for
// divisors up to kDivexactWarpMaxDivisorLimbs and dividends of any length. With a' = q b'
// (a', b' the operands less the divisor's low zero bits, b' odd) column j of the product
// reads
//     S_j = q_j d_0 + T_j,  T_j = sum_{l >= 1} q_{j-l} d_l + c_j,  S_j = a'_j mod B,
// with c_{j+1} = floor(S_j / B); so q_j = (a'_j - T_j) d_0^-1 mod B. The warp sums T_j's
// products in parallel (lane t takes l = t mod 32, its divisor limbs held in registers, the
// quotient limbs q_{j-l} in a window of registers that moves one lane a column) and reduces
// them with shuffles; the columns are sequential. Checked, the columns go on past the
// quotient (q_j = 0) to the end of q b' and a', each S_j must equal a'_j, and the last carry
// must be zero. Cost: k columns of 2 m/32 limb products a lane and one reduction of three
// words, for k quotient limbs and an m-limb divisor.
#include "divexact_hensel.hpp"

#include <bit>
#include <string>

#include "warp_limbs.cuh"
#include "word_inverse.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kWarpsPerBlock = 4;

// A sum of limb products in three words.
struct Sum3 {
    limb_t w0 = 0, w1 = 0, w2 = 0;

    __device__ void add(limb_t low, limb_t high)
    {
        w0 += low;
        const limb_t c0 = w0 < low;
        w1 += high;
        const limb_t c1 = w1 < high;
        w1 += c0;
        w2 += c1 + (w1 < c0);
    }
    __device__ void add(const Sum3& x)
    {
        add(x.w0, x.w1);
        w2 += x.w2;
    }
    __device__ Sum3 shuffled_xor(int offset) const
    {
        return {__shfl_xor_sync(kFullWarp, w0, offset), __shfl_xor_sync(kFullWarp, w1, offset),
                __shfl_xor_sync(kFullWarp, w2, offset)};
    }
};

template <int R>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    divexact_warp_kernel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact)
{
    const std::size_t i = std::size_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
    if (i >= a.count) return;  // the whole warp
    const int lane = warp_lane();
    const std::size_t other = broadcast ? 0 : i;
    const limb_t* divisor = b.element(other);
    const std::uint32_t nb = magnitude(b.sizes[other]);
    const std::uint32_t z = lowest_nonzero(divisor, nb);
    const int bits = __ffsll(divisor[z]) - 1;
    limb_t d[R], window[R];  // d_l and q_{j-l} for l = 32 r + lane
    std::uint32_t m = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        d[r] = shifted_limb(divisor, nb, z, bits, 32 * r + lane);
        if (d[r]) m = 32 * r + lane + 1;
        window[r] = 0;
    }
    m = warp_max(m);
    const limb_t d0 = __shfl_sync(kFullWarp, d[0], 0), inverse = inverse_mod_word(d0);

    const limb_t* dividend = a.element(i);
    const std::uint32_t na = magnitude(a.sizes[i]);
    const std::uint32_t n = na <= z ? 0 : na - z - ((dividend[na - 1] >> bits) == 0);
    const std::uint32_t k = n >= m ? ::min(n - m + 1, q.stride) : 0;
    const bool checked = first_inexact != nullptr;
    const std::uint32_t columns = checked ? ::max(n, k + m) : k;
    // Checked, the stripped low bits of a must be zero.
    bool inexact = false;
    if (checked) {
        for (std::uint32_t base = 0; base < ::min(z, na); base += 32)
            inexact |= __any_sync(kFullWarp, base + lane < ::min(z, na) && dividend[base + lane] != 0);
        if (z < na) inexact |= (dividend[z] & ((limb_t(1) << bits) - 1)) != 0;
    }

    limb_t* out = q.element(i);
    limb_t c0 = 0, c1 = 0, a_chunk = 0;
    std::uint32_t size = 0;
    for (std::uint32_t j = 0; j < columns; ++j) {
        if (j % 32 == 0) a_chunk = j + lane < n ? shifted_limb(dividend, na, z, bits, j + lane) : 0;
        const limb_t aj = __shfl_sync(kFullWarp, a_chunk, j % 32);
        Sum3 t;
#pragma unroll
        for (int r = 0; r < R; ++r) t.add(window[r] * d[r], __umul64hi(window[r], d[r]));
        for (int offset = 16; offset > 0; offset /= 2) t.add(t.shuffled_xor(offset));
        t.add(c0, c1);
        const limb_t qj = j < k ? (aj - t.w0) * inverse : 0;
        t.add(qj * d0, __umul64hi(qj, d0));
        inexact |= t.w0 != aj;
        c0 = t.w1;
        c1 = t.w2;
        if (j < k) {
            if (lane == 0) out[j] = qj;
            if (qj) size = j + 1;
        }
        // The window moves one place up: q_j enters at l = 1.
        limb_t up[R], wrap[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            up[r] = __shfl_up_sync(kFullWarp, r == 0 && lane == 0 ? qj : window[r], 1);
            wrap[r] = __shfl_sync(kFullWarp, window[r], 31);
        }
#pragma unroll
        for (int r = 0; r < R; ++r) window[r] = lane > 0 ? up[r] : r > 0 ? wrap[r - 1] : 0;
    }
    if (checked) {
        inexact |= (c0 | c1) != 0;
        if (inexact && lane == 0) atomicMin(first_inexact, (unsigned long long)i);
    }
    for (std::uint32_t j = k + lane; j < q.stride; j += 32) out[j] = 0;
    if (lane == 0) {
        const bool negative = (a.sizes[i] < 0) != (b.sizes[other] < 0);
        q.sizes[i] = negative ? -std::int32_t(size) : std::int32_t(size);
    }
}

}  // namespace

void divexact_hensel_warp(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                          cudaStream_t stream)
{
    const std::size_t blocks = (a.count + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > 0x7fffffffu) throw Error("divexact: " + std::to_string(a.count) + " elements exceed one launch");
    const auto launch = [&](auto kernel) { kernel<<<unsigned(blocks), 32 * kWarpsPerBlock, 0, stream>>>(a, b, broadcast, q, first_inexact); };
    switch (std::bit_ceil((b.stride + 31) / 32)) {
    case 1: launch(divexact_warp_kernel<1>); break;
    case 2: launch(divexact_warp_kernel<2>); break;
    case 4: launch(divexact_warp_kernel<4>); break;
    case 8: launch(divexact_warp_kernel<8>); break;
    case 16: launch(divexact_warp_kernel<16>); break;
    default: throw Error("divexact: internal error: divisor stride " + std::to_string(b.stride) + " exceeds the one-warp kernel");
    }
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("divexact kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace zgpu::kernels
