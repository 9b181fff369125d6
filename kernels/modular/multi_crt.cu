// CRT as a matrix product. With P = n_0 ... n_(k-1), M_i = P / n_i, c_i = M_i^-1 mod n_i and
// y_i = r_i c_i mod n_i:
//   S = sum_i y_i M_i = x + t P  with  x in [0, P),  S / P = T = sum_i y_i / n_i,  t = floor(T).
// t comes from fixed-point fractions f_i = floor(y_i B / n_i) (B = 2^64), each low by less than
// one unit: F = sum_i f_i satisfies T B - k < F <= T B, so T lies in [F / B, (F + k) / B).
// Writing F = h B + l: if l <= B - k, t = h exactly and x / P = T - t lies in [l / B, (l + k) / B),
// which also decides 2x > P (l > B/2) or 2x < P (l + k <= B/2) for the signed range. Then one
// low-to-high pass gives the result's magnitude: x = S - t P, or P - x = (t + 1) P - S for a
// negative result. Where l > B - k, S / P lies within k / B of h + 1, so s = S - (h + 1) P has
// |s| < k P / B: the pass computes s and its last borrow gives its sign. That is the common case
// of a CRT whose values are small against P, negative ones above all (x = P - |value|): s is
// the signed result itself, and a negative s (the pass leaves B^limbs + s) is negated by a warp
// a value, coalesced (crt_negate); unsigned, P is added back. Only where B/2 - k < l <= B/2 with
// sign (x within k P / B of P/2: a fraction of about k / B of random inputs) does the pass write
// D = S - h P, which a fix-up compares with P and 2x with P, limb by limb: exact on every input.
//
// Kernels: crt_prepare computes y_i (k products mod n_i a value) and F; crt_combine computes S
// in tiles of 32 values x 32 limbs (the last tile 16 or 8 limbs wide where fewer are left),
// looping over the moduli 16 at a time through double-buffered shared memory (cp.async: the
// next stage arrives while the products of this one run; each of 128 threads holds 2 x 4
// column sums, 2 x 2 or 2 x 1 in the narrow tiles; the last stage skips the moduli past k),
// then carries the columns, subtracts u P and stores, tile after tile from the low limbs up
// (one warp carries, a lane a value);
// crt_negate and crt_fix finish the values the estimate left open. Cost: k * product_limbs terms a value,
// each a 64 x 64 -> 128-bit product added into 32-bit digit columns (DigitSum: 4 IMAD.WIDE.U32
// with carries and about 1.5 IADD3.X, as multi_mod.cu counts); crt_prepare adds 2 k divisions
// by invariant words (about 4 products each).
#include "kernels/modular/multi_crt.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/async_copy.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kPrepareLanes = 8;     // threads sharing one value's moduli in crt_prepare
constexpr int kTileValues = 32;      // values a crt_combine block (one warp carries them)
constexpr int kTileLimbs = 32;       // result limbs a tile (at most)
constexpr int kStageModuli = 16;     // moduli a shared-memory stage
constexpr int kCombineThreads = 128; // 16 x 8 threads, each 2 values x 4 limbs

// One chunk of values and its temporaries: y (prime-major, stride count), h and l of F, and
// what is left for crt_fix (0: done; 1 + limb `product_limbs` of D; kNegativeWrap: s < 0).
constexpr std::uint8_t kNegativeWrap = 3;

struct CrtChunk {
    limb_t* y;
    limb_t* quotient;
    limb_t* fraction;
    std::uint8_t* pending;
    std::size_t first, count;
    BatchView out;  // the chunk's values
};

__global__ void __launch_bounds__(32 * kPrepareLanes) crt_prepare(const ConstResidueView r, const ModularTablesView t, const CrtChunk c)
{
    __shared__ limb_t high[kPrepareLanes][32], low[kPrepareLanes][32];
    const std::size_t e = std::size_t(blockIdx.x) * 32 + threadIdx.x;
    limb_t h = 0, l = 0;
    if (e < c.count) {
        for (std::size_t i = threadIdx.y; i < t.count; i += kPrepareLanes) {
            const Modulus m = t.moduli[i];
            const limb_t y = m.mul(r.prime(i)[c.first + e], t.crt_inverses[i]);
            c.y[i * c.count + e] = y;
            const limb_t f = m.divide(y, 0).quotient;  // floor(y B / n) < B as y < n
            l += f;
            h += l < f;
        }
    }
    high[threadIdx.y][threadIdx.x] = h;
    low[threadIdx.y][threadIdx.x] = l;
    __syncthreads();
    if (threadIdx.y != 0 || e >= c.count) return;
    for (int lane = 1; lane < kPrepareLanes; ++lane) {
        l += low[lane][threadIdx.x];
        h += high[lane][threadIdx.x] + (l < low[lane][threadIdx.x]);
    }
    c.quotient[e] = h;
    c.fraction[e] = l;
}

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

