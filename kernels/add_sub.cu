// Batched signed addition and subtraction of packed big integers (layout: limb_batch.hpp).
//
// T threads work on one instance, each on L consecutive limbs held in registers (seed 000 §7,
// seed 003 §2). Subtraction of magnitudes is addition of the ones' complement with carry-in 1,
// so one carry-lookahead path serves both; the larger magnitude is put first, so the result
// never needs negating. Instances longer than T*L limbs are walked in chunks of T*L limbs,
// the carry passing from chunk to chunk.
#include "add_sub.hpp"

#include <bit>
#include <string>

#include <cuda/std/utility>

#include "thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kSegmentBlockThreads = 256;  // block size when one warp holds several instances

struct AddSubArgs {
    ConstBatchView a, b;
    BatchView r;
    bool subtract;
};

// Loads limbs [first, first+L) of an element with `used` nonzero limbs; limbs past `used` read
// as zero without touching memory. Pairs go as one 16-byte load (element strides >= 2 are even).
template <int L>
__device__ void load_limbs(const limb_t* element, std::uint32_t used, std::uint32_t first, limb_t (&v)[L])
{
#pragma unroll
    for (int j = 0; j < L; j += 2) {
        const std::uint32_t k = first + j;
        if (k + 1 < used) {
            const ulonglong2 pair = __ldg(reinterpret_cast<const ulonglong2*>(element + k));
            v[j] = pair.x;
            v[j + 1] = pair.y;
        } else {
            v[j] = k < used ? __ldg(element + k) : 0;
            v[j + 1] = 0;
        }
    }
}

template <int L>
__device__ void store_limbs(limb_t* element, std::uint32_t stride, std::uint32_t first, const limb_t (&v)[L])
{
#pragma unroll
    for (int j = 0; j < L; j += 2) {
        const std::uint32_t k = first + j;
        if (k + 1 < stride) *reinterpret_cast<ulonglong2*>(element + k) = make_ulonglong2(v[j], v[j + 1]);
        else if (k < stride) element[k] = v[j];
    }
}

// Sign of x - y from limbs held in registers: the highest differing limb decides.
template <int L, class Group>
__device__ int compare_held(const Group& group, const limb_t (&x)[L], const limb_t (&y)[L])
{
    bool differs = false, greater = false;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        if (x[j] != y[j]) {
            differs = true;
            greater = x[j] > y[j];
        }
    }
    bool found;
    const bool x_greater = group.value_of_highest(differs, greater, found);
    return found ? (x_greater ? 1 : -1) : 0;
}

// Sign of |x| - |y| for two n-limb magnitudes longer than one chunk, from the top chunk down.
template <int T, int L, class Group>
__device__ int compare_from_top(const Group& group, const limb_t* x, const limb_t* y, std::uint32_t n)
{
    constexpr std::uint32_t C = T * L;
    for (int c = int((n + C - 1) / C) - 1; c >= 0; --c) {
        limb_t xc[L], yc[L];
        const std::uint32_t first = c * C + group.rank() * L;
        load_limbs(x, n, first, xc);
        load_limbs(y, n, first, yc);
        if (const int order = compare_held(group, xc, yc)) return order;
    }
    return 0;
}

