// Batched signed multiplication, one thread a product, for operands of up to 16 limbs
// (1024 bits) each (layout: limb_batch.hpp).
//
// Operand scanning in 32-bit digits: both operands' digits are in registers, and for each digit
// x of the shorter one (row j) the thread adds x times the longer one's N digits into digits
// j .. j + N of the result with two carry chains (CGBN's madc chains: the low halves of the N
// products, then the high halves one digit up). Bound: after row j the partial product is below
// 2^(32 (j + 1 + N)), so the high chain carries nothing out of digit j + N. Digit j is final
// after row j: limbs are stored as soon as their digits are. Two instructions a 32x32-bit
// product in PTX, four in SASS (IMAD, IMAD.HI, two IADD3.X for the carries), and no product of
// zeros beyond the strides: the group kernel of mul_classical.cu multiplies twice as many digits
// at 1024 bits, where its threads' column ranges meet the operands unevenly.
#include "mul_thread.hpp"

#include <string>

#include "limb_access.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 256;

struct ThreadMulArgs {
    ConstBatchView longer, shorter;  // by stride
    bool longer_broadcast, shorter_broadcast;
    BatchView r;
};

// The 32-bit digits of an element of up to Digits / 2 limbs (those past `stride` read as zero).
template <int Digits>
__device__ __forceinline__ void load_digits(const limb_t* element, std::uint32_t stride, std::uint32_t (&digits)[Digits])
{
    limb_t v[Digits / 2 < 2 ? 2 : Digits / 2];
    load_limbs(element, stride, 0, v);
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
template <int N, int M>
__global__ void __launch_bounds__(kBlockThreads, 2) mul_thread_kernel(const ThreadMulArgs args)
{
    const std::size_t i = std::size_t(blockIdx.x) * kBlockThreads + threadIdx.x;
    if (i >= args.r.count) return;
    const std::size_t li = args.longer_broadcast ? 0 : i, si = args.shorter_broadcast ? 0 : i;
    const std::int32_t size_l = args.longer.sizes[li], size_s = args.shorter.sizes[si];
    std::uint32_t y[N], x[M];
    load_digits(args.longer.element(li), args.longer.stride, y);
    load_digits(args.shorter.element(si), args.shorter.stride, x);
    const int rows = 2 * abs(size_s);  // digits of the shorter operand past them are zeros

    constexpr int kDigits = N + M + 4;  // four more, so that whole pairs of limbs can be read
    std::uint32_t acc[kDigits] = {};
    limb_t* r = args.r.element(i);
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

template <int N, int M>
void launch(const ThreadMulArgs& args, cudaStream_t stream)
{
    const std::size_t blocks = (args.r.count + kBlockThreads - 1) / kBlockThreads;
    if (blocks > 0x7fffffffu) throw Error("mul: batch of " + std::to_string(args.r.count) + " elements exceeds one launch");
    mul_thread_kernel<N, M><<<unsigned(blocks), kBlockThreads, 0, stream>>>(args);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("mul kernel launch: ") + cudaGetErrorString(e));
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
    ThreadMulArgs args{a, b, false, broadcast_b, r};
    if (b.stride > a.stride) args = {b, a, broadcast_b, false, r};
    launch_for(args, int(2 * args.longer.stride), int(2 * args.shorter.stride), stream);
}

}  // namespace zgpu::kernels
