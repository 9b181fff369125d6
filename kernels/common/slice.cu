// The slice (slice.hpp): it moves a few limbs an element and is bound by memory, so it is
// written plainly: one warp an element, its lanes striding over the limbs.
#include "kernels/common/slice.hpp"

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/warp_launch.cuh"
#include "kernels/common/warp_limbs.cuh"

namespace zgpu::kernels {
namespace {

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

}  // namespace

void slice(const SliceArgs& args, cudaStream_t stream)
{
    if (args.out.count == 0) return;
    slice_kernel<<<warp_blocks(args.out.count), 32 * kWarpsPerBlock, 0, stream>>>(args);
    check_launch("slice");
}

}  // namespace zgpu::kernels
