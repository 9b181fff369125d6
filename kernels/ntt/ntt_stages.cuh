// The butterflies of the NTTs (mul_ntt.cu in 32-bit words, kernels/poly/ in 64-bit ones):
// groups of 2^K elements in registers, K stages at a time, and passes of such groups over a tile
// in shared memory. Field is a field of ntt_field.hpp or ntt_field64.hpp: its Word, its Twiddle
// (a table entry) and its arithmetic.
//
// Stage s pairs elements i and i + 2^s (bit s of i clear); its twiddle is w_2h^(+-j) with
// h = 2^s and j = i mod 2h = i mod h: table entry h + j. The butterflies are lazy_butterflies.hpp's
// forward ones (DIF, stages from the top) and inverse ones (DIT, from the bottom), on lazy
// residues, corrected where butterfly_bounds.hpp works out that a group needs it.
#pragma once

#include "kernels/common/thread_team.cuh"
#include "kernels/ntt/butterfly_bounds.hpp"
#include "kernels/ntt/lazy_butterflies.hpp"
#include "kernels/ntt/ntt_field64.hpp"
#include "kernels/ntt/ntt_tables.hpp"

namespace zgpu::kernels {

// An int known at compile time, for the passes' stages (std::integral_constant converts to int
// in host code only).
template <int N>
struct Fixed {
    static constexpr int value = N;
    __host__ __device__ constexpr operator int() const { return N; }
};

// A twiddle and its companion in one load: 8 bytes for the 32-bit primes, 16 for the 64-bit ones.
__device__ __forceinline__ Twiddle load_twiddle(const Twiddle* entry)
{
    const uint2 w = __ldg(reinterpret_cast<const uint2*>(entry));
    return {w.x, w.y};
}
__device__ __forceinline__ Twiddle64 load_twiddle(const Twiddle64* entry)
{
    const ulonglong2 w = __ldg(reinterpret_cast<const ulonglong2*>(entry));
    return {w.x, w.y};
}

// The bound of the words a group takes in (butterfly_bounds.hpp): `in`, or with in = 0 the
// passes' boundary, H / 2 forward and H inverse.
template <bool Forward, class Field>
__host__ __device__ constexpr int group_input_bound(int in)
{
    return in ? in : Forward ? Field::kHeadroom / 2 : Field::kHeadroom;
}

// Stage k's butterfly on v[m] and v[h] by the twiddle w, with the bounds of the group's plan.
template <bool Forward, int K, class Field, class Word, class Twiddle>
__device__ __forceinline__ void planned_butterfly(const Field& f, Word (&v)[1 << K], int k, int m, int h, const Twiddle& w,
                                                  const GroupBounds<K>& g)
{
    if constexpr (Forward) forward_butterfly(f, v[m], v[h], w, g.bound[k][m], g.bound[k][h], g.bound[k + 1][m]);
    else inverse_butterfly(f, v[m], v[h], w, g.bound[k][m], g.operand[k][m]);
}

// Stages s_lo + K - 1 down to s_lo (Forward) or s_lo up to s_lo + K - 1 on the 2^K elements
// v[m] = element base + m * 2^s_lo (bits s_lo .. s_lo + K - 1 of base clear). s_lo is an int, or
// a Fixed where the pass is known at compile time. UpperZero (Forward only): v[m] is zero for
// m >= 2^(K-1), and the top stage multiplies instead of a full butterfly. In: the words' bound
// (group_input_bound).
template <bool Forward, int K, bool UpperZero = false, int In = 0, class Field, class SLo>
__device__ void butterflies(typename Field::Word (&v)[1 << K], std::uint32_t base, SLo s_lo,
                            const typename Field::Twiddle* table, const Field& f)
{
    constexpr int in = group_input_bound<Forward, Field>(In);
    constexpr GroupBounds<K> g = Forward ? forward_bounds<K>(Field::kHeadroom, in, UpperZero, false)
                                         : inverse_bounds<K>(Field::kHeadroom, in, false);
    static_assert(g.exact);
    // j = i mod 2^s for i = base + m * 2^s_lo: base's bits below s_lo, the same for the whole
    // group, and m's bits below `level`: one pointer a group, and an offset that unrolling makes
    // a constant where s_lo is one.
    const typename Field::Twiddle* group_table = table + (base & ((1u << s_lo) - 1));
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int level = Forward ? K - 1 - k : k;  // pairs m and m + 2^level
        const int s = s_lo + level;
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) {
            if (m & (1 << level)) continue;
            const int h = m + (1 << level);
            const std::uint32_t offset = (1u << s) + (std::uint32_t(m & ((1 << level) - 1)) << s_lo);
            const auto w = load_twiddle(group_table + offset);
            if (UpperZero && k == 0) forward_upper_zero_butterfly(f, v[m], v[h], w);
            else planned_butterfly<Forward>(f, v, k, m, h, w, g);
        }
    }
}

