// Batched signed multiplication on the tensor cores: byte digits through mma.m16n8k32 with
// unsigned 8-bit operands and 32-bit column sums (which bytes go where, and why the sums are
// exact: mul_tensor_layout.hpp).
//
// W warps work on one product (one block; with W = 1, a warp a product and four a block). A warp
// owns U consecutive output tiles and runs the union of their steps: per step it loads the A
// registers, which its tiles share, from a table of b's descending words, and one new pair of a's
// words (the B registers of its other tiles are still in registers from earlier steps), and
// issues one mma for each of its tiles (fewer instructions than testing which tiles need the
// step: a step outside a tile's own multiplies zeros). The operands wait in shared memory with
// zero margins. The column sums go to shared memory too, and the group turns them into limbs:
// each thread takes two limbs, v_l = sum_c s_(8 l + c) 256^c (below 2^88), adds the part of the
// limb below that lies above 2^64 into its own, and carries across the group. Blocks stay for
// further products, and the next product's operands and sizes are copied in while one is
// multiplied.
#include "kernels/mul/mul_tensor.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "kernels/common/add_columns.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/limb_access.cuh"
#include "kernels/common/mma_u8.cuh"
#include "kernels/mul/mul_tensor_layout.hpp"
#include "kernels/common/thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

using namespace tensor_layout;

constexpr int kProductsPerBlockOfOneWarp = 4;

// Limbs a thread of the carry pass takes: the 32 W threads of a product cover the 16 U W limbs of
// its tiles (U <= 4), in pairs.
constexpr int kLimbsPerThread = 2;

struct TensorArgs {
    ConstBatchView a, b;
    BatchView r;
    bool broadcast_b;
};

// The tiles of 16 limbs a product computes: all of a b's, or those below r's stride where r is
// shorter (a low product: the product mod B^r.stride).
ZGPU_HOST_DEVICE constexpr int output_tiles(std::uint32_t a_limbs, std::uint32_t b_limbs, std::uint32_t r_limbs)
{
    return int(((a_limbs + b_limbs < r_limbs ? a_limbs + b_limbs : r_limbs) + 15) / 16);
}

// Shared memory of one product slot, in bytes: two buffers of a (at a_margin inside each) and of
// b as it is in memory (at kRawBMarginLimbs inside each), zeros around them (mul_tensor_layout.hpp),
// so that the next product's operands arrive while this one's are in use; the b table, and in
// the same place once the steps are done, the column sums; two buffers of the sizes of a and b.
struct ProductSpace {
    int a_margin, a_buffer, raw_b, raw_b_buffer, table, sums, sizes, bytes;
};

// The column sums take the table's place once the steps are done, but for a broadcast b, whose
// table is built once and kept for every product: there they go above it.
ProductSpace product_space(std::uint32_t a_limbs, std::uint32_t b_limbs, std::uint32_t r_limbs, int tiles_per_warp, bool broadcast_b)
{
    ProductSpace s{};
    s.a_margin = a_margin_bytes(tiles_per_warp);
    s.a_buffer = 2 * s.a_margin + 8 * int(a_limbs);
    s.raw_b = 2 * s.a_buffer;
    s.raw_b_buffer = 8 * (int(b_limbs) + 2 * kRawBMarginLimbs);
    s.table = s.raw_b + 2 * s.raw_b_buffer;
    const int table_bytes = 8 * 8 * table_groups(int(b_limbs));
    const int sums_bytes = 4 * sum_word(kTileColumns * output_tiles(a_limbs, b_limbs, r_limbs));
    s.sums = broadcast_b ? s.table + table_bytes : s.table;
    s.sizes = broadcast_b ? s.sums + sums_bytes : s.table + std::max(table_bytes, sums_bytes);
    s.bytes = s.sizes + 16;
    return s;
}

