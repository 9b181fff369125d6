// Short products modulo word moduli through five 29-bit primes (contract: poly_mul_mod_n.hpp).
//
// A block takes kTile / N products (N the transform length). For each prime in turn it reduces
// the operands' words modulo the prime on the way into shared memory and runs ntt_tile.cuh's
// products there (a prime's inverse passes beside the next prime's first pass); each prime's
// products stay in shared memory, so that after the fifth the block turns the five residues of
// every coefficient into the coefficient mod n (five_primes.hpp) and writes it: the operands are
// read once a prime (from L2 after the first), the results written once, and no residue goes
// through device memory.
// Shared memory: six areas of kTile words (and one padding word every 32), prime i's a in area i
// and its b in area i + 1, so that each prime's products land where the next prime's b does not
// go: 50.7 KiB a block, four blocks an SM.
// Cost: 5 x 3 transforms of (N/2) log2 N butterflies, each a product by a twiddle of 3 IMADs
// (two 32-bit products and a high half) and about half of them a correction (the primes' words
// have room for 8p), and a coefficient's CRT: 5 such products, 12 multiply-adds of 32 by 32 bits
// to 64, 5 to 32, and one division of three half-words by the normalised n. In the batch of 10^4
// products of length 1024 on an H100 the CRT took 0.09 of 0.89 ms (b15c7cb) and the reduction on
// the way in 0.03.
#include "kernels/poly/poly_mul_mod_n.hpp"

#include <bit>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/thread_team.cuh"
#include "kernels/ntt/ntt_tile.cuh"
#include "kernels/ntt/ntt_twiddles.hpp"
#include "kernels/poly/five_primes.hpp"
#include "kernels/poly/product_slots.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kLogTile = 11;
constexpr std::uint32_t kTile = 1u << kLogTile;
static_assert(kTile == kPolyMulModNMaxLength && kPolyMulModNMaxLength <= kFivePrimesMaxLength);
constexpr int kThreads = 256;  // a group of 16 words a thread (of a or b), each pass
constexpr std::uint32_t kWarpWords = kTile / (kThreads / 32);  // a warp's coefficients in the CRT
constexpr std::uint32_t kMaxTilesPerBlock = kTile / kPolyNttMinLength;
// Stages a thread's group runs in registers, in the passes over shared memory: the 32-bit words
// leave room for 16 (the batch of 10^4 products of length 1024 on an H100: 1.11 ms against 1.32
// with groups of 8; two barriers a prime fewer), where the 64-bit kernel's best is 8.
constexpr int kPassStages = 4;
constexpr int kFusedStages = 3;
// The words' bounds (butterfly_bounds.hpp): montgomery_word64's and the pointwise Montgomery
// products of words below 4p (FivePrimeField) below 3p, taken as 4p.
constexpr int kInputBound = 4, kPointwiseBound = 4;
constexpr std::uint32_t kAreaWords = padded_words(kTile);
constexpr std::size_t kSharedBytes = (kFivePrimeCount + 1) * kAreaWords * sizeof(std::uint32_t);

struct Args {
    ConstPolyBatchView a, b;
    PolyBatchView out;
    const limb_t* moduli;
    FivePrimeTablesView tables;
    FivePrimes primes;
    ShoupFactor crt_factors[kFivePrimeCount];  // crt_factor of each prime
    std::size_t products;
    bool square;
};

// The products' CRT constants: in the last area, which the last prime's b leaves free.
struct CrtSlots {
    CrtModN constants[kMaxTilesPerBlock];
};
static_assert(sizeof(CrtSlots) <= kAreaWords * sizeof(std::uint32_t));

// Each product's constants take 25 word divisions: six threads a product share them.
template <class Team>
__device__ void fill_crt_slots(const Team& team, const Args& args, CrtSlots& slots, std::size_t first_product, int tiles)
{
    constexpr int kParts = kFivePrimeCount + 1;
    for (int w = int(team.rank()); w < tiles * kParts; w += int(team.size())) {
        const int q = w / kParts, part = w % kParts;
        const std::size_t j = first_product + q;
        args.primes.fill_crt_part(slots.constants[q], make_modulus(j < args.products ? args.moduli[j] : 2), part);
    }
}