// The bottom K stages of a group of 2^K consecutive elements (its first a multiple of 2^K):
// butterflies with j = 0 have the twiddle 1 and skip their product (the unit butterflies),
// a fraction (2^K - 1) / (K 2^(K-1)) of them, 7/12 for K = 3. In: as butterflies'.
template <bool Forward, int K, int In = 0, class Field>
__device__ void bottom_butterflies(typename Field::Word (&v)[1 << K], const typename Field::Twiddle* table, const Field& f)
{
    constexpr int in = group_input_bound<Forward, Field>(In);
    constexpr GroupBounds<K> g = Forward ? forward_bounds<K>(Field::kHeadroom, in, false, true)
                                         : inverse_bounds<K>(Field::kHeadroom, in, true);
    static_assert(g.exact);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int level = Forward ? K - 1 - k : k;
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) {
            if (m & (1 << level)) continue;
            const int h = m + (1 << level);
            const std::uint32_t j = std::uint32_t(m & ((1 << level) - 1));
            if (j == 0) {
                if constexpr (Forward) forward_unit_butterfly(f, v[m], v[h], g.bound[k][m], g.bound[k][h], g.bound[k + 1][m]);
                else inverse_unit_butterfly(f, v[m], v[h], g.bound[k][m], g.bound[k][h], g.operand[k][m], g.operand[k][h]);
            } else {
                planned_butterfly<Forward>(f, v, k, m, h, load_twiddle(table + (1u << level) + j), g);
            }
        }
    }
}

// Tiles in shared memory: one padding word every 32, so that the strided groups of a pass
// fall into different banks.
__device__ inline std::uint32_t padded(std::uint32_t i) { return i + (i >> 5); }
__host__ __device__ constexpr std::uint32_t padded_words(std::uint32_t tile) { return tile + tile / 32; }

// Groups in the order of the threads.
struct InOrder {
    __device__ static std::uint32_t group(std::uint32_t r, int, int, int) { return r; }
};

// The element index of group g's first element in a pass over stages s_lo .. s_lo + K - 1.
__device__ inline std::uint32_t group_base(std::uint32_t g, int s_lo, int K)
{
    return (g & ((1u << s_lo) - 1)) | ((g >> s_lo) << (s_lo + K));
}

// One pass of K stages over `tiles` tiles of 2^log_tile elements: group g of a tile reads its
// 2^K elements with load(tile, base, m * 2^s_lo), runs the butterflies in registers and writes
// them with store(tile, base, m * 2^s_lo, value): element base + m * 2^s_lo, the offset's bits
// clear in base, so that an address can be the group's plus the offset's. The team's threads
// (thread_team.cuh) share the groups; ends with the team's barrier. log_tile and s_lo: ints, or
// Fixed. UpperZero: the upper half of each group (m >= 2^(K-1)) is known to be zero and is not
// loaded, as on the first forward pass of a transform whose input fills at most half of it.
// In: the loaded words' bound (butterflies). Order: which group of its tile the team's r-th
// takes, Order::group(r, s_lo, K, log_groups) (InOrder: group r), for layouts whose banks some
// other order spreads better.
template <bool Forward, int K, bool UpperZero = false, int In = 0, class Team, class Field, class LogTile, class SLo, class Load,
          class Store, class Order = InOrder>
__device__ void group_pass(const Team& team, int tiles, LogTile log_tile, SLo s_lo, const typename Field::Twiddle* table,
                           const Field& f, Load load, Store store, Order = {})
{
    const int log_groups = log_tile - K;
    for (std::uint32_t g = team.rank(); g < (std::uint32_t(tiles) << log_groups); g += team.size()) {
        const int tile = g >> log_groups;
        const std::uint32_t r = g & ((1u << log_groups) - 1);
        const std::uint32_t base = group_base(Order::group(r, s_lo, K, log_groups), s_lo, K);
        typename Field::Word v[1 << K];
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) v[m] = UpperZero && m >= (1 << (K - 1)) ? 0 : load(tile, base, std::uint32_t(m) << s_lo);
        butterflies<Forward, K, UpperZero, In>(v, base, s_lo, table, f);
#pragma unroll
        for (int m = 0; m < (1 << K); ++m) store(tile, base, std::uint32_t(m) << s_lo, v[m]);
    }
    team.sync();
}

// group_pass by the whole block.
template <bool Forward, int K, bool UpperZero = false, class Field, class LogTile, class SLo, class Load, class Store>
__device__ void group_pass(int tiles, LogTile log_tile, SLo s_lo, const typename Field::Twiddle* table, const Field& f,
                           Load load, Store store)
{
    group_pass<Forward, K, UpperZero>(BlockTeam(), tiles, log_tile, s_lo, table, f, load, store);
}

// group_pass with K (1 to 4) chosen at run time, on the pass of stages s_lo .. s_lo + K - 1.
template <bool Forward, class Field, class Load, class Store>
__device__ void group_pass(int K, int tiles, int log_tile, int s_lo, const typename Field::Twiddle* table,
                           const Field& f, Load load, Store store)
{
    switch (K) {
    case 1: return group_pass<Forward, 1>(tiles, log_tile, s_lo, table, f, load, store);
    case 2: return group_pass<Forward, 2>(tiles, log_tile, s_lo, table, f, load, store);
    case 3: return group_pass<Forward, 3>(tiles, log_tile, s_lo, table, f, load, store);
    default: return group_pass<Forward, 4>(tiles, log_tile, s_lo, table, f, load, store);
    }
}

}  // namespace zgpu::kernels
