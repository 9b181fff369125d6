// Batched polynomial products modulo 64-bit primes by the NTT (contract: poly_mul.hpp).
//
// A product modulo one prime is a cyclic convolution of length N >= la + lb - 1, so nothing
// wraps: forward transforms of both operands (decimation in frequency, natural order in,
// bit-reversed out), the pointwise product times N^-1, the inverse transform (decimation in
// time, bit-reversed in, natural out); no bit reversal is ever done. The butterflies are
// ntt_stages.cuh's on Field64's lazy residues, the twiddles with Shoup's companions.
// Up to kTile coefficients a transform lives in shared memory (ntt_tile.cuh): one kernel reads
// both operands (reducing them on the way), transforms, multiplies and transforms back, the last
// forward and the first inverse three stages fused in registers (their products by 1 skipped),
// and writes the product; a block takes kTile / N short transforms of one prime. Longer
// transforms first run their stages above the tile in one or more outer passes of up to eight
// stages over device memory (outer_pass: a block loads adjacent columns of up to 2^8 rows into
// shared memory, runs the stages there and writes them back), then the tile kernel on each piece
// of kTile words, then the inverse outer passes, the last of which writes the product. In shared
// memory a thread runs three stages at a time on a group of 8 words in registers.
// Cost: 3 transforms (2 for a square) of (N/2) log2 N butterflies, each one product by a twiddle
// (three 64-bit multiplications: about 10 IMADs), plus two Montgomery products a coefficient for
// the pointwise step.
// A composition f(a) runs the same frame as a square of a: its pointwise step evaluates f at each
// point of a's spectrum (HornerAtPoints), len(f) - 1 products by the point each; and so does a
// power a^e, its pointwise step each point's e-th power (PowerAtPoints).
#include "kernels/poly/poly_mul.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "kernels/modular/modulus.hpp"
#include "kernels/modular/shoup_product.hpp"
#include "kernels/ntt/ntt_tile.cuh"
#include "kernels/poly/product_slots.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kLogTile = 11;
constexpr std::uint32_t kTile = 1u << kLogTile;  // words of a tile: 16 KiB of shared memory an operand
constexpr int kTileThreads = kTile / 16;         // two groups of 8 words a thread an operand, each pass
constexpr std::size_t kWorkspaceWords = kPolyMulWorkspaceBytes / sizeof(limb_t);
constexpr std::uint32_t kMaxTilesPerBlock = kTile / kPolyNttMinLength;
// Stages a group of 8 words runs in registers, in the passes over shared memory. Groups of 16
// (four stages) ran the batch of 10^4 products of length 1024 in 2.60 ms on the H200, groups of
// 8 in 2.05: a pass's unrolled code is less than half as long (the old kernel's warps waited
// 42 % of the time for instruction fetch), and the kernel issued in 63 % of its slots, not 50.
constexpr int kPassStages = 3;
// Stages of the pass that holds a group in registers from the last forward stage to the first
// inverse one: with groups of 4 the batch above took 2.15 ms, with groups of 8 2.05.
constexpr int kFusedStages = 3;
// The outer passes: a block takes adjacent columns of the 2^stages rows, 1024 words (8 KiB of
// shared memory, eight a thread) where a pass has up to 6 stages: 16 columns of 2^6 rows, up to
// 512 of 2 rows. Passes of 7 and 8 stages take 16 columns (a row's words are one 128-byte line),
// 16 and 32 KiB.
constexpr int kOuterThreads = 128;
constexpr std::uint32_t kOuterWords = 1024;
constexpr std::uint32_t kMinColumns = 16;
constexpr int kMaxOuterStages = 8;

__host__ __device__ constexpr std::uint32_t outer_columns(int stages)
{
    return (kOuterWords >> stages) > kMinColumns ? kOuterWords >> stages : kMinColumns;
}

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
    std::uint64_t exponent = 0;  // a power's
};

// What the pointwise step between the transforms computes.
enum class Pointwise { product, composition, power };

// N^-1 mod p for N = 2^log_length: N divides p - 1, so N^-1 = p - (p - 1) / N.
__device__ inline limb_t inverse_length(const Field64& f, int log_length) { return f.p - ((f.p - 1) >> log_length); }

