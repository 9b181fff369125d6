// Batched signed products by the number-theoretic transform (layout: limb_batch.hpp).
//
// The operands' 32-bit digits are convolved modulo three primes (ntt_field.hpp states and
// checks the exactness bound), and CRT and one carry pass turn the convolution into limbs.
// Per prime, transform length N = bit_ceil(2 * (a.stride + b.stride)) >= the number of result
// digits, so the cyclic convolution does not wrap:
//   forward:  decimation in frequency (Gentleman-Sande), natural order in, bit-reversed out;
//   product:  pointwise, times N^-1;
//   inverse:  decimation in time (Cooley-Tukey) with inverse roots, bit-reversed in, natural
//             out. No bit reversal is ever done.
// Butterflies run in registers, four stages a pass over a tile (ntt_stages.cuh). Up to kTile
// words a transform is one tile in shared memory, and one kernel transforms both operands,
// multiplies and transforms back, the last forward and first inverse stages in one pass.
// Longer transforms (N = R * kTile, R <= 32) first run their top log2 R stages with a thread a
// column (R elements kTile apart, so a warp's loads are coalesced), then the tile kernel on
// each run of kTile words, then the inverse top stages: each pass reads and writes the data
// once.
// Cost: 3 primes x 3 transforms x (N/2) log2 N butterflies, each one Shoup multiplication (3
// IMADs) and an addition and a subtraction mod p, against a classical product's 8 n^2 IMADs.
#include "kernels/mul/mul_ntt.hpp"

#include <bit>
#include <string>
#include <type_traits>

#include "kernels/common/add_columns.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/ntt/ntt_stages.cuh"
#include "kernels/common/thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kLogTile = 12;
constexpr std::uint32_t kTile = 1u << kLogTile;  // words of a tile: 16 KiB of shared memory per operand
constexpr std::uint32_t kMinLength = 64;
constexpr int kTileThreads = kTile / 16;  // a group of 16 words a thread per pass at kTile
constexpr int kOuterThreads = 256;
static_assert(kNttMaxLength / kTile <= 32, "the outer stages take at most 32 rows a thread");
constexpr int kCarryThreads = 128;
constexpr int kCarryLimbs = 4;  // limbs a thread of the carry pass takes per round

struct Fields {
    PrimeField field[kNttPrimeCount];
};

// The shape of the transforms of one launch.
struct Shape {
    std::uint32_t length, log_length;
    std::uint32_t tile, log_tile;  // min(length, kTile)
    __host__ __device__ bool outer() const { return length > tile; }
    __host__ __device__ std::uint32_t tiles() const { return length / tile; }  // R: tiles a transform, rows of the outer stages
};

Shape shape_of(std::uint32_t a_stride, std::uint32_t b_stride)
{
    const std::uint32_t length = std::max(kMinLength, std::bit_ceil(2 * (a_stride + b_stride)));
    const std::uint32_t tile = std::min(length, kTile);
    return {length, std::uint32_t(std::countr_zero(length)), tile, std::uint32_t(std::countr_zero(tile))};
}

// C consecutive words (C = 1, 2 or 4) at an address aligned to 4C bytes, in one access.
template <int C>
__device__ void load_words(const std::uint32_t* p, std::uint32_t (&w)[C])
{
    static_assert(C == 1 || C == 2 || C == 4);
    if constexpr (C == 4) {
        const uint4 x = *reinterpret_cast<const uint4*>(p);
        w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
    } else if constexpr (C == 2) {
        const uint2 x = *reinterpret_cast<const uint2*>(p);
        w[0] = x.x, w[1] = x.y;
    } else {
        w[0] = *p;
    }
}

template <int C>
__device__ void store_words(std::uint32_t* p, const std::uint32_t (&w)[C])
{
    static_assert(C == 1 || C == 2 || C == 4);
    if constexpr (C == 4) *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
    else if constexpr (C == 2) *reinterpret_cast<uint2*>(p) = make_uint2(w[0], w[1]);
    else *p = w[0];
}

// One transform's input from some element on, as a block reads it: an operand's digits,
// reduced on the way (`digits` of them, zeros above), or the residues an earlier pass wrote.
struct Reader {
    const std::uint32_t* words;
    std::uint32_t digits;
    bool raw;

    __device__ std::uint32_t operator()(const PrimeField& f, std::uint32_t index) const
    {
        if (!raw) return words[index];
        return index < digits ? f.reduce_word(__ldg(words + index)) : 0;
    }

