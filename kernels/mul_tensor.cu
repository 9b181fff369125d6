// Batched signed multiplication on the tensor cores: byte digits through mma.m16n8k32 with
// unsigned 8-bit operands and 32-bit column sums (which bytes go where, and why the sums are
// exact: mul_tensor_layout.hpp).
//
// W warps work on one product (one block; with W = 1, a warp a product and four a block). A warp
// owns U consecutive output tiles and runs the union of their steps: per step it loads two new
// words of a (the other A registers of its tiles are still in a window of registers from earlier
// steps) and the two B words, and issues one mma for each of its tiles whose own steps include
// this one. The operands wait in shared memory: a as bytes with zero margins, b as its table of
// descending words. After the last step the column sums take their place, and the group turns
// them into limbs: each thread takes L limbs, v_l = sum_c sums[8 l + c] 256^c (below 2^88), adds
// the part of the limb below that lies above 2^64 into its own, and carries across the group.
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
constexpr int kLimbsPerThread = 2;  // of the carry pass: a group of 32 W threads covers the 16 limbs of 4 W tiles
constexpr int kTilesPerWarp = 4;

constexpr int kTableExtraLimbs = 10;  // the table's limbs l run from -5 to b limbs + 4

struct TensorArgs {
    ConstBatchView a, b;
    BatchView r;
    bool broadcast_b;
};

// Shared memory of one product, in bytes: a at a_margin, zeros around it (mul_tensor_layout.hpp);
// the b table from b_table; the column sums from 0 once those are done.
struct ProductSpace {
    int a_margin, b_table, bytes;
};

ProductSpace product_space(std::uint32_t a_limbs, std::uint32_t b_limbs, int tiles_per_warp)
{
    const int a_margin = a_margin_bytes(tiles_per_warp);
    const int b_table = 2 * a_margin + 8 * int(a_limbs);
    const int operands = b_table + 4 * 8 * (int(b_limbs) + kTableExtraLimbs);
    const int sums = 4 * kTileColumns * int((a_limbs + b_limbs + 15) / 16);
    return {a_margin, b_table, (std::max(operands, sums) + 15) / 16 * 16};
}

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

// The steps of U tiles from T0: `steps` of them from m = first, each tile's mma only within its
// own steps. Word e of a (a_word_index) is kept in register slot e mod 8U: a step uses 8U - 2
// consecutive words and loads the two the next one adds into the two slots it does not use.
template <int U>
__device__ void multiply_tiles(const unsigned char* a, const std::uint32_t* b_table, int T0, int first, int steps,
                               const Steps (&own)[U], int (&acc)[U][4])
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
            const int s = block * kBlockSteps + k;
            if (s >= steps) break;  // the same in every lane
            window[slot(-2 * k - 3)] = a_words[4 * (-2 * k - 3)];
            window[slot(-2 * k - 2)] = a_words[4 * (-2 * k - 2)];
            const std::uint32_t b0 = b_words[kStepBytes * k], b1 = b_words[kStepBytes * k + 16];
            const int m = first + s;
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (m < own[u].first || m > own[u].last) continue;
                mma_u8(acc[u], window[slot(8 * u - 2 * k)], window[slot(8 * u - 2 * k + 4)], window[slot(8 * u - 2 * k - 1)],
                       window[slot(8 * u - 2 * k + 3)], b0, b1);
            }
        }
        a_words -= 4 * 2 * kBlockSteps;
        b_words += kStepBytes * kBlockSteps;
    }
}

// The limb l of the product from its column sums, as low 64 bits and the rest (below 2^25).
__device__ __forceinline__ void limb_from_sums(const std::uint32_t* sums, int l, int limbs, limb_t& low, limb_t& high)
{
    low = high = 0;
    if (l < 0 || l >= limbs) return;
    const uint4 x = *reinterpret_cast<const uint4*>(sums + 8 * l), y = *reinterpret_cast<const uint4*>(sums + 8 * l + 4);
    // Each half is below 2^31 (1 + 2^8 + 2^16 + 2^24) < 2^56.
    const limb_t first = limb_t(x.x) + (limb_t(x.y) << 8) + (limb_t(x.z) << 16) + (limb_t(x.w) << 24);
    const limb_t second = limb_t(y.x) + (limb_t(y.y) << 8) + (limb_t(y.z) << 16) + (limb_t(y.w) << 24);
    low = first + (second << 32);
    high = (second >> 32) + (low < first);
}

