// A tile's products in shared memory: forward transforms of both operands, the pointwise product
// and the inverse transform, on words of any Field of ntt_stages.cuh. The polynomial products
// (kernels/poly/) run every transform up to a tile long this way, and the bottom of longer ones.
#pragma once

#include "kernels/ntt/ntt_stages.cuh"

namespace zgpu::kernels {

// A pointwise step that maps a whole group of a tile at once, pointwise.group(tile, u) (its type
// names WholeGroup), where its words' work is long (a polynomial evaluated at each): the group's
// independent chains interleave, where one word at a time would wait on each chain's latency.
template <class Pointwise>
concept GroupPointwise = requires { typename Pointwise::WholeGroup; };

// Calls body(Fixed<First + i * Step>()) for i = 0 .. Count - 1: loops over
// passes whose stages are known at compile time.
template <int First, int Step, int Count, class Body>
__device__ __forceinline__ void for_passes(Body body)
{
    if constexpr (Count > 0) {
        body(Fixed<First>());
        for_passes<First + Step, Step, Count - 1>(body);
    }
}

// Products of `tiles` pairs of transforms of 2^LogTile words (LogTile >= FusedStages): the
// forward stages below the tiles' top, the pointwise product, the inverse stages up to the top,
// in passes of PassStages over shared memory (a thread's group of 2^PassStages words in
// registers), the bottom FusedStages forward and inverse in one pass.
// Tiles 0 .. tiles - 1 hold a's words, the next `tiles` b's (a's alone for a square). Words come
// in by input(tile, base, offset) on the first forward pass, move through shared memory by
// from_smem(tile, base, offset) and to_smem(tile, base, offset, v), and leave by output(tile,
// base, offset, v) on the last inverse pass (a's tiles only): word base + offset of the tile,
// offset's bits clear in base (group_pass). pointwise(x, y) multiplies two spectra's words,
// scaled as the caller needs, or a GroupPointwise maps a's group (a square's).
// With LogTile known at compile time every pass's stages are, so that the words' and twiddles'
// addresses are a group's address plus constants: in the batch of 10^4 products of length 1024
// through five primes a group of 8 words (12 butterflies) took 224 instructions with the
// stages given at run time, 143 (forward) and 168 (inverse) with them compiled.
// The fused pass takes a group from the last forward stage to the first inverse one in
// registers, skipping the products by the twiddle 1.
// upper_zero (the same in the whole block): every tile's input is zero from 2^(LogTile - 1) on,
// so that the first pass loads half the words (the common case: two operands of length up to
// N/2).
// The steps below run it in four parts, each by a team of threads (thread_team.cuh) and ending
// with its barrier, for callers that overlap one tile's inverse with another's first pass. Order:
// the order of the groups in the passes over shared memory (group_pass). InputBound and
// PointwiseBound: the bounds of input's words and of pointwise's products (butterfly_bounds.hpp),
// 0 where they are the passes' (H / 2 and H).
template <int LogTile, int PassStages, int FusedStages, class Order = InOrder, int InputBound = 0, int PointwiseBound = 0>
struct TileProducts {
    static_assert(LogTile >= FusedStages);
    using LogLength = Fixed<LogTile>;
    // Forward: the stages above the fused ones, the top pass taking what is not a multiple of
    // PassStages.
    static constexpr int kAbove = LogTile - FusedStages, kFirstK = kAbove % PassStages ? kAbove % PassStages : PassStages;
    static constexpr int kInversePasses = (kAbove + PassStages - 1) / PassStages;

    // The top forward pass, from input; `operands` 1 (a square) or 2.
    template <class Team, class Field, class Input, class ToSmem>
    __device__ static void first_pass(const Team& team, int tiles, int operands, bool upper_zero, const typename Field::Twiddle* forward,
                                      const Field& f, Input input, ToSmem to_smem)
    {
        if constexpr (kAbove > 0) {
            using Top = Fixed<kAbove - kFirstK + FusedStages>;
            const int operand_tiles = operands * tiles;
            if (upper_zero)
                group_pass<true, kFirstK, true, InputBound>(team, operand_tiles, LogLength(), Top(), forward, f, input, to_smem, Order());
            else group_pass<true, kFirstK, false, InputBound>(team, operand_tiles, LogLength(), Top(), forward, f, input, to_smem, Order());
        }
    }

    // The forward passes between the top one and the fused one.
    template <class Team, class Field, class FromSmem, class ToSmem>
    __device__ static void middle_passes(const Team& team, int tiles, int operands, const typename Field::Twiddle* forward,
                                         const Field& f, FromSmem from_smem, ToSmem to_smem)
    {
        if constexpr (kAbove > 0)
            for_passes<kAbove - kFirstK - PassStages + FusedStages, -PassStages, (kAbove - kFirstK) / PassStages>([&](auto s_lo) {
                group_pass<true, PassStages>(team, operands * tiles, LogLength(), s_lo, forward, f, from_smem, to_smem, Order());
            });
    }