// The factor that takes a prime's products to the CRT's y_i (FivePrimes::to_modulus): the
// operands' words reduced as x / 2^32 (montgomery_word64), the pointwise Montgomery products
// x y / 2^32 and the inverse transform without its 1 / N leave each coefficient times N / 2^96,
// so the factor is N^-1 2^96 (P / p)^-1 mod p. N divides p - 1, so N^-1 = p - (p - 1) / N.
// Host code: 64-bit divisions, which every thread of every block would otherwise repeat a prime.
ShoupFactor crt_factor(const PrimeField& f, const ShoupFactor& cofactor_inverse, int log_length)
{
    std::uint64_t scale = f.p - ((f.p - 1) >> log_length);
    for (int i = 0; i < 3; ++i) scale = (scale << 32) % f.p;
    const std::uint32_t factor = std::uint32_t(scale * cofactor_inverse.w % f.p);
    return {factor, f.shoup(factor)};
}

// The groups of 16 words in the passes of stride 8 (stages 3 to 6) of tiles of 1024 and 2048
// words: in order, a warp's 32 groups 0 to 31 hold words (g mod 8) + 128 (g / 8) + 8 m, which
// padded() puts two to a bank (4 banks further every 128 words). Rotating bits 3 to 5 of the
// group gives a warp groups 0-7, 16-23, 32-39 and 48-55, whose words fill the 32 banks once.
struct StrideEightOrder {
    __device__ static std::uint32_t group(std::uint32_t r, int s_lo, int k, int log_groups)
    {
        if (s_lo != 3 || k != 4 || log_groups < 6) return r;
        return (r & ~63u) | (((r >> 3) & 3) << 4) | (((r >> 5) & 1) << 3) | (r & 7);
    }
};

// Calls step(f, forward, inverse, input, input_in_range, from_smem, to_smem) with prime i's field,
// twiddles and words: its a's tiles in area i, its b's in area i + 1.
template <int LogLength, class Step>
__device__ void with_prime(const Args& args, const ProductSlots<kMaxTilesPerBlock>& slots, std::uint32_t* areas, int i, int tiles,
                           Step step)
{
    const FivePrimeField f = args.primes.field[i];
    std::uint32_t* smem = areas + i * kAreaWords;
    // The word's address outside the test, so that a group's words share one load of the source.
    const auto input = [&](int tile, std::uint32_t base, std::uint32_t offset) -> std::uint32_t {
        const int operand = tile >= tiles, q = tile - operand * tiles;
        const std::uint32_t e = base + offset;
        const limb_t* source = slots.source[operand][q] + e;
        return e < slots.limit[operand][q] ? montgomery_word64(f, *source) : 0;
    };
    // The same where every word the first pass reads lies within its operand.
    const auto input_in_range = [&](int tile, std::uint32_t base, std::uint32_t offset) -> std::uint32_t {
        const int operand = tile >= tiles, q = tile - operand * tiles;
        return montgomery_word64(f, slots.source[operand][q][base + offset]);
    };
    // padded(x + offset) = padded(x) + padded(offset) where their bits are apart: one address a
    // group, constant offsets.
    const auto word = [&](int tile, std::uint32_t base, std::uint32_t offset) -> std::uint32_t& {
        return smem[padded((tile << LogLength) + base) + padded(offset)];
    };
    const auto from_smem = [&](int tile, std::uint32_t base, std::uint32_t offset) { return word(tile, base, offset); };
    const auto to_smem = [&](int tile, std::uint32_t base, std::uint32_t offset, std::uint32_t v) { word(tile, base, offset) = v; };
    // The prime's tables as pointers the compiler cannot see into: otherwise it merges i kTile
    // into the fused pass's constant twiddle offsets and adds a 64-bit address for each twiddle,
    // where a load can take the offset.
    const Twiddle* forward = args.tables.forward + i * kTile;
    const Twiddle* inverse = args.tables.inverse + i * kTile;
    asm("" : "+l"(forward), "+l"(inverse));
    step(f, forward, inverse, input, input_in_range, from_smem, to_smem);
}

