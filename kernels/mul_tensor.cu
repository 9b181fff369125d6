// Batched signed multiplication on the tensor cores: byte digits through mma.m16n8k32 with
// unsigned 8-bit operands and 32-bit column sums (which bytes go where, and why the sums are
// exact: mul_tensor_layout.hpp).
//
// W warps work on one product (one block; with W = 1, a warp a product and four a block). A warp
// owns U consecutive output tiles and runs the union of their steps: per step it loads two new
// words of a (the other A registers of its tiles are still in a window of registers from earlier
// steps) and the two B words, and issues one mma for each of its tiles (fewer instructions than
// testing which tiles need the step: a step outside a tile's own multiplies zeros). The operands
// wait in shared memory: a as bytes with zero margins, b as its table of descending words. The
// column sums go to shared memory too, and the group turns them into
// limbs: each thread takes L limbs, v_l = sum_c s_(8 l + c) 256^c (below 2^88), adds the part
// of the limb below that lies above 2^64 into its own, and carries across the group. Blocks stay
// for further products, and the next product's operands are copied in while one is multiplied.
#include "mul_tensor.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <string>

#include "add_columns.cuh"
#include "limb_access.cuh"
#include "mul_tensor_layout.hpp"
#include "thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

using namespace tensor_layout;

constexpr int kProductsPerBlockOfOneWarp = 4;

// Limbs a thread of the carry pass takes: the 32 W threads of a product cover the 16 U W limbs of
// its tiles (two at least: limbs go in pairs).
template <int U>
constexpr int kLimbsPerThread = U < 4 ? 2 : U / 2;

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

// Shared memory of one product slot, in bytes: two buffers of a (at a_margin inside each, zeros
// around it: mul_tensor_layout.hpp) and of b as it is in memory, so that the next product's
// operands arrive while this one's are in use; the b table; the column sums.
struct ProductSpace {
    int a_margin, a_buffer, raw_b, table, sums, bytes;
};

ProductSpace product_space(std::uint32_t a_limbs, std::uint32_t b_limbs, std::uint32_t r_limbs, int tiles_per_warp)
{
    ProductSpace s{};
    s.a_margin = a_margin_bytes(tiles_per_warp);
    s.a_buffer = 2 * s.a_margin + 8 * int(a_limbs);
    s.raw_b = 2 * s.a_buffer;
    s.table = s.raw_b + 2 * 8 * int(b_limbs);
    s.sums = s.table + 4 * 8 * table_groups(int(b_limbs));
    s.bytes = s.sums + 4 * kTileColumns * output_tiles(a_limbs, b_limbs, r_limbs);  // 8 bytes for 2 columns
    return s;
}