// Asynchronous copies of 16 or 4 bytes from global to shared memory (cp.async, not through
// registers).
template <int Bytes = 16>
__device__ __forceinline__ void copy_async(void* shared_destination, const void* global_source)
{
    const unsigned destination = unsigned(__cvta_generic_to_shared(shared_destination));
    if constexpr (Bytes == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(destination), "l"(global_source) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(destination), "l"(global_source), "n"(Bytes) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_for_copies() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

template <int W>
__device__ __forceinline__ void sync_product()
{
    if constexpr (W == 1) __syncwarp();
    else __syncthreads();
}

// The steps of U tiles from T0: `steps` of them from m = first, every tile at every step (a step
// outside a tile's own multiplies zeros: the margins and the table hold them). Each step loads the
// A registers, shared by the tiles, from the b table, and one new pair of a's words; pair q (step
// - 4 u, from `first`) stays in ring slot q mod (4 U - 3) until tile U - 1 has used it, never moving.
// Whole turns of the ring run without a test between steps (a branch a step stalled the warps
// more than the mma did); the last, partial turn tests each step.
template <int U>
__device__ void multiply_tiles(const unsigned char* a, const uint2* b_table, int T0, int first, int steps, int (&acc)[U][4])
{
    constexpr int kRing = 4 * U - 3;
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const unsigned char* pairs = a + a_word_offset(T0, first, g, t, 0);
    const uint2* entries = b_table + b_word_x(first, g, t, 0);
    const auto slot = [](int q) { return (q % kRing + kRing) % kRing; };
    std::uint32_t ring[kRing][2];
    const auto load_pair = [&](int q) {
        ring[slot(q)][0] = *reinterpret_cast<const std::uint32_t*>(pairs - kStepBytes * q);
        ring[slot(q)][1] = *reinterpret_cast<const std::uint32_t*>(pairs - kStepBytes * q - 16);
    };
    const auto step = [&](int k) {  // k: the step within the turn, known at compile time
        load_pair(k);
        const uint2 low = entries[kStepBytes * k], high = entries[kStepBytes * k + 16];
#pragma unroll
        for (int u = 0; u < U; ++u) mma_u8(acc[u], low.x, low.y, high.x, high.y, ring[slot(k - 4 * u)][0], ring[slot(k - 4 * u)][1]);
    };
#pragma unroll
    for (int q = -4 * (U - 1); q < 0; ++q) load_pair(q);
    for (int turn = 0; turn < steps / kRing; ++turn) {
#pragma unroll
        for (int k = 0; k < kRing; ++k) step(k);
        pairs -= kStepBytes * kRing;
        entries += kStepBytes * kRing;
    }
#pragma unroll
    for (int k = 0; k < kRing; ++k) {
        if (k >= steps % kRing) break;  // the same in every lane
        step(k);
    }
}

// The limb l of the product, as low 64 bits and the rest (below 2^21), from its eight column sums
// (each below 2^28).
__device__ __forceinline__ void limb_from_sums(const std::uint32_t* sums, int l, int limbs, limb_t& low, limb_t& high)
{
    low = high = 0;
    if (l < 0 || l >= limbs) return;
    const uint4 x = *reinterpret_cast<const uint4*>(sums + sum_word(8 * l)), y = *reinterpret_cast<const uint4*>(sums + sum_word(8 * l + 4));
    const limb_t first = x.x + (limb_t(x.y) << 8) + (limb_t(x.z) << 16) + (limb_t(x.w) << 24);  // below 2^53
    const limb_t second = y.x + (limb_t(y.y) << 8) + (limb_t(y.z) << 16) + (limb_t(y.w) << 24);
    low = first + (second << 32);
    high = (second >> 32) + (low < first);
}

// r[i] from the column sums of its `limbs` limbs: thread `rank` takes L of them.
template <int L, int T>
__device__ void store_product(const ThreadGroup<T>& group, const std::uint32_t* sums, int limbs, std::int32_t size_a, std::int32_t size_b,
                              const BatchView& r, std::size_t i)
{
    const int first_limb = group.rank() * L;
    limb_t low[L], shifted[L], high;
    limb_from_sums(sums, first_limb - 1, limbs, low[0], high);
    shifted[0] = high;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        limb_from_sums(sums, first_limb + j, limbs, low[j], high);
        if (j + 1 < L) shifted[j + 1] = high;
    }
    add_columns(group, low, shifted);  // a full product fits its limbs; a low one drops the carry out

    limb_t* out = r.element(i);
    store_limbs(out, r.stride, first_limb, low);
    for (std::uint32_t k = T * L + group.rank(); k < r.stride; k += T) out[k] = 0;  // padding above
    const bool negative = (size_a < 0) != (size_b < 0);
    const int sizes = abs(size_a) + abs(size_b);
    if (sizes <= int(r.stride)) {
        // A full product of normalized operands has |a| + |b| or |a| + |b| - 1 limbs (0 where one
        // is zero): the thread that holds limb |a| + |b| - 1 knows which, with no collective.
        if (size_a == 0 || size_b == 0) {
            if (group.rank() == 0) r.sizes[i] = 0;
            return;
        }
#pragma unroll
        for (int j = 0; j < L; ++j)
            if (first_limb + j == sizes - 1) r.sizes[i] = (low[j] != 0 ? sizes : sizes - 1) * (negative ? -1 : 1);
        return;
    }
    std::uint32_t used = 0;
#pragma unroll
    for (int j = 0; j < L; ++j)
        if (low[j] != 0 && first_limb + j < int(r.stride)) used = first_limb + j + 1;
    used = group.max(used);
    if (group.rank() == 0) r.sizes[i] = negative ? -std::int32_t(used) : std::int32_t(used);
}

// The b table from b's 32-bit words (zeros around them). Thread `rank` of T writes the table's
// 16-byte chunks c = 4 q + k with k = rank % 4: entries 2 c and 2 c + 1 (y = 8 l + 3 + o for
// l = q - kTableLimbsBelow and o = 2 k, 2 k + 1), the descending words of x = y and x = y + 8,
// from b's words 2 l + k / 2 to 2 l + k / 2 + 3. Consecutive threads write consecutive chunks
// (no bank conflicts), and a thread's k, so its byte selectors, never change.
template <int T>
__device__ __forceinline__ void build_table(const std::uint32_t* b_words, int b_limbs, int rank, uint4* table)
{
    static_assert(T % 4 == 0);
    const int k = rank % 4;
    const int select_first = 0x0123 + 0x1111 * 2 * (k % 2), select_second = select_first + 0x1111;  // bytes o + 3, .., o
    for (int q = rank / 4; q < table_groups(b_limbs); q += T / 4) {
        const std::uint32_t* words = b_words + 2 * (q - kTableLimbsBelow) + k / 2;
        const std::uint32_t w0 = words[0], w1 = words[1], w2 = words[2], w3 = words[3];
        table[4 * q + k] = make_uint4(__byte_perm(w0, w1, select_first), __byte_perm(w2, w3, select_first),
                                      __byte_perm(w0, w1, select_second), __byte_perm(w2, w3, select_second));
    }
}

template <int W, int U>
constexpr int kThreadsPerBlock = W == 1 ? 32 * kProductsPerBlockOfOneWarp : 32 * W;

// Blocks an SM asked of the compiler, which bounds the registers: 64 (32 warps in flight) for
// blocks of several warps, 85 for one warp a product (64 spill there).
template <int W, int U>
constexpr int kMinBlocksPerSm = W == 1 ? 6 : 1024 / kThreadsPerBlock<W, U>;

// A slot (a block, or a warp with W = 1) multiplies the products i, i + stride, ...: while one
// is multiplied, the operands of the next one are on their way to the other buffers.
template <int W, int U>
__global__ void __launch_bounds__(kThreadsPerBlock<W, U>, kMinBlocksPerSm<W, U>)
    mul_tensor_kernel(const TensorArgs args, const ProductSpace space)
{
    using Group = ThreadGroup<32 * W>;
    __shared__ typename Group::Shared group_shared;
    extern __shared__ __align__(16) unsigned char shared[];
    const Group group(group_shared);
    const int warp = threadIdx.x / 32, rank = group.rank();
    constexpr int kSlotsPerBlock = W == 1 ? kProductsPerBlockOfOneWarp : 1;
    const std::size_t stride = std::size_t(gridDim.x) * kSlotsPerBlock;
    std::size_t i = std::size_t(blockIdx.x) * kSlotsPerBlock + (W == 1 ? warp : 0);
    if (i >= args.a.count) return;  // a whole warp with W = 1, which shares no collective with other warps

    unsigned char* slot = shared + (W == 1 ? warp * space.bytes : 0);
    const int a_limbs = int(args.a.stride), b_limbs = int(args.b.stride);
    std::int32_t* sizes = reinterpret_cast<std::int32_t*>(slot + space.sizes);  // a's and b's of each buffer
    // A broadcast b's limbs come once, with the first product: its table is kept (product_space).
    const auto fetch = [&](std::size_t p, int buffer, bool with_b_limbs) {
        const std::size_t q = args.broadcast_b ? 0 : p;
        unsigned char* a = slot + buffer * space.a_buffer + space.a_margin;
        unsigned char* b = slot + space.raw_b + buffer * space.raw_b_buffer + 8 * kRawBMarginLimbs;
        for (int c = rank; c < a_limbs / 2; c += 32 * W) copy_async(a + 16 * c, args.a.element(p) + 2 * c);
        if (with_b_limbs)
            for (int c = rank; c < b_limbs / 2; c += 32 * W) copy_async(b + 16 * c, args.b.element(q) + 2 * c);
        if (rank == 0) {
            copy_async<4>(sizes + 2 * buffer, args.a.sizes + p);
            copy_async<4>(sizes + 2 * buffer + 1, args.b.sizes + q);
        }
        commit_copies();
    };
    for (int k = rank; k < space.table / 16; k += 32 * W) reinterpret_cast<uint4*>(slot)[k] = make_uint4(0, 0, 0, 0);
    sync_product<W>();  // the margins are zero before any copy lands between them
    fetch(i, 0, true);
    bool table_built = false;

    const int tiles = output_tiles(a_limbs, b_limbs, args.r.stride);
    const int T0 = (W == 1 ? 0 : warp) * U;
    uint4* table = reinterpret_cast<uint4*>(slot + space.table);
    std::uint32_t* sums = reinterpret_cast<std::uint32_t*>(slot + space.sums);
    for (int buffer = 0;; buffer ^= 1) {
        wait_for_copies();
        sync_product<W>();  // product i's operands are in; every thread is done with product i - stride
        const std::uint32_t* raw_b = reinterpret_cast<const std::uint32_t*>(slot + space.raw_b + buffer * space.raw_b_buffer + 8 * kRawBMarginLimbs);
        if (!table_built) build_table<32 * W>(raw_b, b_limbs, rank, table);
        table_built = args.broadcast_b;
        const std::size_t next = i + stride;
        if (next < args.a.count) fetch(next, buffer ^ 1, !args.broadcast_b);
        sync_product<W>();

        const std::int32_t size_a = sizes[2 * buffer], size_b = sizes[2 * buffer + 1];
        const Steps steps = T0 < tiles ? warp_steps(T0, min(T0 + U, tiles) - 1, 8 * abs(size_a), 8 * abs(size_b)) : Steps{1, 0};
        int acc[U][4] = {};
        if (steps.first <= steps.last)
            multiply_tiles<U>(slot + buffer * space.a_buffer + space.a_margin, reinterpret_cast<const uint2*>(table) - kTableFirstY, T0,
                              steps.first, steps.last - steps.first + 1, acc);
        sync_product<W>();  // the sums may take the table's place
        {
            // Tile T0 + u's sums lie 128 u words above tile T0's (sum_word permutes within rows).
            const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
            int words[4];
#pragma unroll
            for (int reg = 0; reg < 4; ++reg) words[reg] = sum_word(column(T0, g, t, reg));
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (T0 + u >= tiles) continue;
#pragma unroll
                for (int reg = 0; reg < 4; ++reg) sums[words[reg] + kTileColumns * u] = std::uint32_t(acc[u][reg]);
            }
        }
        sync_product<W>();
        store_product<kLimbsPerThread>(group, sums, tiles * 16, sizes[2 * buffer], sizes[2 * buffer + 1], args.r, i);
        if (next >= args.a.count) break;
        i = next;
    }
}

