// Where the tensor-core product kernel (mul_tensor.cu) takes its operand bytes from and puts its
// column sums, as plain functions: the kernel uses them, and a host test replays them through the
// documented fragment layout of mma.m16n8k32 (tests/mul_tensor_layout_test.cpp).
//
// The product c = a * b of byte strings (digits base 256) has columns c_k = sum a_i b_(k-i).
// One mma.m16n8k32.u8 computes D[r][c] += sum_s A[r][s] B[s][c] (16 x 8 x 32). With
//     k = 128 T + 8 r + c                  (output tile T: 128 consecutive columns)
//     j = c + phi(s) + 32 m,  i = k - j    (step m: 32 consecutive j for every column)
//     A[r][s] = a_(128 T + 8 r - phi(s) - 32 m),   B[s][c] = b_(c + phi(s) + 32 m)
// every D[r][c] collects the 32 pairs (i, j) of its column with j in [c + 32 m - 3, c + 32 m + 28],
// so the steps m of a tile add up the whole column sums, each pair exactly once. phi runs over
// -3 .. 28 and is chosen so that each register of a fragment is four consecutive bytes: with
// phi(4 t + q) = 4 t - q and phi(16 + 4 t + q) = 16 + 4 t - q (t the lane's threadID_in_group,
// q the byte in the register), the A registers of a lane are aligned 32-bit words of a, and the
// B registers are four bytes of b in descending order, b_x, b_(x-1), b_(x-2), b_(x-3): the
// kernel keeps b as a table of such words, one for every x.
//
// Exactness: a column sum has at most min(len a, len b) terms below 2^16, so it fits the mma's
// signed 32-bit accumulator for operands up to 32768 bytes (kMulTensorMaxLimbs is far below).
#pragma once

#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels::tensor_layout {

inline constexpr int kTileColumns = 128;  // columns (bytes) of the product one tile holds
inline constexpr int kStepBytes = 32;     // how far j moves from one step to the next

// Byte offset in a of the aligned word that register `reg` (0..3) of the A fragment holds for
// tile T at step m, in the lane (g, t) = (groupID, threadID_in_group). Registers 0/1 hold rows
// g/g+8 at k = 4t.., 2/3 the same rows at k = 16+4t..; row + 8 is 64 bytes up, k + 16 is 16 down.
ZGPU_HOST_DEVICE constexpr int a_word_offset(int T, int m, int g, int t, int reg)
{
    return kTileColumns * T - kStepBytes * m + 8 * g - 4 * t + (reg & 1) * 64 - (reg >> 1) * 16;
}

// The a word of index e sits at byte 16 e + 8 g - 4 t; register `reg` of (T, m) is word
// 8 T - 2 m + {0, 4, -1, 3}[reg], so consecutive steps share all but two words of a tile.
ZGPU_HOST_DEVICE constexpr int a_word_index(int T, int m, int reg)
{
    constexpr int shift[4] = {0, 4, -1, 3};
    return 8 * T - 2 * m + shift[reg];
}

// x of register `reg` (0..1) of the B fragment: it holds b_x, b_(x-1), b_(x-2), b_(x-3).
ZGPU_HOST_DEVICE constexpr int b_word_x(int m, int g, int t, int reg) { return g + 4 * t + kStepBytes * m + 16 * reg; }

// The column of accumulator `reg` (0..3) of tile T in lane (g, t): rows g, g+8, columns 2t, 2t+1.
ZGPU_HOST_DEVICE constexpr int column(int T, int g, int t, int reg) { return kTileColumns * T + 8 * g + 2 * t + (reg & 1) + (reg >> 1) * 64; }

ZGPU_HOST_DEVICE constexpr int floor_div(int x, int d) { return x >= 0 ? x / d : -((-x + d - 1) / d); }

// Steps [first, last] that can meet a nonzero pair for tile T of operands of a_bytes and b_bytes:
// j spans [32 m - 3, 32 m + 35] and i spans [128 T - 28 - 32 m, 128 T + 123 - 32 m].
struct Steps {
    int first, last;
};
ZGPU_HOST_DEVICE constexpr Steps steps_of_tile(int T, int a_bytes, int b_bytes)
{
    const int first_by_j = -1, last_by_j = floor_div(b_bytes + 2, kStepBytes);
    const int first_by_i = -floor_div(-(kTileColumns * T - 27 - a_bytes), kStepBytes);  // ceiling
    const int last_by_i = floor_div(kTileColumns * T + 123, kStepBytes);
    return {first_by_i > first_by_j ? first_by_i : first_by_j, last_by_i < last_by_j ? last_by_i : last_by_j};
}

// Shared memory around the operands. A warp runs the union of its U tiles' steps from `first`,
// keeping a window of a words e' relative to a_word_index(T0, first, 0): step s reads
// e' from -2 s - 3 (the next step's new words) to 8 U - 4 - 2 s. Zeros on both sides of a cover
// those reads: a_margin_bytes on each side. The b table is built in groups of eight words, x =
// 8 l + 3 + o (o < 8) from b's limbs l and l + 1, for l from -kTableLimbsBelow to b limbs +
// kTableLimbsAbove - 1: it holds x from kTableFirstX to table_last_x.
ZGPU_HOST_DEVICE constexpr int a_margin_bytes(int tiles_per_warp) { return kTileColumns * tiles_per_warp + 64; }
inline constexpr int kTableLimbsBelow = 5, kTableLimbsAbove = 5;
inline constexpr int kTableFirstX = -8 * kTableLimbsBelow + 3;
ZGPU_HOST_DEVICE constexpr int table_groups(int b_limbs) { return kTableLimbsBelow + b_limbs + kTableLimbsAbove; }
ZGPU_HOST_DEVICE constexpr int table_last_x(int b_limbs) { return 8 * (b_limbs + kTableLimbsAbove - 1) + 10; }

}  // namespace zgpu::kernels::tensor_layout
