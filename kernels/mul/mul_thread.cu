// Batched signed multiplication, one thread a product, for operands of up to 16 limbs
// (1024 bits) each (layout: limb_batch.hpp).
//
// Operand scanning in 32-bit digits: both operands' digits are in registers, and for each digit x
// of the shorter one (row j) the thread adds x times the longer one's N digits into digits
// j .. j + N of the result with two carry chains (CGBN's madc chains: the low halves of the N
// products, then the high halves one digit up). Bound: after row j the partial product is below
// 2^(32 (j + 1 + N)), so the high chain carries nothing out of digit j + N. Digit j is final after
// row j: limbs go to shared memory as soon as their digits are. Two instructions a 32x32-bit
// product in PTX, four in SASS (IMAD, IMAD.HI, two IADD3.X for the carries). Rows stop at the
// shorter operand's size, but the longer operand's digits are its stride rounded up to a power
// of two (zeros above it: 32 digits for 10 limbs); at 1024 bits the group kernel of
// mul_classical.cu multiplies twice as many digits, as its threads' column ranges meet the
// operands unevenly.
#include "kernels/mul/mul_thread.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/limb_access.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 128;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

// Where a warp's 32 elements of one batch wait in shared memory: element e at e * pitch limbs.
// An even pitch with pitch / 2 odd puts the 16-byte accesses of 8 consecutive lanes, each to its
// own element, in different banks (the copies between global and shared memory, a chunk a lane,
// may meet two-way conflicts); a stride of 1 goes 8 bytes a lane, without padding.
struct Staging {
    std::uint32_t pitch = 0;   // 0: not staged (a broadcast operand, read from global memory)
    std::uint32_t divide = 0;  // ceil(2^32 / (stride / 2)): 16-byte chunk to element, no division
};

Staging staging_for(std::uint32_t stride)
{
    if (stride == 1) return {1, 0};
    const std::uint32_t chunks = stride / 2;
    // With one chunk an element (stride 2) `divide`, 2^32, wraps to 0 and every chunk counts as
    // element 0: harmless, as the pitch is then the stride and a chunk's slot is its offset in
    // global memory whatever element it is counted in.
    return {chunks % 2 == 1 ? stride : stride + 2, std::uint32_t(((std::uint64_t(1) << 32) + chunks - 1) / chunks)};
}

struct ThreadMulArgs {
    ConstBatchView longer, shorter;  // by stride
    Staging longer_staging, shorter_staging, r_staging;
    BatchView r;
};

// Copies elements [first, first + n) (n <= 32) of a batch of `stride` limbs, contiguous in global
// memory, to or from their slots in shared memory, 16 bytes a lane at a time (whole lines of
// global memory a warp instruction).
template <bool ToShared>
__device__ __forceinline__ void copy_group(limb_t* global, std::uint32_t stride, int n, limb_t* slots, Staging staging)
{
    const int lane = threadIdx.x % 32;
    if (stride == 1) {
        if (lane < n) {
            if constexpr (ToShared) slots[lane] = __ldg(global + lane);
            else global[lane] = slots[lane];
        }
        return;
    }
    const int chunks = n * int(stride / 2);
    for (int c = lane; c < chunks; c += 32) {
        const int e = int(__umulhi(std::uint32_t(c), staging.divide));
        auto* slot = reinterpret_cast<ulonglong2*>(slots + e * staging.pitch + (2 * c - e * int(stride)));
        auto* word = reinterpret_cast<ulonglong2*>(global + 2 * c);
        if constexpr (ToShared) *slot = __ldg(word);
        else *word = *slot;
    }
}

// The 32-bit digits of an element of up to Digits / 2 limbs, `stride` of them stored (the rest
// zeros): from global memory, or from its slot in shared memory.
template <int Digits>
__device__ __forceinline__ void read_digits(const limb_t* element, std::uint32_t stride, bool in_global, std::uint32_t (&digits)[Digits])
{
    limb_t v[Digits / 2 < 2 ? 2 : Digits / 2];
    if (in_global) {
        load_limbs(element, stride, 0, v);
    } else {
#pragma unroll
        for (int k = 0; k < Digits / 2; k += 2) {
            if (k + 1 < stride) {
                const ulonglong2 pair = *reinterpret_cast<const ulonglong2*>(element + k);
                v[k] = pair.x;
                v[k + 1] = pair.y;
            } else {
                v[k] = k < stride ? element[k] : 0;
                v[k + 1] = 0;
            }
        }
    }
#pragma unroll
    for (int k = 0; k < Digits; ++k) digits[k] = std::uint32_t(v[k / 2] >> (32 * (k % 2)));
}

// acc[j .. j + N] += x * y; acc[j + N] is zero before (the bound above).
template <int N, int Digits>
__device__ __forceinline__ void add_row(std::uint32_t (&acc)[Digits], int j, std::uint32_t x, const std::uint32_t (&y)[N])
{
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(x), "r"(y[0]));
#pragma unroll
    for (int k = 1; k < N; ++k) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + k]) : "r"(x), "r"(y[k]));
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(acc[j + N]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(x), "r"(y[0]));
#pragma unroll
    for (int k = 1; k < N - 1; ++k) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + k + 1]) : "r"(x), "r"(y[k]));
    asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(acc[j + N]) : "r"(x), "r"(y[N - 1]));
}