template <int W, int U>
void launch(const TensorArgs& args, cudaStream_t stream)
{
    if (args.a.count == 0) return;
    const ProductSpace space = product_space(args.a.stride, args.b.stride, args.r.stride, U, args.broadcast_b);
    constexpr int kSlotsPerBlock = W == 1 ? kProductsPerBlockOfOneWarp : 1;
    const int threads = kThreadsPerBlock<W, U>;
    const std::size_t bytes = std::size_t(kSlotsPerBlock) * space.bytes;
    // The kernel may take all the shared memory a block can have (the same value from every call
    // and host thread, so no call lowers it under another's launch); as many blocks as run at
    // once, each going on to further products as it finishes one.
    int device = 0, multiprocessors = 0, per_multiprocessor = 0, block_limit = 0;
    cudaFuncAttributes attributes{};
    constexpr const char* setup = "mul tensor kernel setup";
    check(cudaGetDevice(&device), setup);
    check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device), setup);
    check(cudaDeviceGetAttribute(&block_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), setup);
    check(cudaFuncGetAttributes(&attributes, mul_tensor_kernel<W, U>), setup);
    const int dynamic_limit = block_limit - int(attributes.sharedSizeBytes);
    if (bytes > std::size_t(dynamic_limit))
        throw Error("mul_tensor: " + std::to_string(bytes) + " bytes of shared memory a block, the device has " + std::to_string(dynamic_limit));
    check(cudaFuncSetAttribute(mul_tensor_kernel<W, U>, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_limit), setup);
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, mul_tensor_kernel<W, U>, threads, bytes), setup);
    const std::size_t needed = (args.a.count + kSlotsPerBlock - 1) / kSlotsPerBlock;
    const std::size_t blocks = std::min<std::size_t>(needed, std::size_t(std::max(1, per_multiprocessor)) * multiprocessors);
    mul_tensor_kernel<W, U><<<unsigned(blocks), threads, bytes, stream>>>(args, space);
    check_launch("mul tensor kernel launch");
}

}  // namespace