    // Elements index .. index + C - 1 (C = 1, 2 or 4, index a multiple of C) in few loads:
    // residue arrays start on 16 bytes (their lengths are multiples of 64 words), an operand's
    // digits on 8 (a limb), and its digit count is even, so a pair is read whole or not at all.
    template <int C>
    __device__ void load(const PrimeField& f, std::uint32_t index, std::uint32_t (&w)[C]) const
    {
        if constexpr (C == 1) {
            w[0] = (*this)(f, index);
        } else if (!raw) {
            load_words(words + index, w);
        } else {
#pragma unroll
            for (int j = 0; j < C; j += 2) {
                const uint2 pair = index + j < digits ? __ldg(reinterpret_cast<const uint2*>(words + index + j)) : make_uint2(0, 0);
                w[j] = f.reduce_word(pair.x);
                w[j + 1] = f.reduce_word(pair.y);
            }
        }
    }
};

// Where the transforms of an operand come from: its digits (residues == nullptr), or a residue
// array [product][prime][length] written by an earlier pass.
struct Source {
    ConstBatchView batch;
    const std::uint32_t* residues;
    std::size_t batch_first;  // batch element of the chunk's product 0
    bool broadcast;           // one element (or one residue array) for every product

    // Reads transform element `first` as index 0.
    __device__ Reader reader(std::size_t product, int prime, const Shape& shape, std::uint32_t first) const
    {
        const std::size_t p = broadcast ? 0 : product;
        if (residues) return {residues + (p * kNttPrimeCount + prime) * shape.length + first, 0, false};
        const std::uint32_t digits = 2 * batch.stride;
        return {reinterpret_cast<const std::uint32_t*>(batch.element(batch_first + p)) + first, digits > first ? digits - first : 0, true};
    }
};

struct OuterArgs {
    Source source;
    std::uint32_t* out;  // [product][prime][length]
    std::size_t products;
    Fields fields;
    NttTables tables;
    Shape shape;
};

// Columns a thread of the outer stages takes: up to four, so that its loads and stores move
// 16 bytes, while it holds at most 32 elements.
__host__ __device__ constexpr int outer_columns(int log_rows) { return (32 >> log_rows) < 4 ? 32 >> log_rows : 4; }

// The top log2 R stages of long transforms (R = length / kTile): forward (source -> out) or
// inverse (out in place). A thread takes outer_columns consecutive columns, each the R elements
// col + row * kTile. The three primes of the same columns are neighbouring blocks, so that an
// operand's digits come from memory once and from L2 for the other two.
template <bool Forward, int LogRows>
__global__ void __launch_bounds__(kOuterThreads) outer_stages(const OuterArgs args)
{
    constexpr int kRows = 1 << LogRows, kColumns = outer_columns(LogRows);
    const int prime = blockIdx.x % kNttPrimeCount;
    const PrimeField f = args.fields.field[prime];
    const std::size_t column = (std::size_t(blockIdx.x / kNttPrimeCount) * kOuterThreads + threadIdx.x) * kColumns;
    const std::size_t product = column / kTile;
    if (product >= args.products) return;
    const std::uint32_t col = column % kTile;
    std::uint32_t* out = args.out + (product * kNttPrimeCount + prime) * args.shape.length;
    const Reader in = Forward ? args.source.reader(product, prime, args.shape, 0) : Reader{out, 0, false};
    std::uint32_t v[kColumns][kRows];
#pragma unroll
    for (int row = 0; row < kRows; ++row) {
        std::uint32_t w[kColumns];
        in.load(f, row * kTile + col, w);
#pragma unroll
        for (int c = 0; c < kColumns; ++c) v[c][row] = w[c];
    }
#pragma unroll
    for (int c = 0; c < kColumns; ++c)
        butterflies<Forward, LogRows>(v[c], col + c, kLogTile, Forward ? args.tables.forward[prime] : args.tables.inverse[prime], f);
#pragma unroll
    for (int row = 0; row < kRows; ++row) {
        std::uint32_t w[kColumns];
#pragma unroll
        for (int c = 0; c < kColumns; ++c) w[c] = v[c][row];
        store_words(out + row * kTile + col, w);
    }
}

