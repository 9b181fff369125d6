// Batched signed multiplication of packed big integers, classical (layout: limb_batch.hpp).
//
// T threads (T <= 32, a segment of a warp) work on one product; thread t owns the L result
// limbs [t*L, t*L+L), as D = 2L 32-bit digits. For each 32-bit digit x of a it adds x times a
// window of D digits of b into its digits with two carry chains (CGBN's madc chains: the low
// halves of the D products, then the high halves one digit up), two instructions a 32x32
// product; the window moves down one digit of b per digit of a (with T > 1 a circular buffer,
// D digits of a at a time, so that the move costs no instructions). What a thread's chains carry
// out of its digits collects in a 64-bit overflow word, which belongs at the next thread's
// first limb: one addition with binary carries across the group (thread_group.cuh) ends it.
// Exactness: per digit of a the overflow word gains less than 2^32 + 2, over at most
// 2 * kMulClassicalMaxLimbs = 512 digits, so it stays below 2^42.
#include "kernels/mul/mul_classical.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "kernels/common/add_columns.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/limb_access.cuh"
#include "kernels/mul/mul_thread.hpp"
#include "kernels/common/thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 256;

struct MulArgs {
    ConstBatchView a, b;
    BatchView r;
    bool broadcast_b;
};

// acc[0..D) + overflow * 2^(32D) += x * window, where the window is circular: the digit aligned
// with acc[j] is w[(j + D - k) % D]. Called with k a constant (loops fully unrolled), the
// rotation costs nothing: no digit moves.
template <int D>
__device__ __forceinline__ void multiply_row(std::uint32_t (&acc)[D], std::uint32_t& overflow_low,
                                             std::uint32_t& overflow_high, std::uint32_t x, const std::uint32_t (&w)[D], int k)
{
    const auto at = [&](int j) { return w[(j + D - k) % D]; };
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(x), "r"(at(0)));
#pragma unroll
    for (int j = 1; j < D; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(x), "r"(at(j)));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(overflow_low));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(overflow_high));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(x), "r"(at(0)));
#pragma unroll
    for (int j = 1; j < D - 1; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(x), "r"(at(j)));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(overflow_low) : "r"(x), "r"(at(D - 1)));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(overflow_high));
}

// Digits k .. k + D - 1 of an element of n limbs (zeros outside it), from D/2 + 1 limb loads
// issued together; k may be negative.
template <int D>
__device__ __forceinline__ void load_digits(const limb_t* element, int n, int k, std::uint32_t (&out)[D])
{
    const int limb0 = k >> 1;  // floor, negative k included
    const bool odd = k & 1;
    limb_t limbs[D / 2 + 1];
#pragma unroll
    for (int j = 0; j <= D / 2; ++j) {
        const int l = limb0 + j;
        limbs[j] = l >= 0 && l < n ? __ldg(element + l) : 0;
    }
#pragma unroll
    for (int j = 0; j < D; ++j) {
        const std::uint32_t even = std::uint32_t(limbs[j / 2] >> (32 * (j % 2)));
        const std::uint32_t next = std::uint32_t(limbs[(j + 1) / 2] >> (32 * ((j + 1) % 2)));
        out[j] = odd ? next : even;
    }
}