// A carrying lane's value between limb tiles: u, the direction, and the running carries.
struct CarryState {
    limb_t u = 0, s_carry0 = 0, s_carry1 = 0, p_carry = 0;  // S's carry (two words), u P's (one)
    bool negative = false, open = false, wrap = false, borrow = false;
    std::uint32_t used = 0;  // limbs up to the highest nonzero one so far
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
            // S's limb: the column's low word plus the carry; the carry then takes the
            // column's upper words. A column sums k products below B^2 and the carry stays
            // below (k + 1) B: two words.
            const limb_t sw = column[0] + st.s_carry0;
            const limb_t cy = sw < st.s_carry0;
            limb_t c0 = column[1] + st.s_carry1;
            limb_t c1 = column[2] + (c0 < st.s_carry1);
            c0 += cy;
            c1 += c0 < cy;
            st.s_carry0 = c0;
            st.s_carry1 = c1;
            // u P's limb.
            const limb_t pw = t.product[w0 + w], low = st.u * pw, p = low + st.p_carry;
            st.p_carry = mul_high(st.u, pw) + (p < low);
            // The magnitude: S - u P, or u P - S for a negative result.
            const limb_t x = st.negative ? p : sw, y = st.negative ? sw : p;
            const limb_t d = x - y - st.borrow;
            st.borrow = x < y || (x == y && st.borrow);
            column[0] = d;
            if (d != 0) st.used = w0 + w + 1;
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
    if (carrier) {
        const limb_t l = c.fraction[mine], half = limb_t(1) << 63;
        if (l > limb_t(0) - k) st.wrap = true;  // l > B - k: s = S - (h + 1) P is small
        else if (sign && l > half) st.negative = true;
        else if (sign && l > half - k) st.open = true;  // 2x vs P undecided
        st.u = c.quotient[mine] + (st.negative || st.wrap);
    }
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
    if (carrier) {
        // Limb `limbs` of the difference: 0 for a finished value, 0 or 1 for D, all ones for a
        // negative s (S < k P and u P < k P keep both below k B^limbs, so one word holds what
        // is above).
        const limb_t x = st.negative ? st.p_carry : st.s_carry0, y = st.negative ? st.s_carry0 : st.p_carry;
        const limb_t top = x - y - st.borrow;
        const bool negative_wrap = st.wrap && top != 0;  // s < 0: the pass left B^limbs + s
        c.pending[mine] = negative_wrap ? kNegativeWrap : st.open ? std::uint8_t(1 + (top & 1)) : 0;
        if (!st.open && !negative_wrap) c.out.sizes[mine] = st.negative ? -std::int32_t(st.used) : std::int32_t(st.used);
    }
    const std::uint32_t above = c.out.stride - limbs;
    for (std::size_t idx = tid; idx < std::size_t(E) * above; idx += kCombineThreads) {
        const std::size_t e = idx / above;
        if (e0 + e < c.count) c.out.element(e0 + e)[limbs + idx % above] = 0;
    }
}

// r = a - b over n limbs, a >= b; r may be a or b (each limb is read before it is written).
__device__ void subtract(limb_t* r, const limb_t* a, const limb_t* b, std::uint32_t n)
{
    bool borrow = false;
    for (std::uint32_t w = 0; w < n; ++w) {
        const limb_t d = a[w] - b[w] - borrow;
        borrow = a[w] < b[w] || (a[w] == b[w] && borrow);
        r[w] = d;
    }
}

// The values the estimate left open, one thread each, limb by limb: D (limbs below
// product_limbs in out, the next in pending) minus P where D >= P, then P - x where sign and
// 2x > P.
__global__ void crt_fix(const ModularTablesView t, const bool sign, const CrtChunk c)
{
    const std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e >= c.count || c.pending[e] == 0 || (sign && c.pending[e] == kNegativeWrap)) return;
    limb_t* x = c.out.element(e);
    const limb_t* p = t.product;
    const std::uint32_t limbs = t.product_limbs;
    if (c.pending[e] == kNegativeWrap) {  // unsigned: x = s + P, below P
        bool carry = false;
        for (std::uint32_t w = 0; w < limbs; ++w) {
            const limb_t sum = x[w] + p[w] + carry;
            carry = sum < p[w] || (sum == p[w] && carry);
            x[w] = sum;
        }
        std::uint32_t used = limbs;
        while (used > 0 && x[used - 1] == 0) --used;
        c.out.sizes[e] = std::int32_t(used);
        return;
    }

    bool at_least_p = c.pending[e] == 2;
    if (!at_least_p) {
        at_least_p = true;  // D == P also subtracts
        for (std::uint32_t w = limbs; w-- > 0;)
            if (x[w] != p[w]) {
                at_least_p = x[w] > p[w];
                break;
            }
    }
    if (at_least_p) subtract(x, x, p, limbs);
    bool negative = false;
    if (sign) {  // 2x > P, from the top: limb `limbs` of 2x first
        negative = (x[limbs - 1] >> 63) != 0;
        if (!negative)
            for (std::uint32_t w = limbs; w-- > 0;) {
                const limb_t twice = (x[w] << 1) | (w > 0 ? x[w - 1] >> 63 : 0);
                if (twice != p[w]) {
                    negative = twice > p[w];
                    break;
                }
            }
    }
    if (negative) subtract(x, p, x, limbs);
    std::uint32_t used = limbs;
    while (used > 0 && x[used - 1] == 0) --used;
    c.out.sizes[e] = negative ? -std::int32_t(used) : std::int32_t(used);
}

