// Batched polynomial products modulo 64-bit primes by the NTT (contract: poly_mul.hpp).
//
// A product modulo one prime is a cyclic convolution of length N >= la + lb - 1, so nothing
// wraps: forward transforms of both operands (decimation in frequency, natural order in,
// bit-reversed out), the pointwise product times N^-1, the inverse transform (decimation in
// time, bit-reversed in, natural out); no bit reversal is ever done. The butterflies are
// ntt_stages.cuh's on Field64's lazy residues, the twiddles with Shoup's companions.
// Up to kTile coefficients a transform lives in shared memory: one kernel reads both operands
// (reducing them on the way), transforms, multiplies and transforms back, the last forward and
// the first inverse three stages fused in registers (their products by 1 skipped), and writes
// the product; a block takes
// kTile / N short transforms of one prime. Longer transforms first run their stages above the
// tile in passes of up to four over device memory (outer_pass: a thread a group of 16 elements
// 2^s apart, a warp's loads coalesced), then the tile kernel on each piece of kTile words,
// then the inverse passes, the last of which writes the product.
// Cost: 3 transforms (2 for a square) of (N/2) log2 N butterflies, each one product by a twiddle
// (three 64-bit multiplications: about 10 IMADs), plus two Montgomery products a coefficient for
// the pointwise step.
#include "kernels/poly/poly_mul.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "kernels/ntt/ntt_stages.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kLogTile = 11;
constexpr std::uint32_t kTile = 1u << kLogTile;  // words of a tile: 16 KiB of shared memory an operand
constexpr int kTileThreads = kTile / 16;         // a group of 16 words a thread
constexpr int kOuterThreads = 256;
constexpr std::size_t kWorkspaceWords = std::size_t(1) << 26;  // spectra of one chunk of long transforms
constexpr std::uint32_t kMaxTilesPerBlock = kTile / kPolyNttMinLength;
// Stages of the pass that holds a group in registers from the last forward stage to the first
// inverse one. 3 (groups of 8) takes 96 registers a thread against 120 for 4, at the same speed
// (H200, bench/NOTES-poly.md).
constexpr int kFusedStages = 3;

// Shared-memory tiles of 64-bit words: one padding word every 16 (32 banks), so that the
// strided groups of a pass fall into different banks.
__device__ inline std::uint32_t padded64(std::uint32_t i) { return i + (i >> 4); }
constexpr std::uint32_t padded64_words(std::uint32_t n) { return n + n / 16; }

// What one call computes.
struct Plan {
    ConstPolyBatchView a, b;
    PolyBatchView out;
    PolyNttTablesView tables;
    std::size_t products;
    std::uint32_t length;
    int log_length;
    bool square;
};

// How many coefficients of operand x of product j the transform reads: the result's length
// bounds what matters (mullow).
__device__ inline std::uint32_t read_length(const ConstPolyBatchView& x, const Plan& plan, std::size_t j)
{
    return min(x.length(j), plan.out.length(j));
}

// N^-1 R^2 mod p: the pointwise product x y / R times it is x y / N. N divides p - 1, so
// N^-1 = p - (p - 1) / N.
__device__ inline limb_t pointwise_scale(const Field64& f, int log_length)
{
    const limb_t inverse = f.p - ((f.p - 1) >> log_length);
    return f.normal(f.mul(f.normal(f.mul(inverse, f.r2)), f.r2));
}

// Stages s_lo .. s_lo + K - 1 of the long transforms of a chunk, over device memory: forward
// (from the operands on the first pass) or inverse (to the products on the last).
struct OuterArgs {
    Plan plan;
    limb_t* spectra;  // [operand][chunk transform][length]
    std::size_t chunk_first, chunk_transforms;
    int operand;  // 1: b
    int s_lo;
    bool from_operand, to_product;
};