// N^-1 R^2 mod p: the pointwise product x y / R times it is x y / N.
__device__ inline limb_t pointwise_scale(const Field64& f, int log_length)
{
    return f.normal(f.mul(f.normal(f.mul(inverse_length(f, log_length), f.r2)), f.r2));
}

// Stages s_lo .. s_lo + stages - 1 (stages <= kMaxOuterStages) of the long transforms of a
// chunk, over device memory: forward (from the operands on the first pass) or inverse (to the
// products on the last).
struct OuterArgs {
    Plan plan;
    limb_t* spectra;  // [operand][chunk transform][length]
    std::size_t chunk_first, chunk_transforms;
    int operand;  // 1: b
    int s_lo, stages;
    bool from_operand, to_product;
};

// One pass of K stages over the block's rows: stages s_lo + level_lo .. + K - 1 of elements
// element(w), w = row * columns + column. A group is 2^K rows of one column.
template <bool Forward, int K, class Element>
__device__ void column_groups(limb_t* rows, std::uint32_t columns, int stages, int s_lo, int level_lo, const Twiddle64* table,
                              const Field64& f, Element element)
{
    for (std::uint32_t g = threadIdx.x; g < (columns << stages) >> K; g += kOuterThreads) {
        const std::uint32_t column = g % columns, row = group_base(g / columns, level_lo, K);
        limb_t v[1 << K];
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) v[m] = rows[(row + (m << level_lo)) * columns + column];
        butterflies<Forward, K>(v, element(row * columns + column), s_lo + level_lo, table, f);
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) rows[(row + (m << level_lo)) * columns + column] = v[m];
    }
    __syncthreads();
}

// A block: outer_columns(stages) adjacent columns (element indices below 2^s_lo) of the
// 2^stages rows 2^s_lo apart, of one transform, loaded into shared memory, the pass's stages run
// there, written back. The stages combine rows of one column; a row's words are adjacent.
template <bool Forward>
__global__ void __launch_bounds__(kOuterThreads) outer_pass(const OuterArgs args)
{
    extern __shared__ limb_t rows[];
    const Plan& plan = args.plan;
    const int s_lo = args.s_lo, stages = args.stages;
    const std::uint32_t columns = outer_columns(stages), column_blocks = (1u << s_lo) / columns;
    const std::size_t blocks_per_transform = std::size_t(column_blocks) << (plan.log_length - s_lo - stages);
    const std::size_t c = blockIdx.x / blocks_per_transform, t = args.chunk_first + c;
    const std::size_t prime = t / plan.products, j = t % plan.products;
    const std::uint32_t block = std::uint32_t(blockIdx.x % blocks_per_transform);
    const std::uint32_t first = (block % column_blocks) * columns + ((block / column_blocks) << (s_lo + stages));
    const auto element = [&](std::uint32_t w) { return first + w % columns + ((w / columns) << s_lo); };
    const Field64 f = plan.tables.fields[prime];
    limb_t* spectrum = args.spectra + (args.operand * args.chunk_transforms + c) * plan.length;
    const std::uint32_t words = columns << stages;

    if (args.from_operand) {
        const ConstPolyBatchView& x = args.operand ? plan.b : plan.a;
        const limb_t* source = x.values.prime(prime) + x.offset(j);
        const std::uint32_t limit = read_length(x, plan.out, j);
        for (std::uint32_t w = threadIdx.x; w < words; w += kOuterThreads) {
            const std::uint32_t i = element(w);
            rows[w] = i < limit ? f.reduce_word(source[i]) : 0;
        }
    } else {
        for (std::uint32_t w = threadIdx.x; w < words; w += kOuterThreads) rows[w] = spectrum[element(w)];
    }
    __syncthreads();

    const Twiddle64* table = Forward ? plan.tables.forward_table(prime) : plan.tables.inverse_table(prime);
    const auto pass = [&](int k, int level_lo) {
        if (k == 1) column_groups<Forward, 1>(rows, columns, stages, s_lo, level_lo, table, f, element);
        else if (k == 2) column_groups<Forward, 2>(rows, columns, stages, s_lo, level_lo, table, f, element);
        else column_groups<Forward, kPassStages>(rows, columns, stages, s_lo, level_lo, table, f, element);
    };
    // Forward from the top level down, the top pass taking what is not a multiple of
    // kPassStages; inverse from the bottom up, the last pass taking it.
    const int rest = stages % kPassStages;
    if (Forward) {
        int level = stages;
        if (rest) pass(rest, level -= rest);
        while (level > 0) pass(kPassStages, level -= kPassStages);
    } else {
        int level = 0;
        for (; level + kPassStages <= stages; level += kPassStages) pass(kPassStages, level);
        if (rest) pass(rest, level);
    }

    if (args.to_product) {
        limb_t* product = plan.out.values.prime(prime) + plan.out.offset(j);
        const std::uint32_t limit = plan.out.length(j);
        for (std::uint32_t w = threadIdx.x; w < words; w += kOuterThreads) {
            const std::uint32_t i = element(w);
            if (i < limit) product[i] = f.exact(rows[w]);
        }
    } else {
        for (std::uint32_t w = threadIdx.x; w < words; w += kOuterThreads) spectrum[element(w)] = rows[w];
    }
}

