// Short products modulo word moduli through five 30-bit primes (contract: poly_mul_mod_n.hpp).
//
// A block takes kTile / N products (N the transform length). For each prime in turn it reduces
// the operands' words modulo the prime on the way into shared memory and runs ntt_tile.cuh's
// products there; each prime's products stay in shared memory, so that after the fifth the
// block turns the five residues of every coefficient into the coefficient mod n (five_primes.hpp)
// and writes it: the operands are read once a prime (from L2 after the first), the results
// written once, and no residue goes through device memory.
// Shared memory: six areas of kTile words (and one padding word every 32), prime i's a in area i
// and its b in area i + 1, so that each prime's products land where the next prime's b does not
// go: 50.7 KiB a block, four blocks an SM.
// Cost: 5 x 3 transforms of (N/2) log2 N butterflies, each a product by a twiddle of 3 IMADs
// (two 32-bit products and a high half), and a coefficient's CRT: 5 such products, 10 of 32 by
// 32 bits and one division of two words by n.
#include "kernels/poly/poly_mul_mod_n.hpp"

#include <bit>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/ntt/ntt_tile.cuh"
#include "kernels/ntt/ntt_twiddles.hpp"
#include "kernels/poly/five_primes.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kLogTile = 11;
constexpr std::uint32_t kTile = 1u << kLogTile;
static_assert(kTile == kPolyMulModNMaxLength && kPolyMulModNMaxLength <= kFivePrimesMaxLength);
constexpr int kThreads = 256;  // a group of 16 words a thread (of a or b), each pass
constexpr std::uint32_t kMaxTilesPerBlock = kTile / kPolyNttMinLength;
// Stages a thread's group runs in registers, in the passes over shared memory: the 32-bit words
// leave room for 16 (the batch of 10^4 products of length 1024 on an H100: 1.11 ms against 1.32
// with groups of 8; two barriers a prime fewer), where the 64-bit kernel's best is 8.
constexpr int kPassStages = 4;
constexpr int kFusedStages = 3;
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

// Where a block's products come from and go.
struct Slots {
    const limb_t* source[2][kMaxTilesPerBlock];
    std::uint32_t limit[2][kMaxTilesPerBlock];
    limb_t* product[kMaxTilesPerBlock];
    std::uint32_t product_length[kMaxTilesPerBlock];
};

// The products' CRT constants: in the last area, which the last prime's b leaves free.
struct CrtSlots {
    CrtModN constants[kMaxTilesPerBlock];
};
static_assert(sizeof(CrtSlots) <= kAreaWords * sizeof(std::uint32_t));

// Returns whether every operand of the block lies within the lower half of its transform.
__device__ bool fill_slots(const Args& args, Slots& slots, std::size_t first_product, int tiles, std::uint32_t length)
{
    bool lower_half = true;
    for (int q = threadIdx.x; q < tiles; q += blockDim.x) {
        const std::size_t j = first_product + q;
        const bool present = j < args.products;
        for (int operand = 0; operand < 2; ++operand) {
            const ConstPolyBatchView& x = operand ? args.b : args.a;
            slots.source[operand][q] = present ? x.values.prime(0) + x.offset(j) : nullptr;
            slots.limit[operand][q] = present ? min(x.length(j), args.out.length(j)) : 0;
        }
        slots.product[q] = present ? args.out.values.prime(0) + args.out.offset(j) : nullptr;
        slots.product_length[q] = present ? args.out.length(j) : 0;
        lower_half = lower_half && max(slots.limit[0][q], slots.limit[1][q]) <= length / 2;
    }
    return __syncthreads_and(lower_half);
}

// Each product's constants take 25 word divisions: six threads a product share them.
__device__ void fill_crt_slots(const Args& args, CrtSlots& slots, std::size_t first_product, int tiles)
{
    constexpr int kParts = kFivePrimeCount + 1;
    for (int w = threadIdx.x; w < tiles * kParts; w += blockDim.x) {
        const int q = w / kParts, part = w % kParts;
        const std::size_t j = first_product + q;
        const Modulus m = make_modulus(j < args.products ? args.moduli[j] : 2);
        CrtModN& c = slots.constants[q];
        c.term[part] = args.primes.crt_term(m, part);
        if (part == kFivePrimeCount) c.normalised = m.normalised, c.reciprocal = m.reciprocal, c.shift = m.shift;
    }
    __syncthreads();
}