template <int T, int L>
__global__ void __launch_bounds__(kBlockThreads) mul_kernel(const MulArgs args)
{
    static_assert(T <= 32 && L >= 2, "a product is a segment of a warp, two columns a thread at least");
    using Group = ThreadGroup<T>;
    typename Group::Shared none;
    const Group group(none);
    const std::size_t i = std::size_t(blockIdx.x) * (kBlockThreads / T) + group.instance_in_block();
    const bool live = i < args.a.count;  // dead threads still join every collective
    const std::size_t bi = args.broadcast_b ? 0 : i;
    const std::int32_t size_a = live ? args.a.sizes[i] : 0, size_b = live ? args.b.sizes[bi] : 0;
    const int na = abs(size_a), nb = abs(size_b);
    const limb_t* a = live ? args.a.element(i) : nullptr;
    const limb_t* b = live ? args.b.element(bi) : nullptr;

    constexpr int D = 2 * L;
    const int first = group.rank() * L;  // my limbs: first .. first + L - 1, digits from 2 * first
    std::uint32_t acc[D] = {}, overflow_low = 0, overflow_high = 0;
    // Digit p of a meets digits 2*first - p .. 2*first - p + D - 1 of b: a window that moves
    // down by one digit of b as p grows.
    const int p_begin = max(0, 2 * first - 2 * nb + 1), p_end = min(2 * na, 2 * first + D);
    std::uint32_t window[D];
    load_digits(b, nb, 2 * first - p_begin, window);
    if constexpr (T == 1) {
        // One thread a product: first = 0, so the D digits of a from 0 span the whole range
        // (p_begin is 0, or 1 for b = 0 with an all-zero window), and the digits entering the
        // window are below b's first: zeros.
        std::uint32_t x[D];
        load_digits(a, na, 0, x);
#pragma unroll
        for (int k = 0; k < D; ++k) {
            if (k < p_end) multiply_row(acc, overflow_low, overflow_high, x[k], window, k);
            window[(D - 1 - k) % D] = 0;
        }
    } else {
        // D digits of a at a time with the window as a circular buffer: after step k, the slot of
        // the digit that leaves the window takes the one that enters it, so sliding costs no
        // moves. Every thread of the group runs the same number of blocks (the longest range,
        // rounded up to D): steps past a thread's own range multiply zeros (digits of a past its
        // end, or of b below 0), and no thread of a warp waits on another's code path.
        const int blocks = int(group.max(std::uint32_t(max(0, p_end - p_begin)) + D - 1)) / D;
        for (int block = 0, p = p_begin; block < blocks; ++block, p += D) {
            std::uint32_t x[D], entering[D];  // digits p .. p + D - 1 of a; 2 first - p - D .. of b
            load_digits(a, na, p, x);
            load_digits(b, nb, 2 * first - p - D, entering);
#pragma unroll
            for (int k = 0; k < D; ++k) {
                multiply_row(acc, overflow_low, overflow_high, x[k], window, k);
                window[(D - 1 - k) % D] = entering[D - 1 - k];  // digit 2 first - (p + k) - 1
            }
        }
    }

    // R = my digits + the previous thread's overflow at my first limb, carried across the group.
    limb_t low[L], shifted[L] = {};
#pragma unroll
    for (int j = 0; j < L; ++j) low[j] = acc[2 * j] | limb_t(acc[2 * j + 1]) << 32;
    const limb_t overflow = overflow_low | limb_t(overflow_high) << 32;
    const limb_t previous = __shfl_up_sync(kFullWarp, overflow, 1, T);
    shifted[0] = group.rank() > 0 ? previous : 0;
    add_columns(group, low, shifted);

    std::uint32_t used = 0;
#pragma unroll
    for (int j = 0; j < L; ++j)
        if (low[j] != 0) used = first + j + 1;
    used = group.max(used);
    if (!live) return;
    store_limbs(args.r.element(i), args.r.stride, first, low);
    for (std::uint32_t k = T * L + group.rank() * 2; k < args.r.stride; k += 2 * T) {  // padding above
        limb_t zero[2] = {};
        store_limbs(args.r.element(i), args.r.stride, k, zero);
    }
    if (group.rank() == 0) args.r.sizes[i] = (size_a < 0) != (size_b < 0) ? -std::int32_t(used) : std::int32_t(used);
}

template <int T, int L>
void launch(const MulArgs& args, cudaStream_t stream)
{
    const std::size_t per_block = kBlockThreads / T;
    const std::size_t blocks = (args.a.count + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("mul: batch of " + std::to_string(args.a.count) + " elements exceeds one launch");
    mul_kernel<T, L><<<unsigned(blocks), kBlockThreads, 0, stream>>>(args);
    check_launch("mul kernel launch");
}

}  // namespace

// The shape by the product's length a.stride + b.stride: one thread with its window of b up to
// kWindowUpToColumns columns; then the one-thread kernel of mul_thread.cu while both operands
// have at most kMulThreadMaxLimbs limbs and r.stride is at most kMulThreadMaxResultLimbs (so it
// is for every r that the batch operations make); beyond, eight columns a thread up to a warp
// (256 columns), and sixteen for up to 512 columns (the accumulators take 3 words a column: 16
// columns need 221 registers).
// Measured on an H200, M products/s (bench/results/): 256 bits 22 800 here against 20 600 in
// mul_thread.cu (before its shared-memory staging); 512 bits 6 280 against 11 300; 1024 bits
// 1 875 (eight columns a thread) against 3 060.
constexpr std::uint32_t kWindowUpToColumns = 8;

void mul_classical(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const MulArgs args{a, b, r, broadcast_b};
    const std::uint32_t columns = a.stride + b.stride;
    if (columns <= kWindowUpToColumns) {
        switch (std::bit_ceil(columns)) {
        case 2: return launch<1, 2>(args, stream);
        case 4: return launch<1, 4>(args, stream);
        default: return launch<1, 8>(args, stream);
        }
    }
    if (std::max(a.stride, b.stride) <= kMulThreadMaxLimbs && r.stride <= kMulThreadMaxResultLimbs)
        return mul_thread(a, b, r, broadcast_b, stream);
    if (columns > 256) return launch<32, 16>(args, stream);
    switch (std::bit_ceil((columns + 7) / 8)) {
    case 4: return launch<4, 8>(args, stream);
    case 8: return launch<8, 8>(args, stream);
    case 16: return launch<16, 8>(args, stream);
    default: return launch<32, 8>(args, stream);
    }
}

}  // namespace zgpu::kernels