// The primes one after the other, each a tile_products (ntt_tile.cuh) in steps: a prime's
// inverse passes take half the block's groups (a's tiles only), so the first half of the warps
// runs them while the second half runs the next prime's first pass (its words read from device
// memory and reduced), whose areas the inverse passes leave alone.
template <int LogLength>
__global__ void __launch_bounds__(kThreads, 4) products_mod_n(const Args args)
{
    extern __shared__ std::uint32_t areas[];
    __shared__ ProductSlots<kMaxTilesPerBlock> slots;
    using Steps = TileProducts<LogLength, kPassStages, kFusedStages, StrideEightOrder, kInputBound, kPointwiseBound>;
    constexpr int tiles = int(kTile >> LogLength);
    const std::size_t first_product = std::size_t(blockIdx.x) * tiles;
    const bool upper_zero = slots.fill(args.a, args.b, args.out, 0, first_product, tiles, args.products, 1u << LogLength);
    const int operands = args.square ? 1 : 2;
    // Whether every operand has all the words the first pass reads (the common case), so that it
    // reads them unchecked.
    const std::uint32_t read = upper_zero ? 1u << (LogLength - 1) : 1u << LogLength;
    const int tile = int(threadIdx.x);
    const bool in_range = __syncthreads_and(tile >= tiles || (slots.limit[0][tile] >= read && slots.limit[1][tile] >= read));
    CrtSlots& crt = *reinterpret_cast<CrtSlots*>(areas + kFivePrimeCount * kAreaWords);

    const BlockTeam block;
    const WarpTeam inverse_team{0, kThreads / 2, 1}, next_team{kThreads / 2, kThreads / 2, 2};
    const auto first_pass = [&](const auto& team, int i) {
        with_prime<LogLength>(args, slots, areas, i, tiles, [&](const FivePrimeField& f, const Twiddle* forward, const Twiddle*, auto input,
                                                                auto input_in_range, auto, auto to_smem) {
            if (in_range) Steps::first_pass(team, tiles, operands, upper_zero, forward, f, input_in_range, to_smem);
            else Steps::first_pass(team, tiles, operands, upper_zero, forward, f, input, to_smem);
        });
    };
    first_pass(block, 0);
    for (int i = 0; i < kFivePrimeCount; ++i) {
        with_prime<LogLength>(args, slots, areas, i, tiles, [&](const FivePrimeField& f, const Twiddle* forward, const Twiddle* inverse,
                                                                auto, auto, auto from_smem, auto to_smem) {
            Steps::middle_passes(block, tiles, operands, forward, f, from_smem, to_smem);
            const auto pointwise = [&](std::uint32_t x, std::uint32_t y) { return f.mul_montgomery(x, y); };
            const auto fused_pass = [&](auto square) {
                Steps::fused_pass(block, tiles, square, forward, inverse, f, from_smem, to_smem, pointwise);
            };
            if (args.square) fused_pass(Fixed<1>());
            else fused_pass(Fixed<0>());
            // The last inverse pass leaves words below 8p, which the CRT's first product takes.
            if (inverse_team.contains_this_thread()) Steps::inverse_passes(inverse_team, tiles, inverse, f, from_smem, to_smem, to_smem);
        });
        if (next_team.contains_this_thread()) {
            int barriers_met = 0;
            if (i + 1 < kFivePrimeCount) {
                first_pass(next_team, i + 1);
                barriers_met = 1;
            } else {
                fill_crt_slots(next_team, args, crt, first_product, tiles);  // into the last prime's b, spent
            }
            // As many barriers as the inverse passes meet: compute-sanitizer's racecheck loses
            // track of named barriers that two teams meet unequally often, and reports hazards
            // between block-wide passes that are not there.
            for (; barriers_met < Steps::kInversePasses; ++barriers_met) next_team.sync();
        }
        block.sync();
    }

    // Every coefficient from its five residues to its modulus. Warp v takes words kWarpWords v
    // onwards, lane l words kWarpWords v + 32 k + l: one product's where products are that long,
    // whose constants then load once.
    const std::uint32_t chunk = threadIdx.x / 32 * kWarpWords, lane = threadIdx.x % 32;
    const auto coefficient = [&](std::uint32_t w, const CrtModN& c, limb_t* product, std::uint32_t length) {
        const std::uint32_t e = w & ((1u << LogLength) - 1);
        if (e >= length) return;
        std::uint32_t r[kFivePrimeCount];
#pragma unroll
        for (int i = 0; i < kFivePrimeCount; ++i) r[i] = areas[i * kAreaWords + padded(w)];
        product[e] = args.primes.to_modulus(r, args.crt_factors, c);
    };
    if constexpr ((1u << LogLength) >= kWarpWords) {
        const int q = int(chunk >> LogLength);
        const CrtModN c = crt.constants[q];
        limb_t* const product = slots.product[q];
        const std::uint32_t length = slots.product_length[q];
        for (std::uint32_t k = lane; k < kWarpWords; k += 32) coefficient(chunk + k, c, product, length);
    } else {
        for (std::uint32_t k = lane; k < kWarpWords; k += 32) {
            const int q = int((chunk + k) >> LogLength);
            coefficient(chunk + k, crt.constants[q], slots.product[q], slots.product_length[q]);
        }
    }
}

}  // namespace

