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
// the signed result itself, and a negative s (the pass leaves B^limbs + s) is negated (by
// crt_fix, a thread a value, up to 16 limbs; by crt_negate, a warp a value, above); unsigned, P
// is added back. Only where B/2 - k < l <= B/2 with
// sign (x within k P / B of P/2: a fraction of about k / B of random inputs) does the pass write
// D = S - h P, which a fix-up compares with P and 2x with P, limb by limb: exact on every input.
//
// Kernels: crt_prepare computes y_i (k products mod n_i a value) and F (2 k divisions by
// invariant words a value, about 4 products each); a combine kernel computes S, carries it and
// subtracts u P from the low limbs up (crt_combine_tensor.cu on the tensor cores for up to
// kCrtTensorMaxModuli moduli, crt_combine_words.cu in 64-bit words for more; crt_carry.cuh has
// the carrying lane's pass); crt_negate and crt_fix finish the values the estimate left open.
#include "kernels/modular/multi_crt.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "kernels/modular/crt_combine.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kPrepareLanes = 8;  // threads sharing one value's moduli in crt_prepare
// Negative small results of at most this many limbs are negated by crt_fix, a thread a value;
// longer ones by crt_negate, a warp a value.
constexpr std::uint32_t kFixNegateLimbs = 16;
constexpr std::size_t kChunkValues = kCrtTensorValues;  // a chunk's values: a multiple of every combine block's

