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
// each compute 64 values x 4 limbs (4 x 4 mma tiles) over the moduli, 16 a stage. A stage's
// bytes of y (the A operand) and limbs of the cofactors arrive by cp.async in one of three
// buffers, two stages ahead; the block then spreads the cofactor bytes into the B operand, each
// column's 128 bytes (i, a) in a row, and the warps load both operands with ldmatrix. Then the
// sums take the buffers' place, every thread turns eight of them into a column, the next tile's
// first stage is issued, and one lane a value carries the tile's columns.
//
// Byte order along K: an mma step takes 4 moduli, K index s = 8 (i - i0) + a'. Byte a' of a
// modulus is y's byte a = 4 (a' / 4) + 3 - a' % 4 (each 32-bit half reversed, as crt_prepare
// stores y), so that in column m the bytes a' = 0 .. 3 are m_i(m - 3) .. m_i(m) and a' = 4 .. 7
// are m_i(m - 7) .. m_i(m - 4): two words of the cofactor at unaligned offsets, cut from aligned
// ones by funnel shifts.
#include "kernels/common/async_copy.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/mma_u8.cuh"
#include "kernels/modular/crt_combine.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kValues = kCrtTensorValues;  // values a block
constexpr int kTileLimbs = 16;      // result limbs a tile: 128 byte columns
constexpr int kStageModuli = kCrtTensorStageModuli;  // moduli a stage: 128 bytes of each value
constexpr int kThreads = 256;       // 8 warps: 2 (64 values) x 4 (4 limbs)
constexpr int kCofactorLimbs = kTileLimbs + 1;  // limbs w0 - 1 .. w0 + 15 of each cofactor
constexpr int kCofactorWords = 36;  // 2 kCofactorLimbs, then two words the last shifts read but
                                    // do not use
constexpr int kSumWords = 132;      // a value's column sums (128) with padding (distinct banks)
constexpr int kBuffers = 3;         // stages in shared memory: two arrive while one is used

struct Stage {
    uint4 y[kValues][8];  // chunk c of value e's 128 bytes at c ^ (e % 8), as crt_prepare lays it
    std::uint32_t cofactor[kStageModuli][kCofactorWords];
};

// Chunk c of column m of the B operand sits at c ^ ((m + m / 8) % 8): distinct banks for the 8
// columns of an ldmatrix and for the 16 limbs the spreading threads write at once.
__device__ __forceinline__ int b_chunk(int m, int c) { return c ^ ((m + m / 8) % 8); }

struct Shared {
    union {
        struct {
            Stage stages[kBuffers];
            uint4 b[8 * kTileLimbs][8];  // column m's 128 bytes (i, a'), chunk c at b_chunk(m, c)
        };
        std::uint32_t sums[kValues][kSumWords];  // D, once the stages are multiplied
    };
    // S's columns (two words a limb: the low one in x, y, the high one in z, w), then the limbs
    // of the magnitude in x, y; a row padded to 17 entries: distinct banks for the carrying lanes.
    uint4 columns[kValues][kTileLimbs + 1];
    CarryState carries[kValues];  // between tiles, so that the products have the registers
};

// The B operand of a stage from its cofactor limbs: thread (i, L) writes the 8 columns of limb L
// for modulus i. Column m = 8 L + d takes the words at bytes m + 5 and m + 1 of the cofactor row
// (which begins one limb below the tile).
__device__ __forceinline__ void spread_cofactors(Shared& s, const Stage& stage)
{
    const int i = threadIdx.x / kTileLimbs, limb = threadIdx.x % kTileLimbs;
    const std::uint32_t* row = stage.cofactor[i] + 2 * limb;
    std::uint32_t w[5];
#pragma unroll
    for (int j = 0; j < 5; ++j) w[j] = row[j];
    // b_chunk(m, i / 2) for m = 8 limb + d is (i / 2) ^ ((limb + d) % 8); modulus i's 8 bytes are
    // half i % 2 of that chunk.
    uint2* columns = reinterpret_cast<uint2*>(&s.b[8 * limb][0]) + i % 2;
#pragma unroll
    for (int d = 0; d < 8; ++d) {
        const int shift = 8 * ((d + 1) % 4);
        const std::uint32_t low = __funnelshift_r(w[(d + 5) / 4], w[(d + 5) / 4 + 1], shift);
        const std::uint32_t high = __funnelshift_r(w[(d + 1) / 4], w[(d + 1) / 4 + 1], shift);
        columns[2 * (8 * d + ((i / 2) ^ ((limb + d) % 8)))] = make_uint2(low, high);
    }
}

