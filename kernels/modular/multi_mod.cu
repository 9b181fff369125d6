// Reduction as a matrix product: residue(e, i) = sum_j x_e[j] (B^j mod n_i), the limbs of the
// values times the table of powers, accumulated exactly in three words, then reduced mod n_i.
//
// A block computes a tile of E elements x K moduli (GEMM-like): J limbs of its E elements and J
// rows of K powers a stage go through double-buffered shared memory (cp.async: the next stage
// arrives while the products of this one run), and each of its 128 threads holds ME x MK
// accumulators. Limb j = b R + c uses powers[c] (R = kPowerBlock); at the end of each block of
// R limbs the three-word sum is reduced and folded into the residue times block_powers[b], so
// the tables stay at 512 words a modulus for any length.
//
// Values of at most 4 limbs take a simpler kernel, a thread a residue (multi_mod_short).
//
// Cost: one term x_e[j] * power is one 64 x 64 -> 128-bit product added into 32-bit digit
// columns (DigitSum): 4 IMAD.WIDE.U32 with carry in and out and about 1.5 IADD3.X in SASS,
// where three 64-bit words took 4 IMAD.WIDE.U32, about 3 IMAD and 6.5 IADD3. Counted as 8 IMADs
// (four 32 x 32-bit products, low and high halves each), as bench_mul counts a limb product. count * limbs * k terms in all, padded to
// the tile (k up to a multiple of K); the reductions (3 divisions by invariant word a block of
// R limbs and one product mod n) add under 10 % from 16 limbs up. Shared memory a term: (ME +
// MK) / (ME MK) = 3/4 words loaded, within its bandwidth at the IMAD rate.
#include "kernels/modular/multi_mod.hpp"

#include <string>

#include "kernels/common/async_copy.cuh"
#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 128;