struct TileArgs {
    Plan plan;
    bool outer;          // long transforms: a block is one kTile piece whose top stages have run
    limb_t* spectra;     // outer: as OuterArgs's
    std::size_t chunk_first, chunk_transforms;
    std::size_t blocks_per_prime;  // short transforms: blocks of kTile / N products a prime
};

// A composition's outer polynomial modulo one prime: count residues.
struct OuterWords {
    const limb_t* c;
    std::uint32_t count;
};

// The pointwise step of a composition (poly_compose): the outer polynomial's value at each point
// x of the inner one's spectrum, by Horner's rule, times N^-1. Each step is a product by x, a
// factor fixed for all of a point's steps: Shoup's, its companion computed once a point. An
// accumulator stays below 3p < 2^64 (a lazy product below 2p plus a coefficient below p), which
// Shoup's product takes as it is; the last product by N^-1 leaves it below 2p, the pointwise
// bound. The eight points of a thread's group run side by side.
template <class Coefficients>
struct HornerAtPoints {
    using WholeGroup = void;
    Field64 f;
    Modulus modulus;
    limb_t scale, scale_shoup;  // N^-1 mod p
    Coefficients coefficients;   // (tile) -> the outer polynomial's residues and their count

    __device__ HornerAtPoints(const Field64& field, int log_length, Coefficients c)
        : f(field), modulus(make_modulus(field.p)), scale(inverse_length(field, log_length)),
          scale_shoup(shoup_companion(modulus, scale)), coefficients(c)
    {
    }

    template <int N>
    __device__ void group(int tile, limb_t (&u)[N]) const
    {
        const auto [c, count] = coefficients(tile);
        limb_t x[N], x_shoup[N];
#pragma unroll
        for (int m = 0; m < N; ++m) {
            x[m] = f.exact(u[m]);
            x_shoup[m] = shoup_companion(modulus, x[m]);
            u[m] = count ? c[count - 1] : 0;
        }
        for (std::uint32_t i = count ? count - 1 : 0; i-- > 0;) {
            const limb_t ci = c[i];
#pragma unroll
            for (int m = 0; m < N; ++m) u[m] = mul_shoup_lazy(u[m], x[m], x_shoup[m], f.p) + ci;
        }
#pragma unroll
        for (int m = 0; m < N; ++m) u[m] = mul_shoup_lazy(u[m], scale, scale_shoup, f.p);
    }
};

// The pointwise step of a power (poly_pow): each point x of the spectrum to the e-th power, times
// N^-1, by Montgomery's products left to right over e's bits (x in Montgomery form, x R, so that
// each product keeps that form; the last one by N^-1 leaves it). Below 2p throughout. The eight
// points of a thread's group run side by side.
struct PowerAtPoints {
    using WholeGroup = void;
    Field64 f;
    std::uint64_t e;
    limb_t scale;  // N^-1 mod p