// The product of one stage (`steps` mma steps of 4 moduli) into acc: rows 64 wm .. of the
// block's values, limbs 4 wn .. of the tile (past product_limbs the cofactors' zeros: no test
// between the mma instructions, which would make each wait for the warp).
__device__ __forceinline__ void multiply_stage(int (&acc)[4][4][4], const Shared& s, const Stage& stage, int steps, int wm, int wn)
{
    const int lane = threadIdx.x % 32;
    for (int step = 0; step < steps; ++step) {
        std::uint32_t b[4][2];
#pragma unroll
        for (int pair = 0; pair < 2; ++pair) {
            // Matrices (limb 2 pair, bytes 0-15 of the step), (its bytes 16-31), then limb 2 pair + 1.
            const int m = 8 * (4 * wn + 2 * pair + lane / 16) + lane % 8, c = 2 * step + lane / 8 % 2;
            std::uint32_t r[4];
            load_matrices(r, &s.b[m][b_chunk(m, c)]);
            b[2 * pair][0] = r[0], b[2 * pair][1] = r[1], b[2 * pair + 1][0] = r[2], b[2 * pair + 1][1] = r[3];
        }
#pragma unroll
        for (int mi = 0; mi < 4; ++mi) {
            std::uint32_t a[4];
            const int row = 64 * wm + 16 * mi + lane % 8 + 8 * (lane / 8 % 2), chunk = 2 * step + lane / 16;
            load_matrices(a, &stage.y[row][chunk ^ (row % 8)]);
#pragma unroll
            for (int jj = 0; jj < 4; ++jj) mma_u8(acc[mi][jj], a[0], a[1], a[2], a[3], b[jj][0], b[jj][1]);
        }
    }
}

__global__ void __launch_bounds__(kThreads, 2) crt_combine_tensor_kernel(const ModularTablesView t, const bool sign, const CrtChunk c)
{
    extern __shared__ uint4 shared_memory[];
    Shared& s = *reinterpret_cast<Shared*>(shared_memory);
    const int tid = threadIdx.x, warp = tid / 32, wm = warp / 4, wn = warp % 4;
    const std::size_t e0 = std::size_t(blockIdx.x) * kValues, k = t.count, stages = c.y_stages;
    const std::uint32_t limbs = t.product_limbs;
    const limb_t* y_image = c.y + e0 * stages * kStageModuli;  // this block's stages, one after another

    const std::size_t mine = e0 + tid;
    const bool carrier = tid < kValues && mine < c.count;
    if (carrier) {  // shared memory has no constructors: the state starts from a fresh one
        CarryState st;
        st.begin(c, mine, k, sign);
        s.carries[tid] = st;
    }
    // Stage n of tile w0: the block's image of y for moduli 16 n .. (crt_prepare wrote it as the
    // buffer holds it, zeros past k and the values), and limbs w0 - 1 .. of those moduli's
    // cofactors, zeros outside the moduli and the cofactors' limbs.
    const auto load = [&](std::uint32_t w0, std::size_t n) {
        Stage& stage = s.stages[n % kBuffers];
        const uint4* image = reinterpret_cast<const uint4*>(y_image + n * kValues * kStageModuli);
#pragma unroll
        for (int r = 0; r < kValues * 8 / kThreads; ++r)
            copy_chunk_async(&stage.y[0][0] + tid + kThreads * r, image + tid + kThreads * r, true);
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
    load(0, 0);  // each tile's first stage is issued before the previous tile's carries
    for (std::uint32_t w0 = 0; w0 <= limbs; w0 += kTileLimbs) {
        if (stages > 1) load(w0, 1);
        else commit_copies();  // an empty group where there is no such stage keeps the count
        int acc[4][4][4] = {};
        const bool live = w0 + 4 * wn <= limbs;  // the warp has limbs of S
        for (std::size_t n = 0; n < stages; ++n) {
            // Stage n has arrived for this thread, then for all; everyone is done with stage
            // n - 1, whose buffer takes stage n + 2, and with the B operand.
            wait_for_copies<kBuffers - 2>();
            __syncthreads();
            if (n + 2 < stages) load(w0, n + 2);
            else commit_copies();
            const Stage& stage = s.stages[n % kBuffers];
            spread_cofactors(s, stage);
            __syncthreads();
            const std::size_t quads = (k - kStageModuli * n + 3) / 4;
            if (live) multiply_stage(acc, s, stage, quads < 4 ? int(quads) : 4, wm, wn);
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
            // Each half of four sums below 2^56 (multiply-adds into 64 bits), then the high half
            // 2^32 up: the column's two words.
            const limb_t x = low.x + (limb_t(low.y) << 8) + (limb_t(low.z) << 16) + (limb_t(low.w) << 24);
            const limb_t y = high.x + (limb_t(high.y) << 8) + (limb_t(high.z) << 16) + (limb_t(high.w) << 24);
            const limb_t c0 = x + (y << 32), c1 = (y >> 32) + (c0 < x);
            s.columns[e][w] = make_uint4(std::uint32_t(c0), std::uint32_t(c0 >> 32), std::uint32_t(c1), std::uint32_t(c1 >> 32));
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
    zero_above_product(c, e0, kValues, limbs);
}

}  // namespace

bool crt_tensor_fits_device()
{
    int device = 0, limit = 0;
    check(cudaGetDevice(&device), "multi_crt: the current device");
    check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "multi_crt: the device's shared memory");
    return std::size_t(limit) >= sizeof(Shared);
}

void load_crt_combine_tensor_kernel()
{
    load_kernel(reinterpret_cast<const void*>(crt_combine_tensor_kernel), "multi_crt: loading the tensor combining kernel");
}

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