template <int T, int L>
__global__ void __launch_bounds__(T > 32 ? T : kSegmentBlockThreads) add_sub_kernel(const AddSubArgs args)
{
    using Group = ThreadGroup<T>;
    constexpr std::uint32_t C = T * L;
    constexpr int kInstancesPerBlock = T > 32 ? 1 : kSegmentBlockThreads / T;
    __shared__ typename Group::Shared shared;
    const Group group(shared);

    const std::size_t i = std::size_t(blockIdx.x) * kInstancesPerBlock + group.instance_in_block();
    const bool live = i < args.a.count;  // dead threads still join every collective
    const std::int32_t size_a = live ? args.a.sizes[i] : 0;
    const std::int32_t size_b = live ? args.b.sizes[i] : 0;
    const limb_t* x = live ? args.a.element(i) : nullptr;
    const limb_t* y = live ? args.b.element(i) : nullptr;
    std::uint32_t nx = abs(size_a), ny = abs(size_b);
    bool negative = size_a < 0;
    const bool y_negative = (size_b < 0) != args.subtract;
    const bool subtract = negative != y_negative;  // magnitudes subtract

    const std::uint32_t chunks = (args.r.stride + C - 1) / C;  // the same for all instances
    const std::uint32_t first = group.rank() * L;
    limb_t xc[L], yc[L];
    load_limbs(x, nx, first, xc);
    load_limbs(y, ny, first, yc);

    // Put the larger magnitude first. With one chunk the held limbs decide (a collective all
    // instances of a warp join); longer instances own their block and read from the top.
    int order = 0;
    if (chunks == 1) order = compare_held(group, xc, yc);
    else if (subtract && nx == ny) order = compare_from_top<T, L>(group, x, y, nx);
    if (nx != ny) order = nx > ny ? 1 : -1;
    if (subtract && order < 0) {
        negative = y_negative;
        cuda::std::swap(x, y);
        cuda::std::swap(nx, ny);
#pragma unroll
        for (int j = 0; j < L; ++j) cuda::std::swap(xc[j], yc[j]);
    }

    // x - y = x + ~y + 1: the carry-in of the lowest chunk is 1, and its carry-out is dropped.
    const limb_t flip = subtract ? ~limb_t(0) : 0;
    std::uint32_t carry = subtract;
    std::uint32_t used = 0;  // one past this thread's highest nonzero result limb
    limb_t* r = live ? args.r.element(i) : nullptr;
    for (std::uint32_t c = 0; c < chunks; ++c) {
        const std::uint32_t base = c * C + first;
        if (c > 0) {
            load_limbs(x, nx, base, xc);
            load_limbs(y, ny, base, yc);
        }
        bool generate = false, propagate = true;  // this thread's limbs, carry-in 0
#pragma unroll
        for (int j = 0; j < L; ++j) {
            yc[j] ^= flip;
            const limb_t s = xc[j] + yc[j];
            const bool p = s == ~limb_t(0);
            generate = (s < xc[j]) || (p && generate);
            propagate = propagate && p;
        }
        std::uint32_t carry_out;
        bool carry_in = group.carry_in(generate, propagate, carry, carry_out);
        carry = carry_out;
#pragma unroll
        for (int j = 0; j < L; ++j) {
            const limb_t s = xc[j] + yc[j];
            const limb_t sum = s + carry_in;
            carry_in = (s < xc[j]) || (carry_in && s == ~limb_t(0));
            xc[j] = sum;
            if (sum != 0) used = base + j + 1;
        }
        if (live) store_limbs(r, args.r.stride, base, xc);
    }
    used = group.max(used);
    if (live && group.rank() == 0) args.r.sizes[i] = negative ? -std::int32_t(used) : std::int32_t(used);
}

template <int T, int L>
void launch(const AddSubArgs& args, cudaStream_t stream)
{
    const std::size_t per_block = T > 32 ? 1 : kSegmentBlockThreads / T;
    const std::size_t blocks = (args.a.count + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("add/sub: batch of " + std::to_string(args.a.count) + " elements exceeds one launch");
    add_sub_kernel<T, L><<<unsigned(blocks), T > 32 ? T : kSegmentBlockThreads, 0, stream>>>(args);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("add/sub kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace

// Threads per instance and limbs per thread, by result stride: a single chunk up to 2048 limbs,
// two limbs a thread (one 16-byte access) up to 64 limbs, four above.
void add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract, cudaStream_t stream)
{
    if (a.count == 0) return;
    const AddSubArgs args{a, b, r, subtract};
    const std::uint32_t s = r.stride;
    if (s <= 64) {
        switch (std::bit_ceil((s + 1) / 2)) {
        case 1: return launch<1, 2>(args, stream);
        case 2: return launch<2, 2>(args, stream);
        case 4: return launch<4, 2>(args, stream);
        case 8: return launch<8, 2>(args, stream);
        case 16: return launch<16, 2>(args, stream);
        default: return launch<32, 2>(args, stream);
        }
    }
    switch (std::bit_ceil(std::min<std::uint32_t>((s + 3) / 4, 512))) {
    case 32: return launch<32, 4>(args, stream);
    case 64: return launch<64, 4>(args, stream);
    case 128: return launch<128, 4>(args, stream);
    case 256: return launch<256, 4>(args, stream);
    default: return launch<512, 4>(args, stream);
    }
}

}  // namespace zgpu::kernels