struct TileArgs {
    Source a, b;             // b.residues with b_spectrum: already transformed
    bool b_spectrum;         // b is a spectrum: skip its forward stages
    bool spectrum_only;      // transform a and store it (no product, no inverse)
    bool square;             // b is a: one forward transform, squared pointwise
    std::uint32_t* out;      // [product][prime][length]; may be a's residues (in place)
    Fields fields;
    NttTables tables;
    Shape shape;
    // 2^32 / length mod p: undoes the Montgomery factor of the pointwise product and the
    // inverse transform's factor of length.
    std::uint32_t scale[kNttPrimeCount], scale_shoup[kNttPrimeCount];
};

// One tile of kTile consecutive words (or a whole short transform) of each operand: the last
// forward stages, the pointwise product, the first inverse stages. Forward, the top
// log_tile mod 4 stages go first, so the last forward and first inverse passes are four stages
// on the same groups of 16 consecutive words, fused into one pass held in registers. The
// first pass reads the input and the last one writes the output, in global memory; the
// passes between keep the tiles in shared memory.
// 80 registers: three blocks of kTileThreads an SM (registers go 256 to a warp, so 84 left room
// for two), at the cost of a few bytes of spills; measured faster than 84, 72 and 64 at every
// NTT size (bench/NOTES-mul.md).
__global__ void __maxnreg__(80) tile_stages(const TileArgs args)
{
    extern __shared__ std::uint32_t smem[];
    const int prime = blockIdx.y;
    const PrimeField f = args.fields.field[prime];
    const Twiddle *forward = args.tables.forward[prime], *inverse = args.tables.inverse[prime];
    const Shape& shape = args.shape;
    const int log_tile = shape.log_tile, top = log_tile % 4, first_k = top ? top : 4;
    const std::size_t product = blockIdx.x / shape.tiles();
    const std::uint32_t first = (blockIdx.x % shape.tiles()) * shape.tile;
    const std::uint32_t tile_words = padded_words(shape.tile);
    std::uint32_t *x = smem, *y = smem + tile_words;
    const bool transform_b = !args.spectrum_only && !args.b_spectrum && !args.square;
    const int transformed = transform_b ? 2 : 1;  // tiles whose forward stages run here

    const Reader a = args.a.reader(product, prime, shape, first), b = args.b.reader(product, prime, shape, first);
    std::uint32_t* out = args.out + (product * kNttPrimeCount + prime) * shape.length + first;
    // Word base + offset of tile t (group_pass).
    const auto input = [&](int t, std::uint32_t base, std::uint32_t offset) { return t == 0 ? a(f, base + offset) : b(f, base + offset); };
    const auto word = [&](int t, std::uint32_t base, std::uint32_t offset) -> std::uint32_t& {
        return smem[t * tile_words + padded(base + offset)];
    };
    const auto from_smem = [&](int t, std::uint32_t base, std::uint32_t offset) { return word(t, base, offset); };
    const auto to_smem = [&](int t, std::uint32_t base, std::uint32_t offset, std::uint32_t v) { word(t, base, offset) = v; };
    const auto to_out = [&](int, std::uint32_t base, std::uint32_t offset, std::uint32_t v) { out[base + offset] = v; };

    if (args.b_spectrum)
        for (std::uint32_t e = threadIdx.x; e < shape.tile; e += blockDim.x) y[padded(e)] = b(f, e);
    group_pass<true>(first_k, transformed, log_tile, log_tile - first_k, forward, f, input, to_smem);
    for (int s_lo = log_tile - first_k - 4; s_lo > 0; s_lo -= 4)
        group_pass<true, 4>(transformed, log_tile, s_lo, forward, f, from_smem, to_smem);
    if (args.spectrum_only) return group_pass<true, 4>(1, log_tile, 0, forward, f, from_smem, to_out);

    // The fused pass: stages 3..0 forward on both, pointwise product, stages 0..3 inverse.
    for (std::uint32_t g = threadIdx.x; g < shape.tile / 16; g += blockDim.x) {
        const std::uint32_t base = 16 * g;
        std::uint32_t u[16], v[16];
#pragma unroll
        for (int m = 0; m < 16; ++m) {
            u[m] = x[padded(base + m)];
            v[m] = args.square ? 0 : y[padded(base + m)];
        }
        if (transform_b) butterflies<true, 4>(v, base, 0, forward, f);
        butterflies<true, 4>(u, base, 0, forward, f);
#pragma unroll
        for (int m = 0; m < 16; ++m) {
            const std::uint32_t other = args.square ? u[m] : v[m];
            u[m] = f.mul_lazy(f.mul_montgomery(u[m], other), args.scale[prime], args.scale_shoup[prime]);
        }
        butterflies<false, 4>(u, base, 0, inverse, f);
#pragma unroll
        for (int m = 0; m < 16; ++m) x[padded(base + m)] = u[m];
    }
    __syncthreads();
    int s_lo = 4;
    for (; s_lo + 4 <= log_tile; s_lo += 4) {
        if (s_lo + 4 == log_tile) group_pass<false, 4>(1, log_tile, s_lo, inverse, f, from_smem, to_out);
        else group_pass<false, 4>(1, log_tile, s_lo, inverse, f, from_smem, to_smem);
    }
    if (top) group_pass<false>(top, 1, log_tile, s_lo, inverse, f, from_smem, to_out);
}

