// S = sum_i y_i M_i in 64-bit words on the integer multiply-add units, carried into the values'
// magnitudes (multi_crt.cu has the algorithm around it); for sets of more moduli than the tensor
// kernel's sums hold. A block computes S in tiles of 32 values x 32 limbs (the last tile 16 or 8
// limbs wide where fewer are left), looping over the moduli 16 at a time through double-buffered
// shared memory (cp.async: the next stage arrives while the products of this one run; each of
// 128 threads holds 2 x 4 column sums, 2 x 2 or 2 x 1 in the narrow tiles; the last stage skips
// the moduli past k), then carries the columns, subtracts u P and stores, tile after tile from
// the low limbs up (one warp carries, a lane a value). Cost: k * product_limbs terms a value,
// each a 64 x 64 -> 128-bit product added into 32-bit digit columns (DigitSum: 4 IMAD.WIDE.U32
// with carries and about 1.5 IADD3.X, as multi_mod.cu counts).
#include "kernels/common/async_copy.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/crt_combine.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kTileValues = 32;      // values a block (one warp carries them)
constexpr int kTileLimbs = 32;       // result limbs a tile (at most)
constexpr int kStageModuli = 16;     // moduli a shared-memory stage
constexpr int kCombineThreads = 128; // 16 x 8 threads, each 2 values x 4 limbs

constexpr int E = kTileValues, I = kStageModuli;

// One stage's operands: y_i of the tile's values and the limbs of M_i, for I moduli.
struct CombineStage {
    limb_t ys[I][E];
    limb_t ms[I][kTileLimbs];
};

struct CombineShared {
    CombineStage stages[2];  // the products read one while the next one arrives
    limb_t columns[E][3 * kTileLimbs + 1];  // odd row length: the carrying lanes hit distinct banks
};

// acc += the products of the stage's first n moduli (n == I, a constant, folds the test away;
// the last stage skips the moduli past k instead of multiplying their zeros).
template <int MB>
__device__ __forceinline__ void accumulate(DigitSum (&acc)[2][MB], const CombineStage& s, int te, int tw, int n)
{
#pragma unroll
    for (int i = 0; i < I; ++i) {
        if (i == n) break;
        limb_t yv[2], mv[MB];
#pragma unroll
        for (int a = 0; a < 2; ++a) yv[a] = s.ys[i][te + 16 * a];
#pragma unroll
        for (int b = 0; b < MB; ++b) mv[b] = s.ms[i][tw + 8 * b];
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int b = 0; b < MB; ++b) acc[a][b].add_product(yv[a], mv[b]);
    }
}

// Result limbs w0 .. w0 + 8 MB - 1 of the block's values: S's columns over all moduli (each
// thread 2 values x MB limbs), then the carrying lanes turn them into limbs of the magnitude,
// then the block stores them.
template <int MB>
__device__ __forceinline__ void combine_tile(const ModularTablesView& t, const CrtChunk& c, CombineShared& s, std::uint32_t w0,
                                             bool carrier, CarryState& st)
{
    constexpr int W = 8 * MB;
    const int tid = threadIdx.x, te = tid % 16, tw = tid / 16;
    const std::size_t e0 = std::size_t(blockIdx.x) * E, k = t.count;
    const std::uint32_t limbs = t.product_limbs;

    // Stage n (moduli I n ..) into stages[n % 2], zeros past k and past the values and limbs.
    const auto load = [&](std::size_t n) {
        CombineStage& stage = s.stages[n % 2];
        const std::size_t i0 = n * I;
        for (int idx = tid; idx < I * E; idx += kCombineThreads) {
            const int i = idx / E, e = idx % E;
            const bool valid = i0 + i < k && e0 + e < c.count;
            copy_word_async(&stage.ys[i][e], valid ? &c.y[(i0 + i) * c.count + e0 + e] : c.y, valid);
        }
        for (int idx = tid; idx < I * W; idx += kCombineThreads) {
            const int i = idx / W, w = idx % W;
            const bool valid = i0 + i < k && w0 + w < limbs;
            copy_word_async(&stage.ms[i][w], valid ? &t.cofactors[(i0 + i) * limbs + w0 + w] : t.cofactors, valid);
        }
        commit_copies();
    };

    // Both buffers are free: the previous tile's last barrier follows its last products.
    DigitSum acc[2][MB];
    double_buffered_stages((k + I - 1) / I, load, [&](std::size_t n) {
        const std::size_t i0 = n * I;
        if (k - i0 >= std::size_t(I)) accumulate<MB>(acc, s.stages[n % 2], te, tw, I);
        else accumulate<MB>(acc, s.stages[n % 2], te, tw, int(k - i0));
    });
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < MB; ++b) {
            const ThreeWords sum = acc[a][b].words();
            limb_t* column = &s.columns[te + 16 * a][3 * (tw + 8 * b)];
            column[0] = sum.w0;
            column[1] = sum.w1;
            column[2] = sum.w2;
        }
    __syncthreads();
    if (carrier) {
        for (int w = 0; w < W && w0 + w < limbs; ++w) {
            limb_t* column = &s.columns[tid][3 * w];
            column[0] = st.limb(column[0], column[1], column[2], t.product[w0 + w], w0 + w);
        }
    }
    __syncthreads();
    for (int idx = tid; idx < E * W; idx += kCombineThreads) {
        const int e = idx / W, w = idx % W;
        if (e0 + e < c.count && w0 + w < limbs) c.out.element(e0 + e)[w0 + w] = s.columns[e][3 * w];
    }
}

__global__ void __launch_bounds__(kCombineThreads, 3) crt_combine(const ModularTablesView t, const bool sign, const CrtChunk c)
{
    __shared__ CombineShared s;
    const int tid = threadIdx.x;
    const std::size_t e0 = std::size_t(blockIdx.x) * E, k = t.count;
    const std::uint32_t limbs = t.product_limbs;

    // Lane tid of warp 0 carries value e0 + tid.
    const std::size_t mine = e0 + tid;
    const bool carrier = tid < E && mine < c.count;
    CarryState st;
    if (carrier) st.begin(c, mine, k, sign);
    // Tiles of 32 limbs, the last one 16 or 8 wide where fewer limbs are left: under 16 padded
    // limbs, and under 8 where the limbs left are at most 16 (68 limbs: 32 + 32 + 8).
    for (std::uint32_t w0 = 0; w0 < limbs;) {
        const std::uint32_t rest = limbs - w0;
        if (rest > 16) {
            combine_tile<4>(t, c, s, w0, carrier, st);
            w0 += 32;
        } else if (rest > 8) {
            combine_tile<2>(t, c, s, w0, carrier, st);
            w0 += 16;
        } else {
            combine_tile<1>(t, c, s, w0, carrier, st);
            w0 += 8;
        }
    }
    if (carrier) st.finish(c, mine);
    zero_above_product(c, e0, E, limbs);
}

}  // namespace

void load_crt_combine_kernels()
{
    load_kernel(reinterpret_cast<const void*>(crt_combine), "multi_crt: loading the combining kernels");
    load_crt_combine_tensor_kernel();
}

void crt_combine_words(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream)
{
    crt_combine<<<unsigned((c.count + kTileValues - 1) / kTileValues), kCombineThreads, 0, stream>>>(t, sign, c);
    check_launch("multi_crt: combine kernel launch");
}

}  // namespace zgpu::kernels
