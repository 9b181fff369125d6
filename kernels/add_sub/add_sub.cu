// Batched signed addition and subtraction of packed big integers (layout: limb_batch.hpp).
//
// T threads work on one instance, each on L consecutive limbs held in registers: the scan
// addition of Bringgaard and of Oancea and Watt, several limbs a thread. Subtraction of
// magnitudes is addition of the ones' complement with carry-in 1, so one carry-lookahead path
// serves both; the larger magnitude is put first, so the result never needs negating. Operands
// longer than T*L limbs (up to 1024 limbs) are walked in chunks, the carry passing from chunk to
// chunk; longer ones go to add_sub_wide.cu.
#include "kernels/add_sub/add_sub.hpp"
#include "kernels/add_sub/add_sub_wide.hpp"

#include <bit>
#include <string>

#include <cuda/std/utility>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/limb_access.cuh"
#include "kernels/common/thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kSegmentBlockThreads = 256;  // block size when one warp holds several instances


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
// One instance: its operands and where its result goes. Dead instances (past the end of the
// batch) have no limbs and store nothing, but still join every collective of their group.
struct Instance {
    const limb_t* x;
    const limb_t* y;
    limb_t* r;
    std::int32_t* r_size;
    std::uint32_t stride_x, stride_y;  // 0 for a dead instance: nothing is loaded
    std::int32_t size_x, size_y;       // signed sizes, y's sign already flipped for subtraction
};

__device__ Instance instance_at(const AddSubArgs& args, std::size_t i)
{
    if (i >= args.a.count) return {nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0};
    return {args.a.element(i), args.b.element(i), args.r.element(i), args.r.sizes + i,
            args.a.stride,     args.b.stride,     0,                 0};
}

// Reads the sizes; kept apart from instance_at so that limb loads need not wait for them.
__device__ void read_sizes(const AddSubArgs& args, std::size_t i, Instance& in)
{
    if (i >= args.a.count) return;
    in.size_x = args.a.sizes[i];
    in.size_y = args.subtract ? -args.b.sizes[i] : args.b.sizes[i];
}

// Stores the result limbs past the operands' strides, [tail, r_stride): the final carry at
// `tail` (a sum's extra limb), zeros above; no carry exchange needed.
template <int T, int L, class Group>
__device__ void store_tail(const Group& group, limb_t* r, std::uint32_t r_stride, std::uint32_t tail, limb_t top)
{
    for (std::uint32_t k = tail + group.rank() * L; k < r_stride; k += T * L) {
        limb_t v[L] = {};
        if (k == tail) v[0] = top;
        store_limbs(r, r_stride, k, v);
    }
}

// r = x +- y for one instance whose lowest chunk (xc, yc) is already loaded. The chunks walk
// the operands' stride `stride_in` (the same for all instances), then store_tail the rest.
// With Chunked false the operands fit one chunk, and no registers go to loading a next one.
template <int T, int L, bool Chunked, class Group>
__device__ void add_sub_instance(const Group& group, Instance in, std::uint32_t stride_in, std::uint32_t r_stride,
                                 limb_t (&xc)[L], limb_t (&yc)[L])
{
    constexpr std::uint32_t C = T * L;
    const std::uint32_t first = group.rank() * L;
    const std::uint32_t chunks = (stride_in + C - 1) / C;
    const std::uint32_t nx = abs(in.size_x), ny = abs(in.size_y);
    bool negative = in.size_x < 0;
    const bool subtract = negative != (in.size_y < 0);  // magnitudes subtract

    // Put the larger magnitude first. Operands held in one chunk are compared in registers (a
    // collective every instance of a warp joins); longer ones have a whole warp or block to
    // themselves, which reads them again from the top.
    int order = chunks == 1 ? compare_held(group, xc, yc) : 0;
    if (chunks > 1 && subtract && nx == ny) order = compare_from_top<T, L>(group, in.x, in.y, nx);
    if (nx != ny) order = nx > ny ? 1 : -1;
    if (subtract && order < 0) {
        negative = !negative;
        cuda::std::swap(in.x, in.y);
        cuda::std::swap(in.stride_x, in.stride_y);
#pragma unroll
        for (int j = 0; j < L; ++j) cuda::std::swap(xc[j], yc[j]);
    }

    // x - y = x + ~y + 1: the carry-in of the lowest chunk is 1, and its carry-out is dropped.
    const limb_t flip = subtract ? ~limb_t(0) : 0;
    std::uint32_t carry = subtract;
    std::uint32_t used = 0;  // one past this thread's highest nonzero result limb
    for (std::uint32_t c = 0; c < chunks; ++c) {
        const std::uint32_t base = c * C + first;
        bool generate = false, propagate = true;  // this thread's limbs, carry-in 0
#pragma unroll
        for (int j = 0; j < L; ++j) {
            yc[j] ^= flip;
            const limb_t s = xc[j] + yc[j];
            const bool p = s == ~limb_t(0);
            generate = (s < xc[j]) || (p && generate);
            propagate = propagate && p;
        }
        // Start loading the next chunk before the carry exchange waits on other threads.
        limb_t xn[L] = {}, yn[L] = {};
        if constexpr (Chunked) {
            load_limbs(in.x, in.stride_x, base + C, xn);
            load_limbs(in.y, in.stride_y, base + C, yn);
        }

        const Carries carries = group.carries(generate, propagate);
        bool carry_in = carries.into[carry];
        carry = carries.carry_out(carry);
#pragma unroll
        for (int j = 0; j < L; ++j) {
            const limb_t s = xc[j] + yc[j];
            const limb_t sum = s + carry_in;
            carry_in = (s < xc[j]) || (carry_in && s == ~limb_t(0));
            xc[j] = sum;
            if (sum != 0) used = base + j + 1;
        }
        if (in.r) store_limbs(in.r, r_stride, base, xc);
#pragma unroll
        for (int j = 0; j < L; ++j) {
            xc[j] = xn[j];
            yc[j] = yn[j];
        }
    }
    const std::uint32_t tail = chunks * C;
    const limb_t top = subtract ? 0 : carry;
    if (top) used = tail + 1;
    if (in.r) store_tail<T, L>(group, in.r, r_stride, tail, top);
    used = group.max(used);
    if (in.r && group.rank() == 0) *in.r_size = negative ? -std::int32_t(used) : std::int32_t(used);
}

