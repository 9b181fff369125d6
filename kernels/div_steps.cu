// The elementwise steps of 2-adic division (div_steps.hpp). They move a few limbs an element
// and are bound by memory, so they are written plainly: one warp an element, its lanes
// striding over the limbs, sizes found by a ballot from the top.
#include "div_steps.hpp"

#include <climits>
#include <string>

#include "warp_limbs.cuh"
#include "word_inverse.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kWarpsPerBlock = 8;

__device__ std::size_t warp_element() { return std::size_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32; }

__global__ void summarize_kernel(ConstBatchView b, DivisorSummary* summary)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool live = i < b.count;
    const std::uint32_t n = live ? magnitude(b.sizes[i]) : 0;
    const unsigned zeros = __ballot_sync(kFullWarp, live && n == 0);
    std::uint32_t smallest = live ? n : UINT_MAX, largest = n;
    for (int offset = 16; offset > 0; offset /= 2) {
        smallest = ::min(smallest, __shfl_xor_sync(kFullWarp, smallest, offset));
        largest = ::max(largest, __shfl_xor_sync(kFullWarp, largest, offset));
    }
    if (warp_lane() != 0) return;
    if (zeros) atomicMin(&summary->first_zero, (unsigned long long)(i + __ffs(zeros) - 1));
    atomicMin(&summary->min_size, smallest);
    atomicMax(&summary->max_size, largest);
}

__global__ void slice_kernel(SliceArgs args)
{
    const std::size_t i = warp_element();
    if (i >= args.out.count) return;  // the whole warp: one element a warp
    const std::size_t other = args.broadcast ? 0 : i;
    std::uint32_t skip = args.first_limb, bits = 0;
    if (args.twos_of.count > 0) {
        const limb_t* d = args.twos_of.element(other);
        const std::uint32_t z = lowest_nonzero(d, magnitude(args.twos_of.sizes[other]));
        skip += z;
        bits = __ffsll(d[z]) - 1;
    }
    const limb_t* x = args.in.element(i);
    const std::uint32_t n = magnitude(args.in.sizes[i]);
    limb_t* y = args.out.element(i);
    std::uint32_t top = 0;
    for (std::uint32_t k = warp_lane(); k < args.out.stride; k += 32) {
        const std::uint64_t from = std::uint64_t(k) + skip;
        const limb_t low = from < n ? x[from] : 0, high = from + 1 < n ? x[from + 1] : 0;
        const limb_t v = bits ? low >> bits | high << (64 - bits) : low;
        y[k] = v;
        if (v) top = k + 1;
    }
    top = warp_max(top);
    if (warp_lane() == 0) {
        const bool negative = args.keep_sign && (args.in.sizes[i] < 0) != (args.sign_of.count > 0 && args.sign_of.sizes[other] < 0);
        args.out.sizes[i] = negative ? -std::int32_t(top) : std::int32_t(top);
    }
}

__global__ void word_inverse_kernel(ConstBatchView odd, BatchView x)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= odd.count) return;
    x.element(i)[0] = inverse_mod_word(odd.element(i)[0]);
    x.sizes[i] = 1;
}

__global__ void newton_lift_kernel(ConstBatchView x, ConstBatchView w, BatchView out)
{
    const std::size_t i = warp_element();
    if (i >= out.count) return;
    const std::uint32_t p = x.stride, d = out.stride - p;
    const limb_t* low = x.element(i);
    const limb_t* product = w.element(i);
    // -w mod B^d in two's complement: zeros below w's lowest nonzero limb z, -w[z] at z, ~w
    // above; all zeros if w = 0 mod B^d (z = wn).
    const std::uint32_t wn = ::min(magnitude(w.sizes[i]), d);
    const std::uint32_t z = lowest_nonzero(product, wn);
    limb_t* y = out.element(i);
    std::uint32_t top = 0;
    for (std::uint32_t k = warp_lane(); k < out.stride; k += 32) {
        limb_t v;
        if (k < p) v = low[k];
        else {
            const std::uint32_t j = k - p;
            const limb_t wj = j < wn ? product[j] : 0;
            v = j < z || z == wn ? 0 : j == z ? limb_t(0) - wj : ~wj;
        }
        y[k] = v;
        if (v) top = k + 1;
    }
    top = warp_max(top);
    if (warp_lane() == 0) out.sizes[i] = std::int32_t(top);
}

__global__ void first_difference_kernel(ConstBatchView x, ConstBatchView y, unsigned long long* first)
{
    const std::size_t i = warp_element();
    if (i >= x.count) return;
    const std::int32_t size = x.sizes[i];
    bool differs = size != y.sizes[i];
    const std::uint32_t n = magnitude(size);
    for (std::uint32_t base = 0; base < n && !differs; base += 32) {
        const std::uint32_t k = base + warp_lane();
        differs = __any_sync(kFullWarp, k < n && x.element(i)[k] != y.element(i)[k]);
    }
    if (differs && warp_lane() == 0) atomicMin(first, (unsigned long long)i);
}

void check_launch(const char* kernel)
{
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("division step ") + kernel + ": " + cudaGetErrorString(e));
}

unsigned warp_blocks(std::size_t elements)
{
    const std::size_t blocks = (elements + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > 0x7fffffffu) throw Error("division: " + std::to_string(elements) + " elements exceed one launch");
    return unsigned(blocks);
}

unsigned thread_blocks(std::size_t elements) { return warp_blocks((elements + 31) / 32); }

}  // namespace

void summarize_divisors(ConstBatchView b, DivisorSummary* summary, cudaStream_t stream)
{
    const DivisorSummary start{b.count, UINT_MAX, 0};
    if (const cudaError_t e = cudaMemcpyAsync(summary, &start, sizeof start, cudaMemcpyHostToDevice, stream); e != cudaSuccess)
        throw Error(std::string("division: starting the divisor summary: ") + cudaGetErrorString(e));
    if (b.count == 0) return;
    summarize_kernel<<<thread_blocks(b.count), 32 * kWarpsPerBlock, 0, stream>>>(b, summary);
    check_launch("summarize");
}

void slice(const SliceArgs& args, cudaStream_t stream)
{
    if (args.out.count == 0) return;
    slice_kernel<<<warp_blocks(args.out.count), 32 * kWarpsPerBlock, 0, stream>>>(args);
    check_launch("slice");
}

void word_inverse(ConstBatchView odd, BatchView x, cudaStream_t stream)
{
    if (odd.count == 0) return;
    word_inverse_kernel<<<thread_blocks(odd.count), 32 * kWarpsPerBlock, 0, stream>>>(odd, x);
    check_launch("word inverse");
}

void newton_lift(ConstBatchView x, ConstBatchView w, BatchView out, cudaStream_t stream)
{
    if (out.count == 0) return;
    newton_lift_kernel<<<warp_blocks(out.count), 32 * kWarpsPerBlock, 0, stream>>>(x, w, out);
    check_launch("Newton lift");
}

void first_difference(ConstBatchView x, ConstBatchView y, unsigned long long* first, cudaStream_t stream)
{
    if (x.count == 0) return;
    first_difference_kernel<<<warp_blocks(x.count), 32 * kWarpsPerBlock, 0, stream>>>(x, y, first);
    check_launch("first difference");
}

}  // namespace zgpu::kernels