struct CarryArgs {
    const std::uint32_t* residues;  // [product][prime][length]: the exact convolution, mod each prime
    ConstBatchView a, b;
    BatchView r;
    std::size_t batch_first;
    bool broadcast_b;
    Shape shape;
};

// Coefficients k .. k + 7 of the convolution (k a multiple of 8; zeros from `length` on), from
// their residues by CRT (below 4p, as the inverse transform leaves them), each prime's residues
// read 16 bytes at a time.
__device__ void coefficients(const std::uint32_t* residues, std::uint32_t length, std::uint32_t k, Words96* c)
{
    if (k >= length) {  // length is a multiple of 8: all eight are outside
        for (int t = 0; t < 8; ++t) c[t] = {{0, 0, 0}};
        return;
    }
    constexpr PrimeField f0 = make_field(kNttPrimes[0]), f1 = make_field(kNttPrimes[1]), f2 = make_field(kNttPrimes[2]);
    std::uint32_t r[kNttPrimeCount][2][4];
#pragma unroll
    for (int q = 0; q < kNttPrimeCount; ++q)
#pragma unroll
        for (int h = 0; h < 2; ++h) load_words(residues + q * length + k + 4 * h, r[q][h]);
#pragma unroll
    for (int t = 0; t < 8; ++t) c[t] = crt_combine(f0.exact(r[0][t / 4][t % 4]), f1.exact(r[1][t / 4][t % 4]), f2.exact(r[2][t / 4][t % 4]));
}

// The result limbs from the convolution: coefficient k (< 2^81) sits at bit 32k. Limb m gets
// the low 64 bits of four terms (coefficients 2m-2 .. 2m+1 shifted into place); their sum's
// high part (at most 3) belongs to limb m+1, added with carries across the block. One block a
// product, kCarryThreads * kCarryLimbs limbs a round; each coefficient is recombined once, and
// what reaches the limbs above (the top coefficients' high words, the top limb's high part)
// goes to the next thread through shared memory, and from the last thread to the next round.
__global__ void __launch_bounds__(kCarryThreads) carry_pass(const CarryArgs args)
{
    using Group = ThreadGroup<kCarryThreads>;
    __shared__ typename Group::Shared shared;
    __shared__ std::uint32_t top_words[3][kCarryThreads];  // words 1, 2 of the top coefficient, 2 of the one below
    __shared__ limb_t top_high[kCarryThreads];
    const Group group(shared);
    const std::size_t product = blockIdx.x, i = args.batch_first + product;
    const std::uint32_t* residues = args.residues + product * kNttPrimeCount * args.shape.length;
    const std::int32_t size_a = args.a.sizes[i], size_b = args.b.sizes[args.broadcast_b ? 0 : i];
    limb_t* r = args.r.element(i);
    const int below = threadIdx.x - 1, last = kCarryThreads - 1;

    bool carry = false;
    std::uint32_t round_below[3] = {0, 0, 0};  // top_words of the last thread of the round below
    limb_t high_below = 0;                    // top_high of the same
    std::uint32_t used = 0;
    for (std::uint32_t round = 0; round < args.r.stride; round += kCarryThreads * kCarryLimbs) {
        const std::uint32_t first = round + threadIdx.x * kCarryLimbs;
        Words96 c[2 * kCarryLimbs + 2];  // c[t]: coefficient 2 first - 2 + t; the first two from below
        static_assert(2 * kCarryLimbs == 8, "a thread's coefficients are one group of eight");
        coefficients(residues, args.shape.length, 2 * first, c + 2);
        top_words[0][threadIdx.x] = c[2 * kCarryLimbs + 1].word[1];
        top_words[1][threadIdx.x] = c[2 * kCarryLimbs + 1].word[2];
        top_words[2][threadIdx.x] = c[2 * kCarryLimbs].word[2];
        __syncthreads();
        const bool bottom = threadIdx.x == 0;
        c[1] = {{0, bottom ? round_below[0] : top_words[0][below], bottom ? round_below[1] : top_words[1][below]}};
        c[0] = {{0, 0, bottom ? round_below[2] : top_words[2][below]}};

        limb_t low[kCarryLimbs], high[kCarryLimbs], shifted[kCarryLimbs];
#pragma unroll
        for (int j = 0; j < kCarryLimbs; ++j) {
            const std::uint32_t *below2 = c[2 * j].word, *below1 = c[2 * j + 1].word, *even = c[2 * j + 2].word,
                                *odd = c[2 * j + 3].word;
            const limb_t terms[4] = {even[0] | limb_t(even[1]) << 32, limb_t(odd[0]) << 32,
                                     below1[1] | limb_t(below1[2]) << 32, below2[2]};
            limb_t sum = 0, overflow = 0;
            for (const limb_t t : terms) {
                sum += t;
                overflow += sum < t;
            }
            low[j] = sum;
            high[j] = overflow;
        }
        top_high[threadIdx.x] = high[kCarryLimbs - 1];
        __syncthreads();
        shifted[0] = bottom ? high_below : top_high[below];
#pragma unroll
        for (int j = 1; j < kCarryLimbs; ++j) shifted[j] = high[j - 1];
        high_below = top_high[last];
        for (int w = 0; w < 3; ++w) round_below[w] = top_words[w][last];
        carry = add_columns(group, low, shifted, carry);  // its first barrier also ends the reads above
#pragma unroll
        for (int j = 0; j < kCarryLimbs; ++j) {
            if (first + j < args.r.stride) r[first + j] = low[j];
            if (low[j] != 0) used = first + j + 1;
        }
    }
    used = group.max(used);
    if (threadIdx.x == 0) args.r.sizes[i] = (size_a < 0) != (size_b < 0) ? -std::int32_t(used) : std::int32_t(used);
}