template <bool Forward, int K>
__global__ void __launch_bounds__(kOuterThreads) outer_pass(const OuterArgs args)
{
    const Plan& plan = args.plan;
    const std::uint32_t groups = plan.length >> K;
    const std::size_t thread = std::size_t(blockIdx.x) * kOuterThreads + threadIdx.x;
    const std::size_t c = thread / groups;
    if (c >= args.chunk_transforms) return;
    const std::size_t t = args.chunk_first + c, prime = t / plan.products, j = t % plan.products;
    const Field64 f = plan.tables.fields[prime];
    const std::uint32_t base = group_base(std::uint32_t(thread % groups), args.s_lo, K);
    limb_t* spectrum = args.spectra + (args.operand * args.chunk_transforms + c) * plan.length;
    limb_t v[1 << K];
    if (args.from_operand) {
        const ConstPolyBatchView& x = args.operand ? plan.b : plan.a;
        const limb_t* source = x.values.prime(prime) + x.offset(j);
        const std::uint32_t limit = read_length(x, plan, j);
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) {
            const std::uint32_t i = base + (m << args.s_lo);
            v[m] = i < limit ? f.reduce_word(source[i]) : 0;
        }
    } else {
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) v[m] = spectrum[base + (m << args.s_lo)];
    }
    butterflies<Forward, K>(v, base, args.s_lo,
                            Forward ? plan.tables.forward_table(prime) : plan.tables.inverse_table(prime), f);
    if (args.to_product) {
        limb_t* product = plan.out.values.prime(prime) + plan.out.offset(j);
        const std::uint32_t limit = plan.out.length(j);
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) {
            const std::uint32_t i = base + (m << args.s_lo);
            if (i < limit) product[i] = f.normal(v[m]);
        }
    } else {
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) spectrum[base + (m << args.s_lo)] = v[m];
    }
}

struct TileArgs {
    Plan plan;
    bool outer;          // long transforms: a block is one kTile piece whose top stages have run
    limb_t* spectra;     // outer: as OuterArgs's
    std::size_t chunk_first, chunk_transforms;
    std::size_t blocks_per_prime;  // short transforms: blocks of kTile / N products a prime
};

// Where a short transform's words come from and go: per tile of the block, for a and b.
struct TileSlots {
    const limb_t* source[2][kMaxTilesPerBlock];
    std::uint32_t limit[2][kMaxTilesPerBlock];
    limb_t* product[kMaxTilesPerBlock];
    std::uint32_t product_length[kMaxTilesPerBlock];
};

