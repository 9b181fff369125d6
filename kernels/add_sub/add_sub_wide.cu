// Batched add/sub of long instances, several blocks an instance (layout: limb_batch.hpp).
//
// One block walking a long instance reads it as one of thousands of separate streams, and a
// block that waits for its predecessor's carry (decoupled look-back) holds its registers with no
// loads in flight: both measured near 60-82 % of copy bandwidth at 2^18-2^20 bits. Here no block
// waits for another:
//   1. plan:   per instance, which magnitude is larger and the result's sign (one warp each);
//   2. tiles:  each block adds one tile of kTile limbs with carry-in 0, stores it, and records
//              whether the tile generates a carry (borrow), propagates one, or neither;
//   3. carry:  one thread per tile finds the tile's carry-in from those flags and ripples it
//              into the stored limbs, which stops at the first limb that absorbs it (one limb
//              for random data; a whole tile only when the tile propagates, in which case the
//              next tile receives the carry from its own look at the flags);
//   4. sizes:  per instance, the highest nonzero limb, searched from the top (one warp each).
// Magnitudes subtract in the borrow form (x_k - y_k - borrow), so limbs past the operands are
// 0 - 0 and never take part in a ripple.
#include "kernels/add_sub/add_sub_wide.hpp"

#include <algorithm>
#include <string>

#include <cuda/std/utility>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "kernels/common/thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 128, kLimbsPerThread = 4;
constexpr std::uint32_t kTile = kThreads * kLimbsPerThread;

// An instance's plan, one byte.
enum : std::uint8_t { kSwap = 1, kSubtract = 2, kNegative = 4 };
// A tile's carry flags, one byte.
enum : std::uint8_t { kGenerate = 1, kPropagate = 2 };

// The highest limb index below `top` where x and y differ, as the sign of x - y there (0 if
// none), searched by a warp from the top, 64 limbs at a time.
__device__ int compare_from_top(const ThreadGroup<32>& warp, const limb_t* x, const limb_t* y, std::int64_t top)
{
    for (; top > 0; top -= 64) {
        bool differs = false, greater = false;
        for (int j = 0; j < 2; ++j) {
            const std::int64_t k = top - 64 + 2 * warp.rank() + j;
            if (k >= 0 && x[k] != y[k]) {
                differs = true;
                greater = x[k] > y[k];
            }
        }
        bool found;
        const bool x_greater = warp.value_of_highest(differs, greater, found);
        if (found) return x_greater ? 1 : -1;
    }
    return 0;
}

__global__ void plan_instances(const AddSubArgs args, std::uint8_t* plan)
{
    const std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (i >= args.a.count) return;  // the whole warp
    typename ThreadGroup<32>::Shared none;
    const ThreadGroup<32> warp(none);
    const std::int32_t size_x = args.a.sizes[i];
    const std::int32_t size_y = args.subtract ? -args.b.sizes[i] : args.b.sizes[i];
    const std::uint32_t nx = abs(size_x), ny = abs(size_y);
    bool negative = size_x < 0;
    const bool subtract = negative != (size_y < 0);
    int order = nx == ny ? 0 : (nx > ny ? 1 : -1);
    if (subtract && order == 0) order = compare_from_top(warp, args.a.element(i), args.b.element(i), nx);
    if (subtract && order < 0) negative = !negative;
    if (warp.rank() == 0)
        plan[i] = (subtract && order < 0 ? kSwap : 0) | (subtract ? kSubtract : 0) | (negative ? kNegative : 0);
}