// Stores limbs `limb` and `limb + 1` (digits 2 limb .. 2 limb + 3 of acc) where below the
// stride, and notes the highest nonzero one in `used`.
template <int Digits>
__device__ __forceinline__ void store_pair(limb_t* r, std::uint32_t stride, int limb, const std::uint32_t (&acc)[Digits],
                                           std::uint32_t& used)
{
    const limb_t pair[2] = {acc[2 * limb] | limb_t(acc[2 * limb + 1]) << 32, acc[2 * limb + 2] | limb_t(acc[2 * limb + 3]) << 32};
    if (pair[0] != 0) used = limb + 1;
    if (pair[1] != 0) used = limb + 2;
    store_limbs(r, stride, limb, pair);
}

// N digits of the longer operand, M of the shorter (powers of two, 2 <= M <= N <= 32).
// A warp's 32 products: their operands are copied into shared memory with coalesced loads, each
// lane takes its own into registers, and the same space then collects the results, which leave
// in whole lines (a thread's own 16-byte accesses of its 128-byte elements touched 32 lines a
// warp instruction).
template <int N, int M>
__global__ void __launch_bounds__(kBlockThreads, 4) mul_thread_kernel(const ThreadMulArgs args)
{
    extern __shared__ ulonglong2 shared_words[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const Staging ls = args.longer_staging, ss = args.shorter_staging, rs = args.r_staging;
    const std::size_t per_warp = 32 * std::size_t(max(ls.pitch + ss.pitch, rs.pitch));
    limb_t* const slots = reinterpret_cast<limb_t*>(shared_words) + warp * per_warp;
    const std::size_t first = std::size_t(blockIdx.x) * kBlockThreads + 32 * warp, count = args.r.count;
    if (first >= count) return;
    const int n = count - first < 32 ? int(count - first) : 32;
    const std::size_t i = first + lane;
    const bool live = lane < n;

    if (ls.pitch != 0) copy_group<true>(const_cast<limb_t*>(args.longer.element(first)), args.longer.stride, n, slots, ls);
    if (ss.pitch != 0)
        copy_group<true>(const_cast<limb_t*>(args.shorter.element(first)), args.shorter.stride, n, slots + 32 * ls.pitch, ss);
    std::int32_t size_l = 0, size_s = 0;
    if (live) {
        size_l = args.longer.sizes[ls.pitch == 0 ? 0 : i];
        size_s = args.shorter.sizes[ss.pitch == 0 ? 0 : i];
    }
    __syncwarp();
    std::uint32_t y[N], x[M];
    if (live) {
        read_digits(ls.pitch == 0 ? args.longer.element(0) : slots + lane * ls.pitch, args.longer.stride, ls.pitch == 0, y);
        read_digits(ss.pitch == 0 ? args.shorter.element(0) : slots + 32 * ls.pitch + lane * ss.pitch, args.shorter.stride,
                    ss.pitch == 0, x);
    }
    __syncwarp();  // every lane has its operands: the slots take the results

    if (live) {
        const int rows = 2 * abs(size_s);  // digits of the shorter operand past them are zeros
        constexpr int kDigits = N + M + 4;  // four more, so that whole pairs of limbs can be read
        std::uint32_t acc[kDigits] = {};
        limb_t* r = slots + lane * rs.pitch;
        const std::uint32_t stride = args.r.stride;
        std::uint32_t used = 0;
#pragma unroll
        for (int j = 0; j < M; ++j) {
            if (j < rows) add_row(acc, j, x[j], y);
            if (j % 4 == 3) store_pair(r, stride, (j - 3) / 2, acc, used);
        }
        constexpr int kLimbs = (N + M + 2) / 4 * 2;  // (N + M) / 2, rounded up to pairs
#pragma unroll
        for (int limb = M / 4 * 2; limb < kLimbs; limb += 2) store_pair(r, stride, limb, acc, used);
        for (std::uint32_t k = kLimbs; k < stride; ++k) r[k] = 0;  // padding above
        args.r.sizes[i] = (size_l < 0) != (size_s < 0) ? -std::int32_t(used) : std::int32_t(used);
    }
    __syncwarp();
    copy_group<false>(args.r.element(first), args.r.stride, n, slots, rs);
}

template <int N, int M>
void launch(const ThreadMulArgs& args, cudaStream_t stream)
{
    const std::size_t blocks = (args.r.count + kBlockThreads - 1) / kBlockThreads;
    if (blocks > 0x7fffffffu) throw Error("mul: batch of " + std::to_string(args.r.count) + " elements exceeds one launch");
    const std::uint32_t per_warp =
        32 * std::max(args.longer_staging.pitch + args.shorter_staging.pitch, args.r_staging.pitch);
    mul_thread_kernel<N, M><<<unsigned(blocks), kBlockThreads, kWarpsPerBlock * per_warp * sizeof(limb_t), stream>>>(args);
    check_launch("mul kernel launch");
}

// The kernel for operands of n >= m digits, each rounded up to a power of two (from 16: smaller
// products go to mul_classical.cu's window kernel).
template <int N = 16, int M = 2>
void launch_for(const ThreadMulArgs& args, int n, int m, cudaStream_t stream)
{
    if constexpr (N < 2 * int(kMulThreadMaxLimbs))
        if (n > N) return launch_for<2 * N, M>(args, n, m, stream);
    if constexpr (M < N)
        if (m > M) return launch_for<N, 2 * M>(args, n, m, stream);
    launch<N, M>(args, stream);
}

}  // namespace

void mul_thread(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const Staging sa = staging_for(a.stride), sb = broadcast_b ? Staging{} : staging_for(b.stride);
    ThreadMulArgs args{a, b, sa, sb, staging_for(r.stride), r};
    if (b.stride > a.stride) args = {b, a, sb, sa, args.r_staging, r};
    launch_for(args, int(2 * args.longer.stride), int(2 * args.shorter.stride), stream);
}

}  // namespace zgpu::kernels
