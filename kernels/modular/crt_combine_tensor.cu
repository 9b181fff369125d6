// S = sum_i y_i M_i on the tensor cores, carried into the values' magnitudes (multi_crt.cu has
// the algorithm around it). In bytes, y_i = sum_a y_ia 256^a and M_i = sum_x m_ix 256^x, so
//     S = sum_m D_m 256^m,   D_m = sum_i sum_(a < 8) y_ia m_i(m - a),
// a matrix product of the values' bytes (a row a value, a column (i, a)) with the bytes of the
// cofactors shifted by a (row (i, a), column m; m_ix = 0 outside the cofactor). D_m sums at most
// 8 k products below 2^16: under 2^31, so mma.m16n8k32 with unsigned bytes and its signed 32-bit
// sums is exact for k <= kCrtTensorMaxModuli. Eight columns make a limb: S's column w is
// sum_(b < 8) D_(8 w + b) 256^b, below 2^88; the carrying lane takes it from there.
//
// A block takes 128 values and the limbs in tiles of 16 from the low ones up (limb
// product_limbs too: the shifts carry bytes of the top cofactor limbs above it). Its 8 warps
// each compute 64 values x 4 limbs (4 x 4 mma tiles) over the moduli, 16 a stage through three
// shared-memory buffers filled by cp.async (two stages arrive while one is multiplied). Then the
// sums take the buffers' place, every thread turns eight of them into a column, the next tile's
// first stage is issued, and one lane a value carries the tile's columns. One mma step takes 4 moduli: K index
// s = 8 (i - i0) + a' of lane (g, t) holds y's byte a = 4 (a' / 4) + 3 - a' % 4, reversed in each
// half so that the B registers are ascending bytes of the cofactor: register bytes q = 0 .. 3 of
// column m = 8 w + g, rows a = 4 (t % 2) + 3 - q, are m_i(m - 4 (t % 2) - 3 + q), one unaligned
// word (two loads and a byte permutation). crt_prepare stores y that way, a value's moduli in a
// row (CrtChunk::y_row), so the A registers come from ldmatrix, the rows' 16-byte chunks
// permuted by the row's low bits to spread the banks.
#include "kernels/common/async_copy.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/mma_u8.cuh"
#include "kernels/modular/crt_combine.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kValues = 128;        // values a block
constexpr int kTileLimbs = 16;      // result limbs a tile: 128 byte columns
constexpr int kStageModuli = 16;    // moduli a stage: 128 bytes of each value's row of y
constexpr int kThreads = 256;       // 8 warps: 2 (64 values) x 4 (4 limbs)
constexpr int kCofactorLimbs = kTileLimbs + 1;  // limbs w0 - 1 .. w0 + 15 of each cofactor
constexpr int kCofactorWords = 36;  // 2 kCofactorLimbs and two words that the last loads touch but
                                    // the byte permutation leaves out
constexpr int kSumWords = 132;      // a value's column sums (128) with padding (distinct banks)
constexpr int kBuffers = 3;         // stages in shared memory: two arrive while one is multiplied

struct Stage {
    uint4 y[kValues][8];  // chunk c of value e's 128 bytes at c ^ (e % 8)
    std::uint32_t cofactor[kStageModuli][kCofactorWords];
};

struct Shared {
    union {
        Stage stages[kBuffers];
        std::uint32_t sums[kValues][kSumWords];  // D, once the stages are multiplied
    };
    // S's columns (two words a limb, the second half of each entry unused), then the limbs of
    // the magnitude in their place; a row padded to 17 entries: distinct banks for the carrying
    // lanes.
    uint4 columns[kValues][kTileLimbs + 1];
    CarryState carries[kValues];  // between tiles, so that the products have the registers
};