template <int TE, int TK, int ME, int MK, int J>
__global__ void __launch_bounds__(kThreads, 3) multi_mod_kernel(const ConstBatchView x, const ModularTablesView t, const ResidueView out)
{
    static_assert(TE * TK == kThreads && kPowerBlock % J == 0);
    constexpr int E = TE * ME, K = TK * MK;
    // Two stages: the products read one while the next one arrives. +1: the rows that a warp
    // reads at once fall on different banks.
    __shared__ limb_t xs[2][E][J + 1];
    __shared__ limb_t ps[2][J][K];
    __shared__ std::uint32_t sizes[E];
    __shared__ std::uint32_t longest;

    const int tid = threadIdx.x, te = tid % TE, tk = tid / TE;
    // Consecutive blocks take the moduli tiles of one element tile, so that its limbs are read
    // from memory once and then from L2 (the powers, 4 KiB a modulus, stay in L2 anyway).
    const std::size_t k = t.count, tiles = (k + K - 1) / K;
    const std::size_t e0 = blockIdx.x / tiles * E, i0 = blockIdx.x % tiles * K;
    if (tid == 0) longest = 0;
    __syncthreads();
    for (int e = tid; e < E; e += kThreads) {
        const std::uint32_t size = e0 + e < x.count ? abs(x.sizes[e0 + e]) : 0;
        sizes[e] = size;
        atomicMax(&longest, size);
    }
    __syncthreads();
    const std::uint32_t limbs = longest;  // the tile's longest element: shorter ones read zeros

    limb_t residue[ME][MK] = {};
    DigitSum acc[ME][MK];

    // Stage n (limbs J n ..) into buffer n % 2, zeros past each element's size and past k.
    const auto load = [&](std::size_t n) {
        const std::uint32_t j0 = std::uint32_t(n) * J, c0 = j0 % kPowerBlock;  // a stage lies inside one block of R limbs
        for (int idx = tid; idx < E * J; idx += kThreads) {
            const int e = idx / J, j = idx % J;
            const bool valid = j0 + j < sizes[e];
            copy_word_async(&xs[n % 2][e][j], valid ? &x.element(e0 + e)[j0 + j] : x.limbs, valid);
        }
        for (int idx = tid; idx < J * K; idx += kThreads) {
            const int j = idx / K, c = idx % K;
            const bool valid = i0 + c < k;
            copy_word_async(&ps[n % 2][j][c], valid ? &t.powers[(c0 + j) * k + i0 + c] : t.powers, valid);
        }
        commit_copies();
    };

    double_buffered_stages((limbs + J - 1) / J, load, [&](std::size_t n) {
        const std::uint32_t j0 = std::uint32_t(n) * J;
#pragma unroll
        for (int j = 0; j < J; ++j) {
            limb_t xv[ME], pv[MK];
#pragma unroll
            for (int a = 0; a < ME; ++a) xv[a] = xs[n % 2][te + TE * a][j];
#pragma unroll
            for (int b = 0; b < MK; ++b) pv[b] = ps[n % 2][j][tk + TK * b];
#pragma unroll
            for (int a = 0; a < ME; ++a)
#pragma unroll
                for (int b = 0; b < MK; ++b) acc[a][b].add_product(xv[a], pv[b]);
        }
        // End of a block of R limbs, or of the elements: fold the block's sum into the residues.
        // At most R terms below B^2 each: the top word stays below R.
        if ((j0 + J) % kPowerBlock == 0 || j0 + J >= limbs) {
            const std::uint32_t block = j0 / kPowerBlock;
#pragma unroll
            for (int b = 0; b < MK; ++b) {
                // Moduli past k (the last tile) compute with modulus k - 1 and store nothing.
                const std::size_t i = min(i0 + tk + TK * b, k - 1);
                const Modulus m = t.moduli[i];
                const limb_t q = t.block_powers[block * k + i];
#pragma unroll
                for (int a = 0; a < ME; ++a) {
                    residue[a][b] = m.addmul(residue[a][b], m.reduce(acc[a][b].words()), q);
                    acc[a][b] = DigitSum{};
                }
            }
        }
    });

#pragma unroll
    for (int a = 0; a < ME; ++a) {
        const std::size_t e = e0 + te + TE * a;
        if (e >= x.count) continue;
        const bool negative = x.sizes[e] < 0;
#pragma unroll
        for (int b = 0; b < MK; ++b) {
            const std::size_t i = i0 + tk + TK * b;
            if (i >= k) continue;
            const limb_t r = residue[a][b];
            out.prime(i)[e] = negative ? t.moduli[i].neg(r) : r;
        }
    }
}

// Values of at most kShortLimbs limbs: a thread a residue, e fastest (the stores of a modulus's
// residues and the values' limbs coalesced, the powers the same for a warp). The tile kernel's
// stages and its fold of three-word sums at the end would cost more than these few products.
constexpr std::uint32_t kShortLimbs = 4;
constexpr int kShortThreads = 256;

__global__ void __launch_bounds__(kShortThreads) multi_mod_short(const ConstBatchView x, const ModularTablesView t, const ResidueView out)
{
    const std::size_t e = std::size_t(blockIdx.x) * kShortThreads + threadIdx.x, i = blockIdx.y;
    if (e >= x.count) return;
    const std::int32_t size = x.sizes[e];
    const std::uint32_t limbs = size < 0 ? -size : size;
    const limb_t* value = x.element(e);
    ThreeWords sum;
#pragma unroll
    for (std::uint32_t j = 0; j < kShortLimbs; ++j)
        if (j < limbs) sum.add_product(value[j], t.powers[j * t.count + i]);
    const Modulus m = t.moduli[i];
    const limb_t r = m.reduce(sum);
    out.prime(i)[e] = size < 0 ? m.neg(r) : r;
}