bool mul_tensor_applies(ConstBatchView a, ConstBatchView b)
{
    // Size classes from 8 limbs are even: operands go in 16-byte copies.
    return std::min(a.stride, b.stride) >= kMulTensorMinLimbs && std::max(a.stride, b.stride) <= kMulTensorMaxLimbs &&
           a.stride % 2 == 0 && b.stride % 2 == 0;
}

// The shape by the number of output tiles (16 limbs each), measured on an H200: one warp a
// product for up to four tiles; then blocks of W warps, four tiles each (up to 64 tiles: 32768-bit
// operands). Fewer tiles a warp ran slower at every size (2048 bits: two warps of two tiles 23 %;
// 4096: four warps of two 23 %, 8192: eight of two 26 %), eight tiles a warp at 32768 bits 26 %
// slower (120 to 138 registers halve the warps in flight).
void mul_tensor(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const TensorArgs args{a, b, r, broadcast_b};
    const int tiles = output_tiles(a.stride, b.stride, r.stride);
    if (tiles <= 2) return launch<1, 2>(args, stream);
    if (tiles <= 4) return launch<1, 4>(args, stream);
    switch (std::bit_ceil(unsigned(tiles + 3) / 4)) {
    case 2: return launch<2, 4>(args, stream);
    case 4: return launch<4, 4>(args, stream);
    case 8: return launch<8, 4>(args, stream);
    default: return launch<16, 4>(args, stream);
    }
}

}  // namespace zgpu::kernels