__global__ void __launch_bounds__(kThreads) add_sub_tiles(const AddSubArgs args, const std::uint8_t* plan,
                                                          std::uint8_t* flags, std::uint32_t tiles_per_instance)
{
    using Group = ThreadGroup<kThreads>;
    constexpr int L = kLimbsPerThread;
    __shared__ typename Group::Shared shared;
    const Group group(shared);

    // The limbs and the plan load together; the plan only says which operand is which.
    const std::size_t t = blockIdx.x;
    const std::size_t i = t / tiles_per_instance;
    const std::uint32_t base = std::uint32_t(t % tiles_per_instance) * kTile + group.rank() * L;
    limb_t xc[L], yc[L];
    load_limbs(args.a.element(i), args.a.stride, base, xc);
    load_limbs(args.b.element(i), args.b.stride, base, yc);
    const std::uint8_t how = plan[i];
    if (how & kSwap) {
#pragma unroll
        for (int j = 0; j < L; ++j) cuda::std::swap(xc[j], yc[j]);
    }
    const bool subtract = how & kSubtract;

    // Per limb: a carry (borrow) out, or one passed through when it comes in.
    bool generate = false, propagate = true;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const bool g = subtract ? xc[j] < yc[j] : xc[j] + yc[j] < xc[j];
        const bool p = subtract ? xc[j] == yc[j] : xc[j] + yc[j] == ~limb_t(0);
        generate = g || (p && generate);
        propagate = propagate && p;
    }
    const Carries carries = group.carries(generate, propagate);
    bool carry = carries.into[0];
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const limb_t x = xc[j], y = yc[j];
        if (subtract) {
            xc[j] = x - y - carry;
            carry = x < y || (carry && x == y);
        } else {
            xc[j] = x + y + carry;
            carry = x + y < x || (carry && x + y == ~limb_t(0));
        }
    }
    store_limbs(args.r.element(i), args.r.stride, base, xc);
    if (threadIdx.x == 0) flags[t] = (carries.generate ? kGenerate : 0) | (carries.propagate ? kPropagate : 0);
}

__global__ void ripple_carries(const AddSubArgs args, const std::uint8_t* plan, const std::uint8_t* flags,
                               std::uint32_t tiles_per_instance)
{
    const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= args.a.count * tiles_per_instance || t % tiles_per_instance == 0) return;  // first tiles: carry-in 0
    bool carry = false;
    for (std::size_t p = t - 1;; --p) {
        if (flags[p] & kGenerate) carry = true;
        if (!(flags[p] & kPropagate) || p % tiles_per_instance == 0) break;
    }
    if (!carry) return;
    const std::size_t i = t / tiles_per_instance;
    limb_t* r = args.r.element(i);
    const std::uint32_t begin = std::uint32_t(t % tiles_per_instance) * kTile;
    const std::uint32_t end = min(begin + kTile, args.r.stride);
    if (plan[i] & kSubtract) {
        for (std::uint32_t k = begin; k < end && r[k]-- == 0; ++k) {}
    } else {
        for (std::uint32_t k = begin; k < end && ++r[k] == 0; ++k) {}
    }
}

__global__ void write_sizes(const AddSubArgs args, const std::uint8_t* plan)
{
    const std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (i >= args.a.count) return;  // the whole warp
    typename ThreadGroup<32>::Shared none;
    const ThreadGroup<32> warp(none);
    const limb_t* r = args.r.element(i);
    // The result has at most max(|a|, |b|) + 1 limbs; searched from there down, 64 at a time.
    const std::int64_t longest = max(abs(args.a.sizes[i]), abs(args.b.sizes[i]));
    const std::int64_t bound = min(std::int64_t(args.r.stride), longest + 1);
    std::int64_t used = 0;
    for (std::int64_t top = bound; top > 0 && used == 0; top -= 64) {
        std::uint32_t here = 0;
        for (int j = 0; j < 2; ++j) {
            const std::int64_t k = top - 64 + 2 * warp.rank() + j;
            if (k >= 0 && r[k] != 0) here = std::uint32_t(k + 1);
        }
        used = warp.max(here);
    }
    if (warp.rank() == 0) args.r.sizes[i] = plan[i] & kNegative ? -std::int32_t(used) : std::int32_t(used);
}

}  // namespace

void add_sub_wide(const AddSubArgs& args, cudaStream_t stream)
{
    const std::uint32_t tiles_per_instance = (args.r.stride + kTile - 1) / kTile;
    const std::size_t count = args.a.count, tiles = count * tiles_per_instance;
    if (tiles > 0x7fffffffu) throw Error("add/sub: " + std::to_string(count) + " elements exceed one launch");
    // From the stream-ordered pool: streams of other devices, or of several runtimes on one
    // device, each have their own.
    const StreamMemory memory(count + tiles, stream);
    std::uint8_t* plan = static_cast<std::uint8_t*>(memory.data());
    std::uint8_t* flags = plan + count;
    const unsigned warp_blocks = unsigned((count * 32 + 255) / 256);
    plan_instances<<<warp_blocks, 256, 0, stream>>>(args, plan);
    add_sub_tiles<<<unsigned(tiles), kThreads, 0, stream>>>(args, plan, flags, tiles_per_instance);
    ripple_carries<<<unsigned((tiles + 255) / 256), 256, 0, stream>>>(args, plan, flags, tiles_per_instance);
    write_sizes<<<warp_blocks, 256, 0, stream>>>(args, plan);
    check_launch("add/sub kernel launch");
}

}  // namespace zgpu::kernels
