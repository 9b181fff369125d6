// The elementwise steps of 2-adic division (div_steps.hpp). They move a few limbs an element
// and are bound by memory, so they are written plainly: one warp an element, its lanes
// striding over the limbs, sizes found by a ballot from the top; the summary and the starting
// inverse take one thread an element.
#include "kernels/div/div_steps.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/warp_launch.cuh"
#include "kernels/common/warp_limbs.cuh"
#include "kernels/common/word_inverse.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

// On the device, so that starting a summary waits for no copy from the host.
__global__ void start_summary_kernel(DivisionSummary* summary, std::size_t divisors)
{
    *summary = {divisors, UINT_MAX, 0};
}

__device__ limb_t top_limb(ConstBatchView x, std::size_t i, std::uint32_t n) { return n ? x.element(i)[n - 1] : 0; }

__global__ void summarize_kernel(ConstBatchView a, ConstBatchView b, DivisionSummary* summary)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool divisor = i < b.count, dividend = i < a.count;
    const std::uint32_t n = divisor ? magnitude(b.sizes[i]) : 0;
    const unsigned zeros = __ballot_sync(kFullWarp, divisor && n == 0);
    std::uint32_t smallest = divisor ? n : UINT_MAX, longest = 0;
    if (dividend) {
        const std::size_t other = b.count == 1 ? 0 : i;
        const std::uint32_t na = magnitude(a.sizes[i]), nb = magnitude(b.sizes[other]);
        if (nb > 0) longest = quotient_limbs_bound(na, top_limb(a, i, na), nb, top_limb(b, other, nb));
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        smallest = ::min(smallest, __shfl_xor_sync(kFullWarp, smallest, offset));
        longest = ::max(longest, __shfl_xor_sync(kFullWarp, longest, offset));
    }
    if (warp_lane() != 0) return;
    if (zeros) atomicMin(&summary->first_zero, (unsigned long long)(i + __ffs(zeros) - 1));
    atomicMin(&summary->min_size, smallest);
    atomicMax(&summary->longest_quotient, longest);
}

// Hensel's division of 1 by odd: x_j = r_j odd^-1 mod B, r -= x_j odd B^j, from r = 1.
__global__ void inverse_start_kernel(ConstBatchView odd, BatchView x)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= odd.count) return;
    const limb_t* b = odd.element(i);
    const int p = int(x.stride), n = ::min(int(magnitude(odd.sizes[i])), p);
    limb_t d[kInverseStartMaxLimbs], r[kInverseStartMaxLimbs];
#pragma unroll
    for (int l = 0; l < int(kInverseStartMaxLimbs); ++l) {
        d[l] = l < n ? b[l] : 0;
        r[l] = l == 0;
    }
    const limb_t inverse = inverse_mod_word(d[0]);
#pragma unroll
    for (int j = 0; j < int(kInverseStartMaxLimbs); ++j) {
        if (j >= p) break;
        hensel_step(r, j, std::uint32_t(p), inverse, [&](int l) { return d[l]; });
    }
    limb_t* out = x.element(i);
    std::uint32_t size = 0;
#pragma unroll
    for (int j = 0; j < int(kInverseStartMaxLimbs); ++j) {
        if (j >= p) break;
        out[j] = r[j];
        if (r[j]) size = j + 1;
    }
    x.sizes[i] = std::int32_t(size);
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

}  // namespace

void summarize_division(ConstBatchView a, ConstBatchView b, DivisionSummary* summary, cudaStream_t stream)
{
    start_summary_kernel<<<1, 1, 0, stream>>>(summary, b.count);
    check_launch("division step starting the summary");
    const std::size_t elements = std::max(a.count, b.count);
    if (elements == 0) return;
    summarize_kernel<<<thread_blocks(elements), 32 * kWarpsPerBlock, 0, stream>>>(a, b, summary);
    check_launch("division step summarize");
}

void inverse_start(ConstBatchView odd, BatchView x, cudaStream_t stream)
{
    if (x.stride > kInverseStartMaxLimbs)
        throw Error("division: internal error: a starting inverse of " + std::to_string(x.stride) + " limbs");
    if (odd.count == 0) return;
    inverse_start_kernel<<<thread_blocks(odd.count), 32 * kWarpsPerBlock, 0, stream>>>(odd, x);
    check_launch("division step starting inverse");
}

void newton_lift(ConstBatchView x, ConstBatchView w, BatchView out, cudaStream_t stream)
{
    if (out.count == 0) return;
    newton_lift_kernel<<<warp_blocks(out.count), 32 * kWarpsPerBlock, 0, stream>>>(x, w, out);
    check_launch("division step Newton lift");
}

void first_difference(ConstBatchView x, ConstBatchView y, unsigned long long* first, cudaStream_t stream)
{
    if (x.count == 0) return;
    first_difference_kernel<<<warp_blocks(x.count), 32 * kWarpsPerBlock, 0, stream>>>(x, y, first);
    check_launch("division step first difference");
}

}  // namespace zgpu::kernels
