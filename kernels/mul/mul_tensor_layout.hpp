// Where the tensor-core product kernel (mul_tensor.cu) takes its operand bytes from and puts its
// column sums, as plain functions: the kernel uses them, and a host test replays them through the
// documented fragment layout of mma.m16n8k32 (tests/mul_tensor_layout_test.cpp).
//
// The product c = a * b of byte strings (digits base 256) has columns c_k = sum a_i b_(k-i).
// One mma.m16n8k32.u8 computes D[r][c] += sum_s A[r][s] B[s][c] (16 x 8 x 32). With
//     k = 128 T + r + 16 c                 (output tile T: 128 consecutive columns)
//     j = r + phi(s) + 32 m,  i = k - j    (step m: 32 consecutive j for every column)
//     A[r][s] = b_(r + phi(s) + 32 m),     B[s][c] = a_(128 T + 16 c - phi(s) - 32 m)
// every D[r][c] collects the 32 pairs (i, j) of its column with j in [r + 32 m - 3, r + 32 m + 28],
// so the steps m of a tile add up the whole column sums, each pair exactly once. phi runs over
// -3 .. 28: phi(4 t + q) = 4 t - q and phi(16 + 4 t + q) = 16 + 4 t - q (t the lane's
// threadID_in_group, q the byte in the register). Then, in the lane (g, t) = (groupID,
// threadID_in_group):
// - the A registers are four bytes of b in descending order, b_x, b_(x-1), b_(x-2), b_(x-3),
//   for x = g + 4 t + 32 m + {0, 8, 16, 24}: the same for every tile, and the kernel keeps b as a
//   table whose entry y holds the words of x = y and x = y + 8, so that two 8-byte loads give the
//   four registers;
// - the B registers are the aligned words of a at bytes 128 T + 16 g - 4 t - 32 m and 16 below:
//   a pair that depends on m - 4 T only, so tile T + 1 at step m + 4 takes the pair tile T took at
//   step m, in the same registers. A warp of U tiles loads one new pair a step and keeps 4 U - 3.
//
// Exactness: a column sum has at most min(len a, len b) terms below 2^16, so it fits the mma's
// signed 32-bit accumulator for operands up to 32768 bytes (kMulTensorMaxLimbs is far below).
#pragma once

#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels::tensor_layout {

inline constexpr int kTileColumns = 128;  // columns (bytes) of the product one tile holds
inline constexpr int kStepBytes = 32;     // how far j moves from one step to the next

// x of register `reg` (0..3) of the A fragment: it holds b_x, b_(x-1), b_(x-2), b_(x-3).
// Registers 0/1 are rows g/g+8 (x + 8), 2/3 the same rows at s + 16 (x + 16).
ZGPU_HOST_DEVICE constexpr int b_word_x(int m, int g, int t, int reg) { return g + 4 * t + kStepBytes * m + 8 * (reg & 1) + 16 * (reg >> 1); }

// The pair of a's words that tile T takes at step m.
ZGPU_HOST_DEVICE constexpr int a_pair_index(int T, int m) { return m - 4 * T; }

// Byte offset in a of the aligned word that register `reg` (0..1) of the B fragment holds for
// tile T at step m: column g is 16 bytes up, s + 16 is 16 bytes down.
ZGPU_HOST_DEVICE constexpr int a_word_offset(int T, int m, int g, int t, int reg)
{
    return 16 * g - 4 * t - 16 * reg - kStepBytes * a_pair_index(T, m);
}

// The column of accumulator `reg` (0..3) of tile T in lane (g, t): rows g, g+8, columns 2t, 2t+1,
// so byte g of limbs 16 T + 4 t + {0, 2, 1, 3}[reg].
ZGPU_HOST_DEVICE constexpr int column(int T, int g, int t, int reg) { return kTileColumns * T + g + 32 * t + 16 * (reg & 1) + 8 * (reg >> 1); }