// Asynchronous copies of 16 bytes from global to shared memory (cp.async, not through registers).
__device__ __forceinline__ void copy_async(void* shared_destination, const void* global_source)
{
    const unsigned destination = unsigned(__cvta_generic_to_shared(shared_destination));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(destination), "l"(global_source) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_for_copies() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

__device__ __forceinline__ void mma_u8(int (&d)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2, std::uint32_t a3,
                                       std::uint32_t b0, std::uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

template <int W>
__device__ __forceinline__ void sync_product()
{
    if constexpr (W == 1) __syncwarp();
    else __syncthreads();
}

// The steps of U tiles from T0: `steps` of them from m = first, every tile at every step (a step
// outside a tile's own multiplies zeros: the margins and the table hold them). Word e of a
// (a_word_index) is kept in register slot e mod 8U: a step uses 8U - 2 consecutive words and loads
// the two the next one adds into the two slots it does not use.
template <int U>
__device__ void multiply_tiles(const unsigned char* a, const std::uint32_t* b_table, int T0, int first, int steps, int (&acc)[U][4])
{
    constexpr int kWindow = 8 * U, kBlockSteps = 4 * U;  // 4U steps move the window by 8U words: slots repeat
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    // Word e' relative to the first step's word 0 of tile T0 is a_words[4 e'].
    const std::uint32_t* a_words = reinterpret_cast<const std::uint32_t*>(a + a_word_offset(T0, first, g, t, 0));
    const std::uint32_t* b_words = b_table + b_word_x(first, g, t, 0);
    const auto slot = [](int e) { return (e % kWindow + kWindow) % kWindow; };
    std::uint32_t window[kWindow];
#pragma unroll
    for (int e = -1; e <= kWindow - 4; ++e) window[slot(e)] = a_words[4 * e];
    for (int block = 0; block * kBlockSteps < steps; ++block) {
#pragma unroll
        for (int k = 0; k < kBlockSteps; ++k) {
            if (block * kBlockSteps + k >= steps) break;  // the same in every lane
            window[slot(-2 * k - 3)] = a_words[4 * (-2 * k - 3)];
            window[slot(-2 * k - 2)] = a_words[4 * (-2 * k - 2)];
            const std::uint32_t b0 = b_words[kStepBytes * k], b1 = b_words[kStepBytes * k + 16];
#pragma unroll
            for (int u = 0; u < U; ++u)
                mma_u8(acc[u], window[slot(8 * u - 2 * k)], window[slot(8 * u - 2 * k + 4)], window[slot(8 * u - 2 * k - 1)],
                       window[slot(8 * u - 2 * k + 3)], b0, b1);
        }
        a_words -= 4 * 2 * kBlockSteps;
        b_words += kStepBytes * kBlockSteps;
    }
}

// The limb l of the product, as low 64 bits and the rest (below 2^25), from its four sums of two
// columns: sums[4 l + t] = s_(8 l + 2 t) + 2^8 s_(8 l + 2 t + 1), each below 2^40.
__device__ __forceinline__ void limb_from_sums(const std::uint64_t* sums, int l, int limbs, limb_t& low, limb_t& high)
{
    low = high = 0;
    if (l < 0 || l >= limbs) return;
    const ulonglong2 x = *reinterpret_cast<const ulonglong2*>(sums + 4 * l), y = *reinterpret_cast<const ulonglong2*>(sums + 4 * l + 2);
    const limb_t first = x.x + (x.y << 16), second = y.x + (y.y << 16);  // each below 2^57
    low = first + (second << 32);
    high = (second >> 32) + (low < first);
}

// r[i] from the column sums of its `limbs` limbs: thread `rank` takes L of them.
template <int L, int T>
__device__ void store_product(const ThreadGroup<T>& group, const std::uint64_t* sums, int limbs, std::int32_t size_a, std::int32_t size_b,
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

    std::uint32_t used = 0;
#pragma unroll
    for (int j = 0; j < L; ++j)
        if (low[j] != 0 && first_limb + j < int(r.stride)) used = first_limb + j + 1;
    used = group.max(used);
    limb_t* out = r.element(i);
    store_limbs(out, r.stride, first_limb, low);
    for (std::uint32_t k = T * L + group.rank(); k < r.stride; k += T) out[k] = 0;  // padding above
    if (group.rank() == 0) r.sizes[i] = (size_a < 0) != (size_b < 0) ? -std::int32_t(used) : std::int32_t(used);
}

// Table entries 8 q .. 8 q + 7 (x = 8 l + 3 + o with l = q - kTableLimbsBelow) from b's limbs l and l + 1.
__device__ __forceinline__ void build_table_entries(const limb_t* b, int b_limbs, int q, std::uint32_t* table)
{
    const int l = q - kTableLimbsBelow;
    const limb_t low = l >= 0 && l < b_limbs ? b[l] : 0, high = l + 1 >= 0 && l + 1 < b_limbs ? b[l + 1] : 0;
    const std::uint32_t words[4] = {std::uint32_t(low), std::uint32_t(low >> 32), std::uint32_t(high), std::uint32_t(high >> 32)};
    std::uint32_t entry[8];
#pragma unroll
    for (int o = 0; o < 8; ++o) {
        const int r = o % 4;  // bytes o + 3, o + 2, o + 1, o of the pair of words from o / 4
        entry[o] = __byte_perm(words[o / 4], words[o / 4 + 1], (r + 3) | (r + 2) << 4 | (r + 1) << 8 | r << 12);
    }
    uint4* out = reinterpret_cast<uint4*>(table + 8 * q);
    out[0] = make_uint4(entry[0], entry[1], entry[2], entry[3]);
    out[1] = make_uint4(entry[4], entry[5], entry[6], entry[7]);
}

template <int W, int U>
constexpr int kThreadsPerBlock = W == 1 ? 32 * kProductsPerBlockOfOneWarp : 32 * W;

// Blocks an SM asked of the compiler, which bounds the registers: 64 (32 warps in flight) where
// that does not spill, 85 for one warp a product of four tiles (64 spills there); eight tiles a
// warp need about 124.
template <int W, int U>
constexpr int kMinBlocksPerSm = U == 8 ? 1 : W == 1 && U == 4 ? 6 : 1024 / kThreadsPerBlock<W, U>;

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
    const auto b_index = [&](std::size_t p) { return args.broadcast_b ? 0 : p; };
    const auto fetch = [&](std::size_t p, int buffer) {
        unsigned char* a = slot + buffer * space.a_buffer + space.a_margin;
        unsigned char* b = slot + space.raw_b + buffer * 8 * b_limbs;
        for (int c = rank; c < a_limbs / 2; c += 32 * W) copy_async(a + 16 * c, args.a.element(p) + 2 * c);
        for (int c = rank; c < b_limbs / 2; c += 32 * W) copy_async(b + 16 * c, args.b.element(b_index(p)) + 2 * c);
        commit_copies();
    };
    for (int k = rank; k < 2 * space.a_buffer / 16; k += 32 * W) reinterpret_cast<uint4*>(slot)[k] = make_uint4(0, 0, 0, 0);
    sync_product<W>();  // the margins are zero before any copy lands between them
    fetch(i, 0);
    std::int32_t size_a = args.a.sizes[i], size_b = args.b.sizes[b_index(i)];

    const int tiles = output_tiles(a_limbs, b_limbs, args.r.stride);
    const int T0 = (W == 1 ? 0 : warp) * U;
    std::uint32_t* table = reinterpret_cast<std::uint32_t*>(slot + space.table);
    std::uint64_t* sums = reinterpret_cast<std::uint64_t*>(slot + space.sums);
    for (int buffer = 0;; buffer ^= 1) {
        wait_for_copies();
        sync_product<W>();  // product i's operands are in; every thread is done with product i - stride
        const limb_t* raw_b = reinterpret_cast<const limb_t*>(slot + space.raw_b + buffer * 8 * b_limbs);
        for (int q = rank; q < table_groups(b_limbs); q += 32 * W) build_table_entries(raw_b, b_limbs, q, table);
        const std::size_t next = i + stride;
        std::int32_t next_size_a = 0, next_size_b = 0;
        if (next < args.a.count) {
            fetch(next, buffer ^ 1);
            next_size_a = args.a.sizes[next];
            next_size_b = args.b.sizes[b_index(next)];
        }
        sync_product<W>();

        const int a_bytes = 8 * abs(size_a), b_bytes = 8 * abs(size_b);
        int first = INT_MAX, last = INT_MIN;
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const Steps own = T0 + u < tiles ? steps_of_tile(T0 + u, a_bytes, b_bytes) : Steps{1, 0};
            if (own.first <= own.last) {
                first = min(first, own.first);
                last = max(last, own.last);
            }
        }
        int acc[U][4] = {};
        if (first <= last) multiply_tiles<U>(slot + buffer * space.a_buffer + space.a_margin, table - kTableFirstX, T0, first, last - first + 1, acc);
        {
            // Columns 2t, 2t + 1 of rows g, g + 8: bytes 2t, 2t + 1 of limbs 16 T + g, 16 T + g + 8.
            const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (T0 + u >= tiles) continue;
                const int limb = 16 * (T0 + u) + g;
                sums[4 * limb + t] = std::uint64_t(std::uint32_t(acc[u][0])) + (std::uint64_t(std::uint32_t(acc[u][1])) << 8);
                sums[4 * (limb + 8) + t] = std::uint64_t(std::uint32_t(acc[u][2])) + (std::uint64_t(std::uint32_t(acc[u][3])) << 8);
            }
        }
        sync_product<W>();
        store_product<kLimbsPerThread<U>>(group, sums, tiles * 16, size_a, size_b, args.r, i);
        if (next >= args.a.count) break;
        i = next;
        size_a = next_size_a;
        size_b = next_size_b;
    }
}