// The tile's stages: the forward ones below the tile's top (all of a short transform's), the
// pointwise product and the inverse ones up to the tile's top. Tiles 0 .. tiles - 1 are a's, the
// next `tiles` b's, one after another in shared memory.
// Six blocks an SM (80 registers a thread, a few spilled): 24 warps hide the products' latency
// better than the 20 of five blocks (the batch of 10^4 products of length 1024: 2.60 against
// 2.78 ms on the H200).
__global__ void __launch_bounds__(kTileThreads, 6) tile_stages(const TileArgs args)
{
    extern __shared__ limb_t smem[];
    __shared__ TileSlots slots;
    const Plan& plan = args.plan;
    const int log_tile = args.outer ? kLogTile : plan.log_length;
    const std::uint32_t tile_length = 1u << log_tile;
    const int operands = plan.square ? 1 : 2;

    std::size_t prime, first_product = 0;
    int tiles = 1;
    limb_t* spectrum = nullptr;  // outer: a's piece; b's is chunk_transforms * length further
    if (args.outer) {
        const std::uint32_t pieces = plan.length / kTile;
        const std::size_t c = blockIdx.x / pieces, t = args.chunk_first + c;
        prime = t / plan.products;
        spectrum = args.spectra + c * plan.length + (blockIdx.x % pieces) * kTile;
    } else {
        prime = blockIdx.x / args.blocks_per_prime;
        tiles = kTile / plan.length;
        first_product = (blockIdx.x % args.blocks_per_prime) * tiles;
        for (int q = threadIdx.x; q < tiles; q += blockDim.x) {
            const std::size_t j = first_product + q;
            const bool present = j < plan.products;
            for (int operand = 0; operand < 2; ++operand) {
                const ConstPolyBatchView& x = operand ? plan.b : plan.a;
                slots.source[operand][q] = present ? x.values.prime(prime) + x.offset(j) : nullptr;
                slots.limit[operand][q] = present ? read_length(x, plan, j) : 0;
            }
            slots.product[q] = present ? plan.out.values.prime(prime) + plan.out.offset(j) : nullptr;
            slots.product_length[q] = present ? plan.out.length(j) : 0;
        }
        __syncthreads();
    }
    const Field64 f = plan.tables.fields[prime];
    const Twiddle64 *forward = plan.tables.forward_table(prime), *inverse = plan.tables.inverse_table(prime);
    const std::size_t b_spectrum = args.chunk_transforms * plan.length;
    const std::uint32_t b_tiles = tiles * tile_length;  // flat index of b's first word

    const auto input = [&](int tile, std::uint32_t i) -> limb_t {
        const int operand = tile >= tiles, q = tile - operand * tiles;
        if (args.outer) return spectrum[operand * b_spectrum + i];
        return i < slots.limit[operand][q] ? f.reduce_word(slots.source[operand][q][i]) : 0;
    };
    const auto from_smem = [&](int tile, std::uint32_t i) { return smem[padded64(tile * tile_length + i)]; };
    const auto to_smem = [&](int tile, std::uint32_t i, limb_t v) { smem[padded64(tile * tile_length + i)] = v; };
    const auto output = [&](int tile, std::uint32_t i, limb_t v) {
        if (args.outer) spectrum[i] = v;
        else if (i < slots.product_length[tile]) slots.product[tile][i] = f.normal(v);
    };

    // Forward: the stages above the fused ones, the top pass taking what is not a multiple of 4.
    const int above = log_tile - kFusedStages, first_k = above % 4 ? above % 4 : 4;
    if (above > 0) group_pass<true>(first_k, operands * tiles, log_tile, above - first_k + kFusedStages, forward, f, input, to_smem);
    for (int s_lo = above - first_k - 4 + kFusedStages; s_lo >= kFusedStages; s_lo -= 4)
        group_pass<true, 4>(operands * tiles, log_tile, s_lo, forward, f, from_smem, to_smem);

    // The fused pass: the bottom stages forward on both, pointwise product, the same inverse.
    constexpr int kGroup = 1 << kFusedStages;
    const limb_t scale = pointwise_scale(f, plan.log_length);
    for (std::uint32_t g = threadIdx.x; g < std::uint32_t(tiles) * tile_length / kGroup; g += blockDim.x) {
        const std::uint32_t flat = kGroup * g;
        limb_t u[kGroup], v[kGroup];
#pragma unroll
        for (int m = 0; m < kGroup; ++m) {
            u[m] = smem[padded64(flat + m)];
            v[m] = plan.square ? 0 : smem[padded64(b_tiles + flat + m)];
        }
        if (!plan.square) bottom_butterflies<true, kFusedStages>(v, forward, f);
        bottom_butterflies<true, kFusedStages>(u, forward, f);
#pragma unroll
        for (int m = 0; m < kGroup; ++m) u[m] = f.mul(f.mul(u[m], plan.square ? u[m] : v[m]), scale);
        bottom_butterflies<false, kFusedStages>(u, inverse, f);
#pragma unroll
        for (int m = 0; m < kGroup; ++m) smem[padded64(flat + m)] = u[m];
    }
    __syncthreads();
    // Inverse: passes of 4 up to the tile's top, the last one what is left.
    for (int s_lo = kFusedStages; s_lo < log_tile;) {
        const int k = min(4, log_tile - s_lo);
        if (s_lo + k == log_tile) group_pass<false>(k, tiles, log_tile, s_lo, inverse, f, from_smem, output);
        else group_pass<false>(k, tiles, log_tile, s_lo, inverse, f, from_smem, to_smem);
        s_lo += k;
    }
}

unsigned blocks_for(std::size_t blocks)
{
    if (blocks > 0x7fffffffu) throw Error("polynomial products (NTT): " + std::to_string(blocks) + " blocks exceed one launch");
    return unsigned(blocks);
}