    template <int N>
    __device__ void group(int, limb_t (&u)[N]) const
    {
        limb_t x[N];
#pragma unroll
        for (int m = 0; m < N; ++m) u[m] = x[m] = f.mul(f.exact(u[m]), f.r2);
        for (int bit = 62 - __clzll(e); bit >= 0; --bit) {
#pragma unroll
            for (int m = 0; m < N; ++m) {
                u[m] = f.mul(u[m], u[m]);
                if ((e >> bit) & 1) u[m] = f.mul(u[m], x[m]);
            }
        }
#pragma unroll
        for (int m = 0; m < N; ++m) u[m] = f.mul(u[m], scale);
    }
};

// The tile's stages: the forward ones below the tile's top (all of a short transform's), the
// pointwise step and the inverse ones up to the tile's top. Tiles 0 .. tiles - 1 are a's, the
// next `tiles` b's, one after another in shared memory.
// A product's kernel keeps six blocks an SM (80 registers a thread, a few spilled): 24 warps hide
// the products' latency better than the 20 of five blocks (the batch of 10^4 products of length
// 1024: 2.05 against 2.13 ms on the H200). A composition's, whose Horner steps hold three words a
// point, keeps four (128 registers a thread), and a power's the same.
template <int LogTile, Pointwise Step>
__global__ void __launch_bounds__(kTileThreads, Step == Pointwise::product ? 6 : 4) tile_stages(const TileArgs args)
{
    extern __shared__ limb_t smem[];
    __shared__ ProductSlots<kMaxTilesPerBlock> slots;
    const Plan& plan = args.plan;
    constexpr int tiles = int(kTile >> LogTile);  // 1 for the pieces of long transforms
    std::size_t prime, first_product = 0;
    limb_t* spectrum = nullptr;  // outer: a's piece; b's is chunk_transforms * length further
    bool upper_zero = false;     // short: every operand within the tile's lower half
    if (args.outer) {
        const std::uint32_t pieces = plan.length / kTile;
        const std::size_t c = blockIdx.x / pieces, t = args.chunk_first + c;
        prime = t / plan.products;
        spectrum = args.spectra + c * plan.length + (blockIdx.x % pieces) * kTile;
    } else {
        prime = blockIdx.x / args.blocks_per_prime;
        first_product = (blockIdx.x % args.blocks_per_prime) * tiles;
        upper_zero = slots.fill(plan.a, plan.b, plan.out, prime, first_product, tiles, plan.products, plan.length);
    }
    const Field64 f = plan.tables.fields[prime];
    const Twiddle64 *forward = plan.tables.forward_table(prime), *inverse = plan.tables.inverse_table(prime);
    const std::size_t b_spectrum = args.chunk_transforms * plan.length;

    const auto input = [&](int tile, std::uint32_t base, std::uint32_t offset) -> limb_t {
        const int operand = tile >= tiles, q = tile - operand * tiles;
        const std::uint32_t i = base + offset;
        if (args.outer) return spectrum[operand * b_spectrum + i];
        return i < slots.limit[operand][q] ? f.reduce_word(slots.source[operand][q][i]) : 0;
    };
    // padded64(x + offset) = padded64(x) + padded64(offset) where their bits are apart: one
    // address a group, constant offsets.
    const auto word = [&](int tile, std::uint32_t base, std::uint32_t offset) -> limb_t& {
        return smem[padded64((tile << LogTile) + base) + padded64(offset)];
    };
    const auto from_smem = [&](int tile, std::uint32_t base, std::uint32_t offset) { return word(tile, base, offset); };
    const auto to_smem = [&](int tile, std::uint32_t base, std::uint32_t offset, limb_t v) { word(tile, base, offset) = v; };
    const auto output = [&](int tile, std::uint32_t base, std::uint32_t offset, limb_t v) {
        const std::uint32_t i = base + offset;
        if (args.outer) spectrum[i] = v;
        else if (i < slots.product_length[tile]) slots.product[tile][i] = f.exact(v);
    };

    if constexpr (Step == Pointwise::composition) {
        // The outer polynomial of each tile's composition: b's words of the product, all of them
        // (the slots' limits are cut to the result's length, which a constant a makes shorter).
        const ConstPolyBatchView& outer = plan.b;
        const auto coefficients = [&](int tile) {
            const std::size_t j = args.outer ? (args.chunk_first + blockIdx.x / (plan.length / kTile)) % plan.products : first_product + tile;
            if (j >= plan.products) return OuterWords{nullptr, 0};
            return OuterWords{outer.values.prime(prime) + outer.offset(j), outer.length(j)};
        };
        const HornerAtPoints<decltype(coefficients)> horner(f, plan.log_length, coefficients);
        tile_products<LogTile, kPassStages, kFusedStages>(tiles, true, upper_zero, forward, inverse, f, input, from_smem, to_smem, horner, output);
    } else if constexpr (Step == Pointwise::power) {
        const PowerAtPoints power{f, plan.exponent, inverse_length(f, plan.log_length)};
        tile_products<LogTile, kPassStages, kFusedStages>(tiles, true, upper_zero, forward, inverse, f, input, from_smem, to_smem, power, output);
    } else {
        const limb_t scale = pointwise_scale(f, plan.log_length);
        tile_products<LogTile, kPassStages, kFusedStages>(tiles, plan.square, upper_zero, forward, inverse, f, input, from_smem, to_smem,
                      [&](limb_t x, limb_t y) { return f.mul(f.mul(x, y), scale); }, output);
    }
}