template <int W, int U>
void launch(const TensorArgs& args, cudaStream_t stream)
{
    if (args.a.count == 0) return;
    const ProductSpace space = product_space(args.a.stride, args.b.stride, args.r.stride, U);
    constexpr int kSlotsPerBlock = W == 1 ? kProductsPerBlockOfOneWarp : 1;
    const int threads = kThreadsPerBlock<W, U>;
    const std::size_t bytes = std::size_t(kSlotsPerBlock) * space.bytes;
    // The kernel may take all the shared memory a block can have (the same value from every call
    // and host thread, so no call lowers it under another's launch); as many blocks as run at
    // once, each going on to further products as it finishes one.
    int device = 0, multiprocessors = 0, per_multiprocessor = 0, block_limit = 0;
    cudaFuncAttributes attributes{};
    const auto setup = [](cudaError_t e) {
        if (e != cudaSuccess) throw Error(std::string("mul tensor kernel setup: ") + cudaGetErrorString(e));
    };
    setup(cudaGetDevice(&device));
    setup(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    setup(cudaDeviceGetAttribute(&block_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    setup(cudaFuncGetAttributes(&attributes, mul_tensor_kernel<W, U>));
    const int dynamic_limit = block_limit - int(attributes.sharedSizeBytes);
    if (bytes > std::size_t(dynamic_limit))
        throw Error("mul_tensor: " + std::to_string(bytes) + " bytes of shared memory a block, the device has " + std::to_string(dynamic_limit));
    setup(cudaFuncSetAttribute(mul_tensor_kernel<W, U>, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_limit));
    setup(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, mul_tensor_kernel<W, U>, threads, bytes));
    const std::size_t needed = (args.a.count + kSlotsPerBlock - 1) / kSlotsPerBlock;
    const std::size_t blocks = std::min<std::size_t>(needed, std::size_t(std::max(1, per_multiprocessor)) * multiprocessors);
    mul_tensor_kernel<W, U><<<unsigned(blocks), threads, bytes, stream>>>(args, space);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("mul tensor kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace

bool mul_tensor_applies(ConstBatchView a, ConstBatchView b)
{
    // Size classes from 8 limbs are even: operands go in 16-byte copies.
    return std::min(a.stride, b.stride) >= kMulTensorMinLimbs && std::max(a.stride, b.stride) <= kMulTensorMaxLimbs &&
           a.stride % 2 == 0 && b.stride % 2 == 0;
}

// The shape by the number of output tiles (16 limbs each), measured on an H200: one warp a
// product for up to four tiles; then blocks of W warps, four tiles each, up to 32 tiles (16384-bit
// operands); beyond, eight tiles a warp. Eight tiles a warp issue a quarter fewer instructions a
// product but take 120 to 138 registers, which halves the warps in flight: at 4096 to 16384 bits
// they ran 5 to 12 % slower than four, at 32768 bits 13 % faster.
void mul_tensor(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const TensorArgs args{a, b, r, broadcast_b};
    const int tiles = output_tiles(a.stride, b.stride, r.stride);
    if (tiles <= 2) return launch<1, 2>(args, stream);
    if (tiles <= 4) return launch<1, 4>(args, stream);
    if (tiles > 32) return launch<8, 8>(args, stream);
    switch (std::bit_ceil(unsigned(tiles + 3) / 4)) {
    case 2: return launch<2, 4>(args, stream);
    case 4: return launch<4, 4>(args, stream);
    default: return launch<8, 4>(args, stream);
    }
}

}  // namespace zgpu::kernels