unsigned blocks_for(std::size_t blocks)
{
    if (blocks > 0x7fffffffu) throw Error("mul (NTT): " + std::to_string(blocks) + " blocks exceed one launch");
    return unsigned(blocks);
}

dim3 grid_for(std::size_t blocks) { return dim3(blocks_for(blocks), kNttPrimeCount); }

// Words a product needs: its residues (which are also a's residues when the transform is
// long), and b's residues when b is neither shared nor a itself; a shared b's spectrum is held
// once.
struct WorkspaceLayout {
    std::size_t per_product, shared;
};

WorkspaceLayout layout_of(const Shape& shape, bool broadcast_b, bool square)
{
    const std::size_t one = std::size_t(kNttPrimeCount) * shape.length;
    return {shape.outer() && !broadcast_b && !square ? 2 * one : one, broadcast_b ? one : 0};
}

// Squares: a and b the very same batch (r = a * a), elementwise.
bool is_square(ConstBatchView a, ConstBatchView b, bool broadcast_b)
{
    return !broadcast_b && a.limbs == b.limbs && a.sizes == b.sizes && a.stride == b.stride;
}

Fields make_fields()
{
    Fields fields;
    for (int q = 0; q < kNttPrimeCount; ++q) fields.field[q] = make_field(kNttPrimes[q]);
    return fields;
}

}  // namespace

MulWorkspace mul_ntt_workspace(ConstBatchView a, ConstBatchView b, bool broadcast_b)
{
    const WorkspaceLayout layout = layout_of(shape_of(a.stride, b.stride), broadcast_b, is_square(a, b, broadcast_b));
    return {layout.shared + layout.per_product, layout.shared + layout.per_product * a.count};
}