template <int W, int U>
__global__ void __launch_bounds__(W == 1 ? 32 * kProductsPerBlockOfOneWarp : 32 * W)
    mul_tensor_kernel(const TensorArgs args, const ProductSpace space)
{
    using Group = ThreadGroup<32 * W>;
    __shared__ typename Group::Shared group_shared;
    extern __shared__ __align__(16) unsigned char shared[];
    const Group group(group_shared);
    const int warp = threadIdx.x / 32, rank = group.rank();
    const std::size_t i = W == 1 ? std::size_t(blockIdx.x) * kProductsPerBlockOfOneWarp + warp : blockIdx.x;
    if (i >= args.a.count) return;  // a whole warp with W = 1, which shares no collective with other warps

    unsigned char* space_of_product = shared + (W == 1 ? warp * space.bytes : 0);
    const std::size_t bi = args.broadcast_b ? 0 : i;
    const std::int32_t size_a = args.a.sizes[i], size_b = args.b.sizes[bi];
    const limb_t* a = args.a.element(i);
    const limb_t* b = args.b.element(bi);
    const int a_limbs = int(args.a.stride), b_limbs = int(args.b.stride);

    // a with its zero margins; the b table (entry x - kTableFirstX holds b_x, .., b_(x-3)).
    limb_t* a_staged = reinterpret_cast<limb_t*>(space_of_product);
    const int margin_limbs = space.a_margin / 8;
    for (int l = rank; l < 2 * margin_limbs + a_limbs; l += 32 * W) {
        const int k = l - margin_limbs;
        a_staged[l] = k >= 0 && k < a_limbs ? __ldg(a + k) : 0;
    }
    std::uint32_t* table = reinterpret_cast<std::uint32_t*>(space_of_product + space.b_table);
    for (int q = rank; q < b_limbs + kTableExtraLimbs; q += 32 * W) {
        const int l = q + (kTableFirstX - 3) / 8;  // entries x = 8 l + 3 + o come from limbs l and l + 1
        const limb_t low = l >= 0 && l < b_limbs ? __ldg(b + l) : 0;
        const limb_t high = l + 1 >= 0 && l + 1 < b_limbs ? __ldg(b + l + 1) : 0;
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
    sync_product<W>();

    const int tiles = (a_limbs + b_limbs + 15) / 16;
    const int T0 = (W == 1 ? 0 : warp) * U;
    const int a_bytes = 8 * abs(size_a), b_bytes = 8 * abs(size_b);
    Steps own[U];
    int first = INT_MAX, last = INT_MIN;
#pragma unroll
    for (int u = 0; u < U; ++u) {
        own[u] = T0 + u < tiles ? steps_of_tile(T0 + u, a_bytes, b_bytes) : Steps{1, 0};
        if (own[u].first <= own[u].last) {
            first = min(first, own[u].first);
            last = max(last, own[u].last);
        }
    }
    int acc[U][4] = {};
    if (first <= last)
        multiply_tiles<U>(space_of_product + space.a_margin, table - kTableFirstX, T0, first, last - first + 1, own, acc);
    sync_product<W>();  // every warp is done with the operands: the sums may overwrite them

    std::uint32_t* sums = reinterpret_cast<std::uint32_t*>(space_of_product);
    {
        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
        for (int u = 0; u < U; ++u) {
            if (T0 + u >= tiles) continue;
            *reinterpret_cast<uint2*>(sums + column(T0 + u, g, t, 0)) = make_uint2(acc[u][0], acc[u][1]);
            *reinterpret_cast<uint2*>(sums + column(T0 + u, g, t, 2)) = make_uint2(acc[u][2], acc[u][3]);
        }
    }
    sync_product<W>();

    constexpr int L = kLimbsPerThread;
    const int first_limb = rank * L, limbs = tiles * 16;
    limb_t low[L], shifted[L], high;
    limb_from_sums(sums, first_limb - 1, limbs, low[0], high);
    shifted[0] = high;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        limb_from_sums(sums, first_limb + j, limbs, low[j], high);
        if (j + 1 < L) shifted[j + 1] = high;
    }
    add_columns(group, low, shifted);  // the product fits its limbs: no carry leaves the top

    std::uint32_t used = 0;
#pragma unroll
    for (int j = 0; j < L; ++j)
        if (low[j] != 0) used = first_limb + j + 1;
    used = group.max(used);
    limb_t* out = args.r.element(i);
    store_limbs(out, args.r.stride, first_limb, low);
    for (std::uint32_t k = 32 * W * L + rank; k < args.r.stride; k += 32 * W) out[k] = 0;  // padding above
    if (rank == 0) args.r.sizes[i] = (size_a < 0) != (size_b < 0) ? -std::int32_t(used) : std::int32_t(used);
}

template <int W, int U>
void launch(const TensorArgs& args, cudaStream_t stream)
{
    const ProductSpace space = product_space(args.a.stride, args.b.stride, U);
    const std::size_t per_block = W == 1 ? kProductsPerBlockOfOneWarp : 1;
    const std::size_t blocks = (args.a.count + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("mul: batch of " + std::to_string(args.a.count) + " elements exceeds one launch");
    const std::size_t bytes = per_block * space.bytes;
    if (bytes > 48 * 1024) throw Error("mul_tensor: " + std::to_string(bytes) + " bytes of shared memory a block");
    mul_tensor_kernel<W, U><<<unsigned(blocks), 32 * W * int(per_block), bytes, stream>>>(args, space);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("mul tensor kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace

bool mul_tensor_applies(ConstBatchView a, ConstBatchView b)
{
    return std::min(a.stride, b.stride) >= kMulTensorMinLimbs && std::max(a.stride, b.stride) <= kMulTensorMaxLimbs;
}

// The shape by the number of output tiles (16 limbs each): one warp a product for up to four
// tiles, then a block of W warps, four tiles each.
void mul_tensor(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const TensorArgs args{a, b, r, broadcast_b};
    const std::uint32_t tiles = (a.stride + b.stride + 15) / 16;
    if (tiles <= 2) return launch<1, 2>(args, stream);
    if (tiles <= 4) return launch<1, kTilesPerWarp>(args, stream);
    switch (std::bit_ceil((tiles + kTilesPerWarp - 1) / kTilesPerWarp)) {
    case 2: return launch<2, kTilesPerWarp>(args, stream);
    case 4: return launch<4, kTilesPerWarp>(args, stream);
    case 8: return launch<8, kTilesPerWarp>(args, stream);
    default: return launch<16, kTilesPerWarp>(args, stream);
    }
}

}  // namespace zgpu::kernels