// The product of stage `s` (moduli i0 .., `steps` mma steps of 4) into acc: rows 64 wm .. of
// the block's values, limbs 4 wn .. of the tile, the first `live` of them.
__device__ __forceinline__ void multiply_stage(int (&acc)[4][4][4], const Stage& s, int steps, int wm, int wn, int live)
{
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    // Register bytes start at byte 8 (4 wn + jj) + g + 5 - 4 (t % 2) of a cofactor row (the row
    // begins one limb below the tile): one word at that offset mod 4, the same for every step.
    const std::uint32_t select = 0x3210 + 0x1111 * ((g + 1) % 4);
    const int column = 8 * 4 * wn + g + 5 - 4 * (t % 2);
    for (int step = 0; step < steps; ++step) {
        std::uint32_t b[4][2];
#pragma unroll
        for (int jj = 0; jj < 4; ++jj)
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                const std::uint32_t* cofactor = s.cofactor[4 * step + 2 * r + t / 2];
                const int word = (column + 8 * jj) / 4;
                b[jj][r] = __byte_perm(cofactor[word], cofactor[word + 1], select);
            }
#pragma unroll
        for (int mi = 0; mi < 4; ++mi) {
            std::uint32_t a[4];
            const int row = 64 * wm + 16 * mi + lane % 8 + 8 * (lane / 8 % 2), chunk = 2 * step + lane / 16;
            load_matrices(a, &s.y[row][chunk ^ (row % 8)]);
#pragma unroll
            for (int jj = 0; jj < 4; ++jj)
                if (jj < live) mma_u8(acc[mi][jj], a[0], a[1], a[2], a[3], b[jj][0], b[jj][1]);
        }
    }
}