unsigned blocks_for(std::size_t blocks)
{
    if (blocks > 0x7fffffffu) throw Error("polynomial products (NTT): " + std::to_string(blocks) + " blocks exceed one launch");
    return unsigned(blocks);
}

// The outer stages kLogTile .. log_length - 1 (log_length > kLogTile) in passes of at most
// kMaxOuterStages, as even as can be: the stages of each pass, from the bottom.
std::vector<int> outer_pass_stages(int log_length)
{
    const int stages = log_length - kLogTile, passes = (stages + kMaxOuterStages - 1) / kMaxOuterStages;
    std::vector<int> split(std::size_t(passes), stages / passes);
    for (int p = 0; p < stages % passes; ++p) ++split[std::size_t(p)];
    return split;
}

template <bool Forward>
void launch_outer(const OuterArgs& args, cudaStream_t stream)
{
    const std::size_t words = std::size_t(outer_columns(args.stages)) << args.stages;
    const unsigned grid = blocks_for(args.chunk_transforms * (args.plan.length / words));
    outer_pass<Forward><<<grid, kOuterThreads, words * sizeof(limb_t), stream>>>(args);
    check_launch(Forward ? "polynomial products (NTT): forward stages launch" : "polynomial products (NTT): inverse stages launch");
}

// The transforms of a call: forward, the pointwise step (a product, a composition's Horner steps
// or a power's), inverse.
template <Pointwise Step>
void transform_products(const Plan& plan, cudaStream_t stream)
{
    const std::uint32_t length = plan.length;
    const PolyNttTablesView& tables = plan.tables;
    const std::size_t products = plan.products;
    if (products == 0 || tables.primes == 0) return;
    if (!std::has_single_bit(length) || length < kPolyNttMinLength || length > tables.length)
        throw Error("polynomial products (NTT): transform length " + std::to_string(length) + " is not a power of two from " +
                    std::to_string(kPolyNttMinLength) + " to the tables' " + std::to_string(tables.length));
    const int operands = plan.square ? 1 : 2;
    const std::size_t tile_smem = operands * padded64_words(kTile) * sizeof(limb_t);

    if (length <= kTile) {
        TileArgs args{plan, false, nullptr, 0, 0, 0};
        const std::size_t per_block = kTile / length;
        args.blocks_per_prime = (products + per_block - 1) / per_block;
        for_log_tile(plan.log_length, [&](auto log_tile) {
            tile_stages<decltype(log_tile)::value, Step><<<blocks_for(tables.primes * args.blocks_per_prime), kTileThreads, tile_smem, stream>>>(args);
        });
        check_launch("polynomial products (NTT): tile stages launch");
        return;
    }

    const std::size_t transforms = tables.primes * products;
    const std::size_t chunk = std::min(transforms, std::max<std::size_t>(1, kWorkspaceWords / (operands * std::size_t(length))));
    StreamMemory spectra(chunk * operands * length * sizeof(limb_t), stream);
    const std::vector<int> split = outer_pass_stages(plan.log_length);
    for (std::size_t first = 0; first < transforms; first += chunk) {
        OuterArgs outer{plan, static_cast<limb_t*>(spectra.data()), first, std::min(chunk, transforms - first), 0, 0, 0, false,
                        false};
        for (int operand = 0; operand < operands; ++operand) {
            outer.operand = operand;
            outer.from_operand = true;
            outer.s_lo = plan.log_length;
            for (auto stages = split.rbegin(); stages != split.rend(); ++stages) {
                outer.stages = *stages;
                outer.s_lo -= *stages;
                launch_outer<true>(outer, stream);
                outer.from_operand = false;
            }
        }
        const TileArgs tile{plan, true, outer.spectra, first, outer.chunk_transforms, 0};
        tile_stages<kLogTile, Step><<<blocks_for(outer.chunk_transforms * (length / kTile)), kTileThreads, tile_smem, stream>>>(tile);
        check_launch("polynomial products (NTT): tile stages launch");
        outer.operand = 0;
        outer.s_lo = kLogTile;
        for (std::size_t p = 0; p < split.size(); ++p) {
            outer.stages = split[p];
            outer.to_product = p + 1 == split.size();
            launch_outer<false>(outer, stream);
            outer.s_lo += split[p];
        }
    }
}