    // The fused pass: the bottom stages forward on both, pointwise product, the same inverse.
    // square: a bool, or Fixed<1> / Fixed<0> for a loop that carries only its case (the
    // five-prime kernel: 1.5 % faster; the 64-bit kernels spill more registers with it).
    template <class Team, class Field, class FromSmem, class ToSmem, class Pointwise, class Square>
    __device__ static void fused_pass(const Team& team, int tiles, Square square, const typename Field::Twiddle* forward,
                                      const typename Field::Twiddle* inverse, const Field& f, FromSmem from_smem, ToSmem to_smem,
                                      Pointwise pointwise)
    {
        constexpr int kGroup = 1 << FusedStages;
        constexpr std::uint32_t kMask = (1u << LogTile) - 1;
        for (std::uint32_t g = team.rank(); g < (std::uint32_t(tiles) << LogTile) / kGroup; g += team.size()) {
            const int tile = int((kGroup * g) >> LogTile);
            const std::uint32_t first = (kGroup * g) & kMask;
            typename Field::Word u[kGroup], v[kGroup];
#pragma unroll
            for (int m = 0; m < kGroup; ++m) {
                u[m] = from_smem(tile, first, m);
                v[m] = square ? 0 : from_smem(tiles + tile, first, m);
            }
            if (!square) bottom_butterflies<true, FusedStages>(v, forward, f);
            bottom_butterflies<true, FusedStages>(u, forward, f);
            if constexpr (GroupPointwise<Pointwise>) pointwise.group(tile, u);
            else {
#pragma unroll
                for (int m = 0; m < kGroup; ++m) u[m] = pointwise(u[m], square ? u[m] : v[m]);
            }
            bottom_butterflies<false, FusedStages, PointwiseBound>(u, inverse, f);
#pragma unroll
            for (int m = 0; m < kGroup; ++m) to_smem(tile, first, m, u[m]);
        }
        team.sync();
    }

    // Inverse: passes of PassStages up to the tiles' top, the last one what is left, to output.
    template <class Team, class Field, class FromSmem, class ToSmem, class Output>
    __device__ static void inverse_passes(const Team& team, int tiles, const typename Field::Twiddle* inverse, const Field& f,
                                          FromSmem from_smem, ToSmem to_smem, Output output)
    {
        for_passes<FusedStages, PassStages, kInversePasses>([&](auto s_lo) {
            constexpr int lo = decltype(s_lo)::value, k = LogTile - lo < PassStages ? LogTile - lo : PassStages;
            if constexpr (lo + k == LogTile) group_pass<false, k>(team, tiles, LogLength(), s_lo, inverse, f, from_smem, output, Order());
            else group_pass<false, k>(team, tiles, LogLength(), s_lo, inverse, f, from_smem, to_smem, Order());
        });
    }
};

// All four steps by the whole block.
template <int LogTile, int PassStages, int FusedStages, class Field, class Input, class FromSmem, class ToSmem, class Pointwise,
          class Output>
__device__ void tile_products(int tiles, bool square, bool upper_zero, const typename Field::Twiddle* forward,
                              const typename Field::Twiddle* inverse, const Field& f, Input input, FromSmem from_smem, ToSmem to_smem,
                              Pointwise pointwise, Output output)
{
    using Steps = TileProducts<LogTile, PassStages, FusedStages>;
    const BlockTeam block;
    const int operands = square ? 1 : 2;
    Steps::first_pass(block, tiles, operands, upper_zero, forward, f, input, to_smem);
    Steps::middle_passes(block, tiles, operands, forward, f, from_smem, to_smem);
    Steps::fused_pass(block, tiles, square, forward, inverse, f, from_smem, to_smem, pointwise);
    Steps::inverse_passes(block, tiles, inverse, f, from_smem, to_smem, output);
}

// Calls body(Fixed<L>()) for log_length = L, 5 to 11 (the callers check):
// the tile kernels' instances, one for each transform length they take.
template <class Body>
void for_log_tile(int log_length, Body body)
{
    switch (log_length) {
    case 5: return body(Fixed<5>());
    case 6: return body(Fixed<6>());
    case 7: return body(Fixed<7>());
    case 8: return body(Fixed<8>());
    case 9: return body(Fixed<9>());
    case 10: return body(Fixed<10>());
    default: return body(Fixed<11>());
    }
}

}  // namespace zgpu::kernels