// Where column k's sum goes among the kernel's 32-bit sums: rows of 32 (four limbs), each row's
// 16-byte chunks permuted by an XOR with [0, 3, 5, 6][row % 4], so that the stores of a warp (byte
// g of limb 4 t + h, for each h) and the 16-byte loads of a limb's halves by consecutive threads
// (limbs 2 r + j) each meet all 32 banks once. A limb's eight sums stay two aligned chunks.
ZGPU_HOST_DEVICE constexpr int sum_word(int k)
{
    const int row = k / 32, chunk = k % 32 / 4;
    return 32 * row + 4 * (chunk ^ ((0x6530 >> (4 * (row % 4))) & 0xf)) + k % 4;
}

ZGPU_HOST_DEVICE constexpr int floor_div(int x, int d) { return x >= 0 ? x / d : -((-x + d - 1) / d); }

// Steps [first, last] that can meet a nonzero pair for tile T of operands of a_bytes and b_bytes:
// j spans [32 m - 3, 32 m + 43] and i spans [128 T - 28 - 32 m, 128 T + 115 - 32 m].
struct Steps {
    int first, last;
};
ZGPU_HOST_DEVICE constexpr Steps steps_of_tile(int T, int a_bytes, int b_bytes)
{
    const int first_by_j = -1, last_by_j = floor_div(b_bytes + 2, kStepBytes);
    const int first_by_i = -floor_div(-(kTileColumns * T - 27 - a_bytes), kStepBytes);  // ceiling
    const int last_by_i = floor_div(kTileColumns * T + 115, kStepBytes);
    return {first_by_i > first_by_j ? first_by_i : first_by_j, last_by_i < last_by_j ? last_by_i : last_by_j};
}

// The steps of a warp that computes tiles T0 .. T_top: both ends of steps_of_tile grow with T, so
// the union of the tiles' steps lies in [first of T0, last of T_top] (empty where T0 is above the
// product). Each tile runs all of them: a step outside its own multiplies zeros.
ZGPU_HOST_DEVICE constexpr Steps warp_steps(int T0, int T_top, int a_bytes, int b_bytes)
{
    return {steps_of_tile(T0, a_bytes, b_bytes).first, steps_of_tile(T_top, a_bytes, b_bytes).last};
}

// Zeros on both sides of a cover what a warp of U tiles reads over warp_steps: its words lie in
// [4 - 128 U, a_bytes + 128 U + 15) (tests/mul_tensor_layout_test.cpp checks it).
ZGPU_HOST_DEVICE constexpr int a_margin_bytes(int tiles_per_warp) { return kTileColumns * tiles_per_warp + 16; }

// The b table is built in groups of eight entries, y = 8 l + 3 + o (o < 8) from b's limbs l,
// l + 1 and l + 2, for l from -kTableLimbsBelow to b limbs + kTableLimbsAbove - 1: it holds y from
// kTableFirstY to table_last_y, 8 bytes an entry. A warp's steps read y in [-32, b bytes + 37].
inline constexpr int kTableLimbsBelow = 5, kTableLimbsAbove = 5;
inline constexpr int kTableFirstY = -8 * kTableLimbsBelow + 3;
ZGPU_HOST_DEVICE constexpr int table_groups(int b_limbs) { return kTableLimbsBelow + b_limbs + kTableLimbsAbove; }
ZGPU_HOST_DEVICE constexpr int table_last_y(int b_limbs) { return 8 * (b_limbs + kTableLimbsAbove - 1) + 10; }

// Zero limbs around b in the buffer the table is built from: the groups read b's limbs from
// -kTableLimbsBelow to b limbs + kTableLimbsAbove + 1; an even count keeps b on 16 bytes.
inline constexpr int kRawBMarginLimbs = 8;
static_assert(kRawBMarginLimbs >= kTableLimbsBelow && kRawBMarginLimbs >= kTableLimbsAbove + 2 && kRawBMarginLimbs % 2 == 0);

}  // namespace zgpu::kernels::tensor_layout