// Negative small results (signed): the value's limbs hold B^limbs + s; -s = B^limbs - that.
// A warp takes 32 values and negates those that need it one after another, 32 limbs a step:
// limbs below the lowest nonzero one stay zero, that one becomes its negation, the ones above
// their complements.
__global__ void crt_negate(const ModularTablesView t, const CrtChunk c)
{
    const std::size_t first_value = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * 32;
    const unsigned lane = threadIdx.x % 32;
    const bool mine = first_value + lane < c.count && c.pending[first_value + lane] == kNegativeWrap;
    const std::uint32_t limbs = t.product_limbs;
    for (unsigned todo = __ballot_sync(~0u, mine); todo; todo &= todo - 1) {
        const std::size_t e = first_value + __ffs(todo) - 1;
        limb_t* x = c.out.element(e);
        bool nonzero_below = false;
        std::uint32_t used = 0;
        for (std::uint32_t first = 0; first < limbs; first += 32) {
            const std::uint32_t w = first + lane;
            const limb_t v = w < limbs ? x[w] : 0;
            const unsigned nonzero = __ballot_sync(~0u, v != 0);
            const bool complement = nonzero_below || (nonzero & ((1u << lane) - 1)) != 0;
            const limb_t r = complement ? ~v : limb_t(0) - v;
            if (w < limbs) x[w] = r;
            const unsigned written = __ballot_sync(~0u, w < limbs && r != 0);
            if (written) used = first + 32 - __clz(written);
            nonzero_below = nonzero_below || nonzero != 0;
        }
        if (lane == 0) c.out.sizes[e] = -std::int32_t(used);
    }
}

}  // namespace

void multi_crt(ConstResidueView r, const ModularTablesView& tables, bool sign, BatchView out, cudaStream_t stream)
{
    if (r.count == 0) return;
    const std::size_t k = tables.count;
    if (out.count != r.count || r.primes != k || k == 0 || out.stride < tables.product_limbs)
        throw Error("multi_crt: internal error: " + std::to_string(r.count) + " values modulo " + std::to_string(r.primes) + " moduli into " +
                    std::to_string(out.count) + " values of stride " + std::to_string(out.stride) + " for " + std::to_string(k) +
                    " moduli of " + std::to_string(tables.product_limbs) + " limbs");
    const std::size_t chunk =
        std::min(r.count, std::max<std::size_t>(kTileValues, (std::size_t(1) << 25) / k / kTileValues * kTileValues));
    if ((chunk + kTileValues - 1) / kTileValues > 0x7fffffffu) throw Error("multi_crt: too many values for one launch");
    StreamMemory memory(chunk * ((k + 2) * sizeof(limb_t) + 1), stream);
    limb_t* y = static_cast<limb_t*>(memory.data());
    for (std::size_t first = 0; first < r.count; first += chunk) {
        const std::size_t n = std::min(chunk, r.count - first);
        const CrtChunk c{y, y + k * chunk, y + (k + 1) * chunk, reinterpret_cast<std::uint8_t*>(y + (k + 2) * chunk), first, n,
                         BatchView{out.limbs + first * out.stride, out.sizes + first, n, out.stride}};
        const unsigned blocks = unsigned((n + kTileValues - 1) / kTileValues);
        crt_prepare<<<blocks, dim3(32, kPrepareLanes), 0, stream>>>(r, tables, c);
        check_launch("multi_crt: prepare kernel launch");
        crt_combine<<<blocks, kCombineThreads, 0, stream>>>(tables, sign, c);
        check_launch("multi_crt: combine kernel launch");
        crt_fix<<<unsigned((n + 127) / 128), 128, 0, stream>>>(tables, sign, c);
        check_launch("multi_crt: fix-up kernel launch");
        if (sign) {
            crt_negate<<<unsigned((n + 255) / 256), 256, 0, stream>>>(tables, c);
            check_launch("multi_crt: negation kernel launch");
        }
    }
}

}  // namespace zgpu::kernels