void mul_ntt(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const NttTables& tables,
             std::span<std::uint32_t> workspace, cudaStream_t stream)
{
    if (a.count == 0) return;
    if (a.stride + b.stride > kMaxLimbs)
        throw Error("mul (NTT): operand strides " + std::to_string(a.stride) + " and " + std::to_string(b.stride) +
                    " exceed a result of " + std::to_string(kMaxLimbs) + " limbs");
    const Shape shape = shape_of(a.stride, b.stride);
    const bool square = is_square(a, b, broadcast_b);
    const WorkspaceLayout layout = layout_of(shape, broadcast_b, square);
    if (workspace.size() < layout.shared + layout.per_product)
        throw Error("mul (NTT): the workspace holds " + std::to_string(workspace.size()) + " words, " +
                    std::to_string(layout.shared + layout.per_product) + " needed");
    const std::size_t chunk = (workspace.size() - layout.shared) / layout.per_product;
    std::uint32_t* spectrum = workspace.data();  // b's, when shared
    std::uint32_t* products = workspace.data() + layout.shared;
    const bool own_b_residues = shape.outer() && !broadcast_b && !square;  // reserved by layout_of
    std::uint32_t* b_residues = own_b_residues ? products + std::size_t(kNttPrimeCount) * shape.length * chunk : nullptr;

    const Fields fields = make_fields();
    TileArgs tile{};
    tile.fields = fields;
    tile.tables = tables;
    tile.shape = shape;
    tile.square = square;
    for (int q = 0; q < kNttPrimeCount; ++q) {
        const PrimeField& f = fields.field[q];
        tile.scale[q] = std::uint32_t(std::uint64_t(f.pow(2, 32)) * f.inverse(shape.length) % f.p);
        tile.scale_shoup[q] = f.shoup(tile.scale[q]);
    }
    const unsigned tile_threads = std::clamp<std::uint32_t>(shape.tile / 16, 32, kTileThreads);
    const std::size_t tile_smem = 2 * padded_words(shape.tile) * sizeof(std::uint32_t);
    const auto run_outer = [&](bool forward, const Source& source, std::uint32_t* out, std::size_t products_now) {
        const OuterArgs args{source, out, products_now, fields, tables, shape};
        const int log_rows = shape.log_length - shape.log_tile;
        const unsigned grid = blocks_for(products_now * (kTile / (kOuterThreads * outer_columns(log_rows))) * kNttPrimeCount);
        const auto launch = [&](auto forward_tag, auto log_rows_tag) {
            outer_stages<decltype(forward_tag)::value, decltype(log_rows_tag)::value><<<grid, kOuterThreads, 0, stream>>>(args);
        };
        const auto with_rows = [&](auto forward_tag) {
            switch (log_rows) {
            case 1: return launch(forward_tag, std::integral_constant<int, 1>{});
            case 2: return launch(forward_tag, std::integral_constant<int, 2>{});
            case 3: return launch(forward_tag, std::integral_constant<int, 3>{});
            case 4: return launch(forward_tag, std::integral_constant<int, 4>{});
            default: return launch(forward_tag, std::integral_constant<int, 5>{});
            }
        };
        if (forward) with_rows(std::true_type{});
        else with_rows(std::false_type{});
        check_launch(forward ? "mul (NTT) forward stages launch" : "mul (NTT) inverse stages launch");
    };
    const auto run_tiles = [&](std::size_t products_now) {
        tile_stages<<<grid_for(products_now * shape.tiles()), tile_threads, tile_smem, stream>>>(tile);
        check_launch("mul (NTT) tile stages launch");
    };

    if (broadcast_b) {  // b's spectrum once, for all chunks
        const Source raw_b{b, nullptr, 0, true};
        if (shape.outer()) run_outer(true, raw_b, spectrum, 1);
        tile.a = shape.outer() ? Source{b, spectrum, 0, true} : raw_b;
        tile.spectrum_only = true;
        tile.out = spectrum;
        run_tiles(1);
        tile.spectrum_only = false;
    }
    for (std::size_t first = 0; first < a.count; first += chunk) {
        const std::size_t count = std::min(chunk, a.count - first);
        const Source raw_a{a, nullptr, first, false}, raw_b{b, nullptr, first, false};
        if (shape.outer()) {
            run_outer(true, raw_a, products, count);
            if (own_b_residues) run_outer(true, raw_b, b_residues, count);
        }
        tile.a = shape.outer() ? Source{a, products, 0, false} : raw_a;
        tile.b_spectrum = broadcast_b;
        tile.b = broadcast_b ? Source{b, spectrum, 0, true} : square ? tile.a : own_b_residues ? Source{b, b_residues, 0, false} : raw_b;
        tile.out = products;
        run_tiles(count);
        if (shape.outer()) run_outer(false, Source{}, products, count);
        const CarryArgs carry{products, a, b, r, first, broadcast_b, shape};
        carry_pass<<<blocks_for(count), kCarryThreads, 0, stream>>>(carry);
        check_launch("mul (NTT) carry pass launch");
    }
}

}  // namespace zgpu::kernels