// The factor that takes a prime's products to the CRT's y_i (FivePrimes::to_modulus): the
// pointwise Montgomery products x y / 2^32 and the inverse transform without its 1 / N leave
// each coefficient times N / 2^32, so the factor is N^-1 2^32 (P / p)^-1 mod p. N divides p - 1,
// so N^-1 = p - (p - 1) / N. Host code: 64-bit divisions, which every thread of every block would
// otherwise repeat a prime.
ShoupFactor crt_factor(const PrimeField& f, const ShoupFactor& cofactor_inverse, int log_length)
{
    const std::uint32_t inverse = f.p - ((f.p - 1) >> log_length);
    const std::uint64_t scale = (std::uint64_t(inverse) << 32) % f.p;
    const std::uint32_t factor = std::uint32_t(scale * cofactor_inverse.w % f.p);
    return {factor, f.shoup(factor)};
}

template <int LogLength>
__global__ void __launch_bounds__(kThreads, 4) products_mod_n(const Args args)
{
    extern __shared__ std::uint32_t areas[];
    __shared__ Slots slots;
    constexpr int tiles = int(kTile >> LogLength);
    const std::size_t first_product = std::size_t(blockIdx.x) * tiles;
    const bool upper_zero = fill_slots(args, slots, first_product, tiles, 1u << LogLength);

    for (int i = 0; i < kFivePrimeCount; ++i) {
        const PrimeField f = args.primes.field[i];
        std::uint32_t* smem = areas + i * kAreaWords;  // a's tiles, then b's in the next area
        const ShoupFactor to_word = args.primes.word_base[i];
        const auto input = [&](int tile, std::uint32_t base, std::uint32_t offset) -> std::uint32_t {
            const int operand = tile >= tiles, q = tile - operand * tiles;
            const std::uint32_t e = base + offset;
            return e < slots.limit[operand][q] ? reduce_word64(f, to_word, slots.source[operand][q][e]) : 0;
        };
        // padded(x + offset) = padded(x) + padded(offset) where their bits are apart: one
        // address a group, constant offsets.
        const auto word = [&](int tile, std::uint32_t base, std::uint32_t offset) -> std::uint32_t& {
            return smem[padded((tile << LogLength) + base) + padded(offset)];
        };
        const auto from_smem = [&](int tile, std::uint32_t base, std::uint32_t offset) { return word(tile, base, offset); };
        const auto to_smem = [&](int tile, std::uint32_t base, std::uint32_t offset, std::uint32_t v) { word(tile, base, offset) = v; };
        // The last inverse pass leaves words below 4p, which the CRT's first product takes.
        const auto pointwise = [&](std::uint32_t x, std::uint32_t y) { return f.mul_montgomery(x, y); };
        const Twiddle *forward = args.tables.forward + i * kTile, *inverse = args.tables.inverse + i * kTile;
        tile_products<LogLength, kPassStages, kFusedStages>(tiles, args.square, upper_zero, forward, inverse, f, input, from_smem,
                                                            to_smem, pointwise, to_smem);
    }

    // Every coefficient from its five residues to its modulus.
    CrtSlots& crt = *reinterpret_cast<CrtSlots*>(areas + kFivePrimeCount * kAreaWords);
    fill_crt_slots(args, crt, first_product, tiles);
    for (std::uint32_t w = threadIdx.x; w < kTile; w += kThreads) {
        const int q = int(w >> LogLength);
        const std::uint32_t e = w & ((1u << LogLength) - 1);
        if (e >= slots.product_length[q]) continue;
        std::uint32_t r[kFivePrimeCount];
#pragma unroll
        for (int i = 0; i < kFivePrimeCount; ++i) r[i] = areas[i * kAreaWords + padded(w)];
        slots.product[q][e] = args.primes.to_modulus(r, args.crt_factors, crt.constants[q]);
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