void fill_five_prime_tables(std::span<Twiddle> forward, std::span<Twiddle> inverse)
{
    if (forward.size() != kFivePrimeCount * kTile || inverse.size() != forward.size())
        throw Error("five-prime NTT tables: " + std::to_string(kFivePrimeCount * kTile) + " entries a direction expected");
    for (int i = 0; i < kFivePrimeCount; ++i) {
        fill_twiddles(kFivePrimes.field[i], false, forward.subspan(i * kTile, kTile));
        fill_twiddles(kFivePrimes.field[i], true, inverse.subspan(i * kTile, kTile));
    }
}

void poly_mul_mod_n(ConstPolyBatchView a, ConstPolyBatchView b, bool square, std::size_t products, std::uint32_t length,
                    const limb_t* moduli, const FivePrimeTablesView& tables, PolyBatchView out, cudaStream_t stream)
{
    if (products == 0) return;
    if (!std::has_single_bit(length) || length < kPolyNttMinLength || length > kTile)
        throw Error("products mod n (five primes): transform length " + std::to_string(length) + " is not a power of two from " +
                    std::to_string(kPolyNttMinLength) + " to " + std::to_string(kTile));
    const std::uint32_t per_block = kTile / length;
    const std::size_t blocks = (products + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("products mod n (five primes): " + std::to_string(blocks) + " blocks exceed one launch");
    Args args{a, square ? a : b, out, moduli, tables, kFivePrimes, {}, products, square};
    for (int i = 0; i < kFivePrimeCount; ++i)
        args.crt_factors[i] = crt_factor(kFivePrimes.field[i], kFivePrimes.cofactor_inverse[i], std::countr_zero(length));
    for_log_tile(std::countr_zero(length), [&](auto log_length) {
        const auto kernel = products_mod_n<decltype(log_length)::value>;
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedBytes)),
              "products mod n (five primes): shared memory");
        kernel<<<unsigned(blocks), kThreads, kSharedBytes, stream>>>(args);
    });
    check_launch("products mod n (five primes) launch");
}

}  // namespace zgpu::kernels