// With two limbs a thread and one chunk, 1536 threads a multiprocessor fit in registers without
// spilling and measured faster (90 % of copy bandwidth at 512 bits, against 87 %); with four,
// the register cap that would take spilled and measured slower (81 % against 85-89 %).
template <int T, int L, bool Chunked>
__global__ void __launch_bounds__(T > 32 ? T : kSegmentBlockThreads, !Chunked && L == 2 ? 6 : 1)
    add_sub_kernel(const AddSubArgs args)
{
    static_assert(T >= 32 || !Chunked, "a group sharing its warp cannot walk chunks: see launch()");
    using Group = ThreadGroup<T>;
    constexpr int kGroupsPerBlock = T > 32 ? 1 : kSegmentBlockThreads / T;
    __shared__ typename Group::Shared shared;
    const Group group(shared);

    const std::size_t i = std::size_t(blockIdx.x) * kGroupsPerBlock + group.instance_in_block();
    Instance in = instance_at(args, i);
    limb_t xc[L], yc[L];
    load_limbs(in.x, in.stride_x, group.rank() * L, xc);
    load_limbs(in.y, in.stride_y, group.rank() * L, yc);
    read_sizes(args, i, in);
    add_sub_instance<T, L, Chunked>(group, in, max(args.a.stride, args.b.stride), args.r.stride, xc, yc);
}

template <int T, int L>
void launch(const AddSubArgs& args, cudaStream_t stream)
{
    const bool chunked = std::max(args.a.stride, args.b.stride) > T * L;
    const std::size_t per_block = T > 32 ? 1 : kSegmentBlockThreads / T;
    const std::size_t blocks = (args.a.count + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("add/sub: batch of " + std::to_string(args.a.count) + " elements exceeds one launch");
    const unsigned threads = T > 32 ? T : kSegmentBlockThreads;
    // Groups of less than a warp share it with other instances and must hold their operands in
    // one chunk; groups of more than a warp only get operands that need several.
    if constexpr (T < 32) {
        if (chunked) throw Error("add/sub: internal error: operands of stride " + std::to_string(args.a.stride) + " do not fit one chunk");
        add_sub_kernel<T, L, false><<<unsigned(blocks), threads, 0, stream>>>(args);
    } else if constexpr (T > 32) {
        add_sub_kernel<T, L, true><<<unsigned(blocks), threads, 0, stream>>>(args);
    } else if (chunked) {
        add_sub_kernel<T, L, true><<<unsigned(blocks), threads, 0, stream>>>(args);
    } else {
        add_sub_kernel<T, L, false><<<unsigned(blocks), threads, 0, stream>>>(args);
    }
    check_launch("add/sub kernel launch");
}

}  // namespace

// The shape by operand stride s, measured on an H200 (bench/results/): up to 16 limbs, two
// limbs a thread (one 16-byte access); above, four limbs a thread, in one chunk up to 128 limbs,
// in two chunks up to 1024 limbs (T = s/8: 93 % of copy bandwidth at 256 and 512 limbs, where
// one chunk of twice the threads gave 90 %), and beyond that several blocks an instance
// (add_sub_wide.cu; two chunks of 256 threads gave 82-85 % at 2048 limbs). Eight limbs a thread, several instances a thread in flight, 512-thread
// blocks, and one block walking a long instance in many chunks all measured slower.
void add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract, cudaStream_t stream)
{
    if (a.count == 0) return;
    const AddSubArgs args{a, b, r, subtract};
    const std::uint32_t s = std::max(a.stride, b.stride);
    if (s <= 16) {
        switch (std::bit_ceil((s + 1) / 2)) {
        case 1: return launch<1, 2>(args, stream);
        case 2: return launch<2, 2>(args, stream);
        case 4: return launch<4, 2>(args, stream);
        default: return launch<8, 2>(args, stream);
        }
    }
    if (s > 1024) return add_sub_wide(args, stream);
    const std::uint32_t threads = s <= 128 ? (s + 3) / 4 : (s + 7) / 8;
    switch (std::bit_ceil(threads)) {
    case 8: return launch<8, 4>(args, stream);
    case 16: return launch<16, 4>(args, stream);
    case 32: return launch<32, 4>(args, stream);
    case 64: return launch<64, 4>(args, stream);
    default: return launch<128, 4>(args, stream);
    }
}

}  // namespace zgpu::kernels