// y and F of 32 values a block, the moduli shared by kPrepareLanes threads a value, 32 moduli at a
// time. y goes prime-major where c.y_stages is 0, else into the tensor kernel's stage images:
// then each thread's y_i wait in `rows` and leave 32 moduli of a value at a time, so that both
// the residues' loads and the stores of y are coalesced; the blocks past c.count write zeros up
// to a whole tensor block.
__global__ void __launch_bounds__(32 * kPrepareLanes) crt_prepare(const ConstResidueView r, const ModularTablesView t, const CrtChunk c)
{
    __shared__ limb_t high[kPrepareLanes][32], low[kPrepareLanes][32];
    __shared__ limb_t rows[32][33];  // [value][modulus]: odd length, distinct banks both ways
    const std::size_t e0 = std::size_t(blockIdx.x) * 32, e = e0 + threadIdx.x, k = t.count;
    const std::size_t moduli = c.y_stages != 0 ? c.y_stages * kCrtTensorStageModuli : k;
    limb_t h = 0, l = 0;
    for (std::size_t i0 = 0; i0 < moduli; i0 += 32) {
#pragma unroll
        for (int j = 0; j < 32 / kPrepareLanes; ++j) {
            const int column = threadIdx.y + kPrepareLanes * j;
            const std::size_t i = i0 + column;
            limb_t y = 0;
            if (e < c.count && i < k) {
                const CrtTerm term = crt_term(t.moduli[i], r.prime(i)[c.first + e], t.crt_inverses[i]);
                y = term.y;
                l += term.fraction;
                h += l < term.fraction;
                if (c.y_stages == 0) c.y[i * c.count + e] = y;
            }
            const std::uint32_t y0 = std::uint32_t(y), y1 = std::uint32_t(y >> 32);
            if (c.y_stages != 0) rows[threadIdx.x][column] = limb_t(__byte_perm(y1, 0, 0x0123)) << 32 | __byte_perm(y0, 0, 0x0123);
        }
        if (c.y_stages == 0) continue;
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 32 / kPrepareLanes; ++j) {
            const int value = threadIdx.y + kPrepareLanes * j;
            const std::size_t i = i0 + threadIdx.x;
            if (i < moduli) c.y[crt_y_image_word(e0 + value, i, c.y_stages)] = rows[value][threadIdx.x];
        }
        __syncthreads();
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
// 2x > P; s < 0 plus P (unsigned) or negated (signed, up to kFixNegateLimbs limbs).
__global__ void crt_fix(const ModularTablesView t, const bool sign, const CrtChunk c)
{
    const std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::uint32_t limbs = t.product_limbs;
    if (e >= c.count || c.pending[e] == 0 || (sign && c.pending[e] == kNegativeWrap && limbs > kFixNegateLimbs)) return;
    limb_t* x = c.out.element(e);
    const limb_t* p = t.product;
    if (c.pending[e] == kNegativeWrap && sign) {  // -s = 0 - (B^limbs + s), a few limbs
        bool borrow = false;
        std::uint32_t used = 0;
        for (std::uint32_t w = 0; w < limbs; ++w) {
            const limb_t r = limb_t(0) - x[w] - borrow;
            borrow = borrow || x[w] != 0;
            x[w] = r;
            if (r != 0) used = w + 1;
        }
        c.out.sizes[e] = -std::int32_t(used);
        return;
    }
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
// A warp a value (the others return at once), 128 limbs a step, 4 consecutive ones a lane, loaded
// before any is needed: limbs below the lowest nonzero one stay zero, that one becomes its
// negation, the ones above their complements.
__global__ void crt_negate(const ModularTablesView t, const CrtChunk c)
{
    constexpr int kLimbsPerLane = 4;
    const std::size_t e = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    if (e >= c.count || c.pending[e] != kNegativeWrap) return;  // the same for the whole warp
    limb_t* x = c.out.element(e);
    const std::uint32_t limbs = t.product_limbs;
    bool nonzero_below = false;
    std::uint32_t used = 0;
    for (std::uint32_t first = 0; first < limbs; first += 32 * kLimbsPerLane) {
        const std::uint32_t mine = first + kLimbsPerLane * lane;
        limb_t v[kLimbsPerLane];
#pragma unroll
        for (int q = 0; q < kLimbsPerLane; ++q) v[q] = mine + q < limbs ? x[mine + q] : 0;
        bool below = nonzero_below || (__ballot_sync(~0u, (v[0] | v[1] | v[2] | v[3]) != 0) & ((1u << lane) - 1)) != 0;
        std::uint32_t top = 0;
#pragma unroll
        for (int q = 0; q < kLimbsPerLane; ++q) {
            const limb_t r = below ? ~v[q] : limb_t(0) - v[q];
            below = below || v[q] != 0;
            if (mine + q < limbs) {
                x[mine + q] = r;
                if (r != 0) top = mine + q + 1;
            }
        }
        used = max(used, __reduce_max_sync(~0u, top));
        nonzero_below = __any_sync(~0u, below);
    }
    if (lane == 0) c.out.sizes[e] = -std::int32_t(used);
}

}  // namespace

void load_multi_crt_kernels()
{
    for (const void* kernel : {reinterpret_cast<const void*>(crt_prepare), reinterpret_cast<const void*>(crt_fix),
                               reinterpret_cast<const void*>(crt_negate)})
        load_kernel(kernel, "multi_crt: loading its kernels");
    load_crt_combine_kernels();
}

void multi_crt(ConstResidueView r, const ModularTablesView& tables, bool sign, BatchView out, cudaStream_t stream)
{
    if (r.count == 0) return;
    const std::size_t k = tables.count;
    if (out.count != r.count || r.primes != k || k == 0 || out.stride < tables.product_limbs)
        throw Error("multi_crt: internal error: " + std::to_string(r.count) + " values modulo " + std::to_string(r.primes) + " moduli into " +
                    std::to_string(out.count) + " values of stride " + std::to_string(out.stride) + " for " + std::to_string(k) +
                    " moduli of " + std::to_string(tables.product_limbs) + " limbs");
    const bool tensor = k <= kCrtTensorMaxModuli && crt_tensor_fits_device();
    const std::size_t y_stages = tensor ? crt_y_stages(k) : 0, y_words = tensor ? y_stages * kCrtTensorStageModuli : k;
    const std::size_t chunk =
        std::min((r.count + kChunkValues - 1) / kChunkValues * kChunkValues, std::max(kChunkValues, (std::size_t(1) << 25) / y_words / kChunkValues * kChunkValues));
    if ((chunk + 31) / 32 > 0x7fffffffu) throw Error("multi_crt: too many values for one launch");
    StreamMemory memory(chunk * ((y_words + 2) * sizeof(limb_t) + 1), stream);
    limb_t* y = static_cast<limb_t*>(memory.data());
    for (std::size_t first = 0; first < r.count; first += chunk) {
        const std::size_t n = std::min(chunk, r.count - first);
        const CrtChunk c{y, y_stages, y + y_words * chunk, y + (y_words + 1) * chunk, reinterpret_cast<std::uint8_t*>(y + (y_words + 2) * chunk),
                         first, n, BatchView{out.limbs + first * out.stride, out.sizes + first, n, out.stride}};
        const std::size_t rows = tensor ? (n + kCrtTensorValues - 1) / kCrtTensorValues * kCrtTensorValues : n;  // whole tensor blocks
        crt_prepare<<<unsigned((rows + 31) / 32), dim3(32, kPrepareLanes), 0, stream>>>(r, tables, c);
        check_launch("multi_crt: prepare kernel launch");
        if (tensor) crt_combine_tensor(tables, sign, c, stream);
        else crt_combine_words(tables, sign, c, stream);
        crt_fix<<<unsigned((n + 127) / 128), 128, 0, stream>>>(tables, sign, c);
        check_launch("multi_crt: fix-up kernel launch");
        if (sign && tables.product_limbs > kFixNegateLimbs) {
            crt_negate<<<unsigned((n + 7) / 8), 256, 0, stream>>>(tables, c);
            check_launch("multi_crt: negation kernel launch");
        }
    }
}

}  // namespace zgpu::kernels