template <bool Forward>
void launch_outer(int K, const OuterArgs& args, cudaStream_t stream)
{
    const unsigned grid = blocks_for(args.chunk_transforms * (args.plan.length >> K) / kOuterThreads);
    switch (K) {
    case 1: outer_pass<Forward, 1><<<grid, kOuterThreads, 0, stream>>>(args); break;
    case 2: outer_pass<Forward, 2><<<grid, kOuterThreads, 0, stream>>>(args); break;
    case 3: outer_pass<Forward, 3><<<grid, kOuterThreads, 0, stream>>>(args); break;
    default: outer_pass<Forward, 4><<<grid, kOuterThreads, 0, stream>>>(args); break;
    }
    check_launch(Forward ? "polynomial products (NTT): forward stages launch" : "polynomial products (NTT): inverse stages launch");
}

}  // namespace

std::uint32_t poly_ntt_length(std::uint64_t a_length, std::uint64_t b_length)
{
    const std::uint64_t coefficients = a_length && b_length ? a_length + b_length - 1 : 0;
    if (coefficients > (std::uint64_t(1) << 31)) throw Error("polynomial products (NTT): " + std::to_string(coefficients) + " coefficients exceed 2^31");
    return std::max(kPolyNttMinLength, std::uint32_t(std::bit_ceil(coefficients)));
}

void poly_mul(ConstPolyBatchView a, ConstPolyBatchView b, bool square, std::size_t products, std::uint32_t length,
              const PolyNttTablesView& tables, PolyBatchView out, cudaStream_t stream)
{
    if (products == 0 || tables.primes == 0) return;
    if (!std::has_single_bit(length) || length < kPolyNttMinLength || length > tables.length)
        throw Error("polynomial products (NTT): transform length " + std::to_string(length) + " is not a power of two from " +
                    std::to_string(kPolyNttMinLength) + " to the tables' " + std::to_string(tables.length));
    const Plan plan{a, square ? a : b, out, tables, products, length, std::countr_zero(length), square};
    const int operands = square ? 1 : 2;
    const std::size_t tile_smem = operands * padded64_words(kTile) * sizeof(limb_t);

    if (length <= kTile) {
        TileArgs args{plan, false, nullptr, 0, 0, 0};
        const std::size_t per_block = kTile / length;
        args.blocks_per_prime = (products + per_block - 1) / per_block;
        tile_stages<<<blocks_for(tables.primes * args.blocks_per_prime), kTileThreads, tile_smem, stream>>>(args);
        check_launch("polynomial products (NTT): tile stages launch");
        return;
    }

    const std::size_t transforms = tables.primes * products;
    const std::size_t chunk = std::min(transforms, std::max<std::size_t>(1, kWorkspaceWords / (operands * std::size_t(length))));
    StreamMemory spectra(chunk * operands * length * sizeof(limb_t), stream);
    const int log_length = plan.log_length, outer_stages = log_length - kLogTile;
    for (std::size_t first = 0; first < transforms; first += chunk) {
        OuterArgs outer{plan, static_cast<limb_t*>(spectra.data()), first, std::min(chunk, transforms - first), 0, 0, false, false};
        for (int operand = 0; operand < operands; ++operand) {
            outer.operand = operand;
            const int first_k = outer_stages % 4 ? outer_stages % 4 : 4;
            outer.from_operand = true;
            for (int s_lo = log_length - first_k, k = first_k; s_lo >= kLogTile; s_lo -= 4, k = 4) {
                outer.s_lo = s_lo;
                launch_outer<true>(k, outer, stream);
                outer.from_operand = false;
            }
        }
        const TileArgs tile{plan, true, outer.spectra, first, outer.chunk_transforms, 0};
        tile_stages<<<blocks_for(outer.chunk_transforms * (length / kTile)), kTileThreads, tile_smem, stream>>>(tile);
        check_launch("polynomial products (NTT): tile stages launch");
        outer.operand = 0;
        for (int s_lo = kLogTile; s_lo < log_length;) {
            const int k = std::min(4, log_length - s_lo);
            outer.s_lo = s_lo;
            outer.to_product = s_lo + k == log_length;
            launch_outer<false>(k, outer, stream);
            s_lo += k;
        }
    }
}

}  // namespace zgpu::kernels