// The tile by the number of moduli (the fewest padded moduli: a tile of 32 would leave most of
// its threads idle at k <= 16) and the stage by the stride (J up to 16 limbs, no more than an
// element holds).
template <int TE, int TK, int ME, int MK>
void launch_tile(ConstBatchView x, const ModularTablesView& t, ResidueView out, cudaStream_t stream)
{
    constexpr int E = TE * ME, K = TK * MK;
    const std::size_t blocks = (x.count + E - 1) / E, tiles = (t.count + K - 1) / K;
    if (blocks * tiles > 0x7fffffffu)
        throw Error("multi_mod: " + std::to_string(x.count) + " values modulo " + std::to_string(t.count) + " moduli exceed one launch");
    const unsigned grid = unsigned(blocks * tiles);
    if (x.stride <= 1) multi_mod_kernel<TE, TK, ME, MK, 1><<<grid, kThreads, 0, stream>>>(x, t, out);
    else if (x.stride <= 2) multi_mod_kernel<TE, TK, ME, MK, 2><<<grid, kThreads, 0, stream>>>(x, t, out);
    else if (x.stride <= 4) multi_mod_kernel<TE, TK, ME, MK, 4><<<grid, kThreads, 0, stream>>>(x, t, out);
    else if (x.stride <= 8) multi_mod_kernel<TE, TK, ME, MK, 8><<<grid, kThreads, 0, stream>>>(x, t, out);
    else multi_mod_kernel<TE, TK, ME, MK, 16><<<grid, kThreads, 0, stream>>>(x, t, out);
    check_launch("multi_mod kernel launch");
}

// The kernels launch_tile<TE, TK, ME, MK> may launch.
template <int TE, int TK, int ME, int MK>
void load_tile()
{
    for (const void* kernel : {reinterpret_cast<const void*>(multi_mod_kernel<TE, TK, ME, MK, 1>),
                               reinterpret_cast<const void*>(multi_mod_kernel<TE, TK, ME, MK, 2>),
                               reinterpret_cast<const void*>(multi_mod_kernel<TE, TK, ME, MK, 4>),
                               reinterpret_cast<const void*>(multi_mod_kernel<TE, TK, ME, MK, 8>),
                               reinterpret_cast<const void*>(multi_mod_kernel<TE, TK, ME, MK, 16>)})
        load_kernel(kernel, "multi_mod: loading its kernels");
}

}  // namespace

void load_multi_mod_kernels()
{
    load_kernel(reinterpret_cast<const void*>(multi_mod_short), "multi_mod: loading its kernels");
    load_tile<16, 8, 4, 2>();
    load_tile<16, 8, 2, 4>();
}

void multi_mod(ConstBatchView x, const ModularTablesView& tables, ResidueView out, cudaStream_t stream)
{
    if (x.count == 0) return;
    if (out.count != x.count || out.primes != tables.count || tables.count == 0)
        throw Error("multi_mod: internal error: residues of " + std::to_string(out.count) + " values modulo " + std::to_string(out.primes) +
                    " moduli for " + std::to_string(x.count) + " values modulo " + std::to_string(tables.count));
    const std::size_t k = tables.count;
    if (x.stride <= kShortLimbs && k <= 65535) {
        const dim3 grid(unsigned((x.count + kShortThreads - 1) / kShortThreads), unsigned(k));
        if (grid.x > 0x7fffffffu) throw Error("multi_mod: " + std::to_string(x.count) + " values exceed one launch");
        multi_mod_short<<<grid, kShortThreads, 0, stream>>>(x, tables, out);
        check_launch("multi_mod kernel launch");
        return;
    }
    // 64 elements x 16 moduli where that pads k by at least a tenth less than 32 x 32 (k = 70:
    // 80 moduli against 96); the same products a thread and shared words a product either way,
    // but each element's limbs are read by twice as many blocks, which the large k cannot repay.
    const std::size_t padded16 = (k + 15) / 16 * 16, padded32 = (k + 31) / 32 * 32;
    if (10 * padded16 <= 9 * padded32) launch_tile<16, 8, 4, 2>(x, tables, out, stream);
    else launch_tile<16, 8, 2, 4>(x, tables, out, stream);
}

}  // namespace zgpu::kernels
