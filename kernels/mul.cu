// Batched signed multiplication of packed big integers, classical (layout: limb_batch.hpp).
//
// T threads (T <= 32, a segment of a warp) work on one product; thread t owns the L result
// columns [t*L, t*L+L). For each limb a_i it takes one new limb of b into a sliding window and
// adds a_i * b_(c-i) into its columns' 192-bit accumulators (low, high, top words), so each
// limb costs one load of a and one of b per L multiply-adds. The result is then
//   R = sum_c low_c 2^(64c) + sum_c high_c 2^(64(c+1)) + sum_c top_c 2^(64(c+2)),
// two additions with binary carries, each resolved across the group by the carry lookahead of
// thread_group.cuh (seed 000's low/high/carry words and final scan addition).
// Exactness: a column sums at most min(|a|, |b|) <= 2^16 products below 2^128, so its sum is
// below 2^144 and fits the 192 bits; R itself has at most |a| + |b| limbs.
#include "mul.hpp"

#include <bit>
#include <string>

#include "limb_access.cuh"
#include "thread_group.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 256;

struct MulArgs {
    ConstBatchView a, b;
    BatchView r;
    bool broadcast_b;
};

// acc += x * y, as one carry chain: the high half of x*y (at most 2^64 - 2) plus the carry out
// of the low word cannot wrap by itself, so the top word takes at most one carry. A column sum
// stays below 2^144 (see above), so 32 bits hold its top word.
__device__ void multiply_add(limb_t& low, limb_t& high, std::uint32_t& top, limb_t x, limb_t y)
{
    asm("mad.lo.cc.u64 %0, %3, %4, %0;\n\t"
        "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
        "addc.u32 %2, %2, 0;"
        : "+l"(low), "+l"(high), "+r"(top)
        : "l"(x), "l"(y));
}

// v += shifted, position by position with carries across the group: v_j + shifted_j + carry.
// Returns nothing; `v` holds the sum (the caller guarantees it fits).
template <int L, class Group>
__device__ void add_columns(const Group& group, limb_t (&v)[L], const limb_t (&shifted)[L])
{
    bool generate = false, propagate = true;
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const limb_t s = v[j] + shifted[j];
        const bool p = s == ~limb_t(0);
        generate = (s < v[j]) || (p && generate);
        propagate = propagate && p;
    }
    bool carry = group.carries(generate, propagate).into[0];
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const limb_t s = v[j] + shifted[j];
        const limb_t sum = s + carry;
        carry = (s < v[j]) || (carry && s == ~limb_t(0));
        v[j] = sum;
    }
}

// The L words of `w` shifted up by `by` (1 or 2) positions across the group: position j takes
// w[j - by], from the previous thread for the first positions; zeros enter at the bottom.
template <int T, int L, class Word>
__device__ void shift_up(const Word (&w)[L], int by, limb_t (&out)[L], int rank)
{
    limb_t from_previous[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const limb_t mine = w[L - 1 - k];  // my top words go to the next thread (L >= 2)
        const limb_t v = __shfl_up_sync(kFullWarp, mine, 1, T);
        from_previous[k] = rank > 0 ? v : 0;  // k = 0: previous thread's top word
    }
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const int source = j - by;
        out[j] = source >= 0 ? w[source] : from_previous[-source - 1];
    }
}