__global__ void __launch_bounds__(kThreads, 2) crt_combine_tensor_kernel(const ModularTablesView t, const bool sign, const CrtChunk c)
{
    extern __shared__ uint4 shared_memory[];
    Shared& s = *reinterpret_cast<Shared*>(shared_memory);
    const int tid = threadIdx.x, warp = tid / 32, wm = warp / 4, wn = warp % 4;
    const std::size_t e0 = std::size_t(blockIdx.x) * kValues, k = t.count, row = c.y_row;
    const std::uint32_t limbs = t.product_limbs;

    const std::size_t mine = e0 + tid;
    const bool carrier = tid < kValues && mine < c.count;
    if (carrier) {  // shared memory has no constructors: the state starts from a fresh one
        CarryState st;
        st.begin(c, mine, k, sign);
        s.carries[tid] = st;
    }
    // Stage n of tile w0: bytes 128 n .. of each value's row of y, and limbs w0 - 1 .. of the
    // cofactors of moduli 16 n .., zeros outside the values, the moduli and the cofactors' limbs.
    const auto load = [&](std::uint32_t w0, std::size_t n) {
        Stage& stage = s.stages[n % kBuffers];
#pragma unroll 1
        for (int idx = tid; idx < kValues * 8; idx += kThreads) {
            const int e = idx / 8, chunk = idx % 8;
            const bool valid = e0 + e < c.count;
            copy_chunk_async(&stage.y[e][chunk ^ (e % 8)], valid ? c.y + (e0 + e) * row + kStageModuli * n + 2 * chunk : c.y, valid);
        }
#pragma unroll 1
        for (int idx = tid; idx < kStageModuli * kCofactorLimbs; idx += kThreads) {
            const int i = idx / kCofactorLimbs, l = idx % kCofactorLimbs;
            const std::size_t modulus = kStageModuli * n + i;
            const std::int64_t limb = std::int64_t(w0) - 1 + l;
            const bool valid = modulus < k && limb >= 0 && limb < limbs;
            copy_word_async(reinterpret_cast<limb_t*>(&stage.cofactor[i][2 * l]), valid ? t.cofactors + modulus * limbs + limb : t.cofactors,
                            valid);
        }
        commit_copies();
    };
    const std::size_t stages = (k + kStageModuli - 1) / kStageModuli;
    load(0, 0);  // each tile's first stage is issued before the previous tile's carries
    for (std::uint32_t w0 = 0; w0 <= limbs; w0 += kTileLimbs) {
        // Stages n + 1 and n + 2 are in flight while stage n is multiplied (an empty group where
        // there is no such stage keeps the count). One barrier a stage: it makes stage n visible
        // and frees the buffer of stage n - 1 for stage n + 2.
        for (std::size_t n = 1; n + 1 < kBuffers; ++n) {
            if (n < stages) load(w0, n);
            else commit_copies();
        }
        int acc[4][4][4] = {};
        const std::int64_t left = std::int64_t(limbs) + 1 - w0 - 4 * wn;
        const int live = left < 4 ? int(left) : 4;
        for (std::size_t n = 0; n < stages; ++n) {
            wait_for_copies<kBuffers - 2>();
            __syncthreads();
            if (n + kBuffers - 1 < stages) load(w0, n + kBuffers - 1);
            else commit_copies();
            const std::size_t quads = (k - kStageModuli * n + 3) / 4;
            if (live > 0) multiply_stage(acc, s.stages[n % kBuffers], quads < 4 ? int(quads) : 4, wm, wn, live);
        }
        __syncthreads();  // the stages are read: the sums take their place

        const int lane = tid % 32, g = lane / 4, tt = lane % 4;
#pragma unroll
        for (int mi = 0; mi < 4; ++mi)
#pragma unroll
            for (int jj = 0; jj < 4; ++jj) {
                const int e = 64 * wm + 16 * mi + g, column = 8 * (4 * wn + jj) + 2 * tt;
                *reinterpret_cast<uint2*>(&s.sums[e][column]) = make_uint2(acc[mi][jj][0], acc[mi][jj][1]);
                *reinterpret_cast<uint2*>(&s.sums[e + 8][column]) = make_uint2(acc[mi][jj][2], acc[mi][jj][3]);
            }
        __syncthreads();
        // S's columns, every thread: column w of value e is sum_b D_(8 w + b) 256^b.
        for (int idx = tid; idx < kValues * kTileLimbs; idx += kThreads) {
            const int e = idx / kTileLimbs, w = idx % kTileLimbs;
            const uint4 low = *reinterpret_cast<const uint4*>(&s.sums[e][8 * w]), high = *reinterpret_cast<const uint4*>(&s.sums[e][8 * w + 4]);
            const std::uint32_t d[8] = {low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w};
            unsigned __int128 column = 0;
#pragma unroll
            for (int b = 0; b < 8; ++b) column += (unsigned __int128)d[b] << (8 * b);
            s.columns[e][w] = make_uint4(std::uint32_t(column), std::uint32_t(column >> 32), std::uint32_t(column >> 64),
                                         std::uint32_t(column >> 96));
        }
        __syncthreads();
        if (w0 + kTileLimbs <= limbs) load(w0 + kTileLimbs, 0);  // the sums are read: the next tile's stages may come
        if (carrier) {
            // P's limbs first, all loads in flight at once, not one a step of the chain.
            limb_t product[kTileLimbs];
#pragma unroll
            for (int w = 0; w < kTileLimbs; ++w) product[w] = w0 + w < limbs ? t.product[w0 + w] : 0;
            CarryState st = s.carries[tid];
#pragma unroll
            for (int w = 0; w < kTileLimbs; ++w) {
                if (w0 + w > limbs) break;
                uint4& entry = s.columns[tid][w];
                const limb_t c0 = limb_t(entry.y) << 32 | entry.x, c1 = limb_t(entry.w) << 32 | entry.z;
                if (w0 + w == limbs) {
                    st.add_above(c0, c1);
                    break;
                }
                const limb_t d = st.limb(c0, c1, 0, product[w], w0 + w);
                entry.x = std::uint32_t(d);
                entry.y = std::uint32_t(d >> 32);
            }
            s.carries[tid] = st;
        }
        __syncthreads();
        for (int idx = tid; idx < kValues * kTileLimbs; idx += kThreads) {
            const int e = idx / kTileLimbs, w = idx % kTileLimbs;
            const uint4 entry = s.columns[e][w];
            if (e0 + e < c.count && w0 + w < limbs) c.out.element(e0 + e)[w0 + w] = limb_t(entry.y) << 32 | entry.x;
        }
        // The next tile writes the columns again only after a barrier of its stages.
    }
    if (carrier) s.carries[tid].finish(c, mine);
    const std::uint32_t above = c.out.stride - limbs;
    for (std::size_t idx = tid; idx < std::size_t(kValues) * above; idx += kThreads) {
        const std::size_t e = idx / above;
        if (e0 + e < c.count) c.out.element(e0 + e)[limbs + idx % above] = 0;
    }
}

}  // namespace

void crt_combine_tensor(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream)
{
    const int bytes = int(sizeof(Shared));
    // More than the default 48 KiB of shared memory a block (the same value from every call).
    check(cudaFuncSetAttribute(crt_combine_tensor_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
          "multi_crt: shared memory of the tensor kernel");
    crt_combine_tensor_kernel<<<unsigned((c.count + kValues - 1) / kValues), kThreads, bytes, stream>>>(t, sign, c);
    check_launch("multi_crt: tensor combine kernel launch");
}

}  // namespace zgpu::kernels