template <Pointwise Step, int... LogTile>
void load_tiles(std::integer_sequence<int, LogTile...>)
{
    (load_kernel(reinterpret_cast<const void*>(tile_stages<LogTile, Step>), "polynomial products (NTT): loading the tile kernels"), ...);
}

// log2 of a transform length; 0 for one that is not a power of two, which transform_products
// refuses.
int log_length_of(std::uint32_t length) { return std::has_single_bit(length) ? std::countr_zero(length) : 0; }

}  // namespace

void load_poly_mul_kernels()
{
    load_kernel(reinterpret_cast<const void*>(outer_pass<true>), "polynomial products (NTT): loading the outer passes");
    load_kernel(reinterpret_cast<const void*>(outer_pass<false>), "polynomial products (NTT): loading the outer passes");
    const std::integer_sequence<int, 5, 6, 7, 8, 9, 10, 11> log_tiles;
    load_tiles<Pointwise::product>(log_tiles);
    load_tiles<Pointwise::composition>(log_tiles);
    load_tiles<Pointwise::power>(log_tiles);
}

std::uint32_t poly_ntt_length(std::uint64_t a_length, std::uint64_t b_length)
{
    const std::uint64_t coefficients = a_length && b_length ? a_length + b_length - 1 : 0;
    if (coefficients > (std::uint64_t(1) << 31)) throw Error("polynomial products (NTT): " + std::to_string(coefficients) + " coefficients exceed 2^31");
    return std::max(kPolyNttMinLength, std::uint32_t(std::bit_ceil(coefficients)));
}

void poly_mul(ConstPolyBatchView a, ConstPolyBatchView b, bool square, std::size_t products, std::uint32_t length,
              const PolyNttTablesView& tables, PolyBatchView out, cudaStream_t stream)
{
    transform_products<Pointwise::product>(Plan{a, square ? a : b, out, tables, products, length, log_length_of(length), square}, stream);
}

void poly_compose(ConstPolyBatchView outer, ConstPolyBatchView a, std::size_t count, std::uint32_t length,
                  const PolyNttTablesView& tables, PolyBatchView out, cudaStream_t stream)
{
    transform_products<Pointwise::composition>(Plan{a, outer, out, tables, count, length, log_length_of(length), true}, stream);
}

void poly_pow(ConstPolyBatchView a, std::uint64_t e, std::size_t count, std::uint32_t length, const PolyNttTablesView& tables,
              PolyBatchView out, cudaStream_t stream)
{
    if (e == 0) throw Error("polynomial powers (NTT): the exponent is 0");
    transform_products<Pointwise::power>(Plan{a, a, out, tables, count, length, log_length_of(length), true, e}, stream);
}

}  // namespace zgpu::kernels