template <int T, int L>
__global__ void __launch_bounds__(kBlockThreads) mul_kernel(const MulArgs args)
{
    static_assert(T <= 32 && L >= 2, "a product is a segment of a warp, two columns a thread at least");
    using Group = ThreadGroup<T>;
    typename Group::Shared none;
    const Group group(none);
    const std::size_t i = std::size_t(blockIdx.x) * (kBlockThreads / T) + group.instance_in_block();
    const bool live = i < args.a.count;  // dead threads still join every collective
    const std::size_t bi = args.broadcast_b ? 0 : i;
    const std::int32_t size_a = live ? args.a.sizes[i] : 0, size_b = live ? args.b.sizes[bi] : 0;
    const int na = abs(size_a), nb = abs(size_b);
    const limb_t* a = live ? args.a.element(i) : nullptr;
    const limb_t* b = live ? args.b.element(bi) : nullptr;

    const int first = group.rank() * L;  // my columns: first .. first + L - 1
    limb_t low[L] = {}, high[L] = {};
    std::uint32_t top[L] = {};
    // Column c gets a_i * b_(c-i). For a_i, my columns need b_(first-i) .. b_(first-i+L-1):
    // a window that moves down by one limb as i grows.
    const int i_begin = max(0, first - nb + 1), i_end = min(na, first + L);
    limb_t window[L];
#pragma unroll
    for (int j = 0; j < L; ++j) {
        const int k = first - i_begin + j;
        window[j] = k >= 0 && k < nb ? __ldg(b + k) : 0;
    }
    for (int ai = i_begin; ai < i_end; ++ai) {
        const limb_t x = __ldg(a + ai);
#pragma unroll
        for (int j = 0; j < L; ++j) multiply_add(low[j], high[j], top[j], x, window[j]);
#pragma unroll
        for (int j = L - 1; j > 0; --j) window[j] = window[j - 1];
        const int k = first - ai - 1;
        window[0] = k >= 0 && k < nb ? __ldg(b + k) : 0;
    }

    // R = low + (high << 64) + (top << 128), all within the group's T*L columns.
    limb_t shifted[L];
    shift_up<T, L>(high, 1, shifted, group.rank());
    add_columns(group, low, shifted);
    shift_up<T, L>(top, 2, shifted, group.rank());
    add_columns(group, low, shifted);

    std::uint32_t used = 0;
#pragma unroll
    for (int j = 0; j < L; ++j)
        if (low[j] != 0) used = first + j + 1;
    used = group.max(used);
    if (!live) return;
    store_limbs(args.r.element(i), args.r.stride, first, low);
    for (std::uint32_t k = T * L + group.rank() * 2; k < args.r.stride; k += 2 * T) {  // padding above
        limb_t zero[2] = {};
        store_limbs(args.r.element(i), args.r.stride, k, zero);
    }
    if (group.rank() == 0) args.r.sizes[i] = (size_a < 0) != (size_b < 0) ? -std::int32_t(used) : std::int32_t(used);
}

template <int T, int L>
void launch(const MulArgs& args, cudaStream_t stream)
{
    const std::size_t per_block = kBlockThreads / T;
    const std::size_t blocks = (args.a.count + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) throw Error("mul: batch of " + std::to_string(args.a.count) + " elements exceeds one launch");
    mul_kernel<T, L><<<unsigned(blocks), kBlockThreads, 0, stream>>>(args);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string("mul kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace

// The shape by the product's length a.stride + b.stride: one thread up to 16 columns; beyond,
// eight columns a thread up to a warp (256 columns), and sixteen for up to 512 columns (the
// accumulators take 3 words a column: 16 columns need 221 registers).
void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    if (a.count == 0) return;
    if (std::max(a.stride, b.stride) > kMulMaxOperandLimbs)
        throw Error("mul: operands of more than " + std::to_string(kMulMaxOperandLimbs) + " limbs are not multiplied on the GPU yet");
    const MulArgs args{a, b, r, broadcast_b};
    const std::uint32_t columns = a.stride + b.stride;
    if (columns <= 16) {
        switch (std::bit_ceil(columns)) {
        case 2: return launch<1, 2>(args, stream);
        case 4: return launch<1, 4>(args, stream);
        case 8: return launch<1, 8>(args, stream);
        default: return launch<1, 16>(args, stream);
        }
    }
    if (columns > 256) return launch<32, 16>(args, stream);
    switch (std::bit_ceil((columns + 7) / 8)) {
    case 4: return launch<4, 8>(args, stream);
    case 8: return launch<8, 8>(args, stream);
    case 16: return launch<16, 8>(args, stream);
    default: return launch<32, 8>(args, stream);
    }
}

}  // namespace zgpu::kernels
