// The byte layout of the tensor-core product kernel (kernels/mul_tensor_layout.hpp), on the host:
// fragments built from it, multiplied by the mma.m16n8k32 semantics of the PTX ISA (the fragment
// layout written out here independently), give the product; and what a warp reads stays inside
// the zero margins.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/mul/mul_tensor_layout.hpp"

namespace zgpu::kernels::tensor_layout {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint8_t byte_at(const Bytes& x, int i) { return i >= 0 && i < int(x.size()) ? x[i] : 0; }

struct Lane {
    std::uint32_t a[4], b[2];
};

// D += A B for one warp, A 16 x 32 and B 32 x 8 bytes gathered from the lanes' registers and D
// scattered back, as the PTX ISA lays out mma.m16n8k32 with .u8 operands (lane = 4 g + t):
// A register r, byte q: row g + 8 (r & 1), column 4 t + q + 16 (r >> 1); B register r, byte q:
// row 4 t + q + 16 r, column g; accumulator r: row g + 8 (r >> 1), column 2 t + (r & 1).
void mma(const Lane (&lanes)[32], std::int64_t (&d)[32][4])
{
    std::uint32_t A[16][32] = {}, B[32][8] = {};
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int r = 0; r < 4; ++r)
            for (int q = 0; q < 4; ++q) A[g + 8 * (r & 1)][4 * t + q + 16 * (r >> 1)] = (lanes[lane].a[r] >> (8 * q)) & 0xff;
        for (int r = 0; r < 2; ++r)
            for (int q = 0; q < 4; ++q) B[4 * t + q + 16 * r][g] = (lanes[lane].b[r] >> (8 * q)) & 0xff;
    }
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int r = 0; r < 4; ++r) {
            const int row = g + 8 * (r >> 1), col = 2 * t + (r & 1);
            for (int k = 0; k < 32; ++k) d[lane][r] += std::int64_t(A[row][k]) * B[k][col];
        }
    }
}

// The product of a and b from the layout, as column sums, computed as the kernel does: warps of
// U tiles, each tile running all its warp's steps, the sums of tiles above the product dropped.
std::vector<std::int64_t> column_sums(const Bytes& a, const Bytes& b, int U)
{
    const int tiles = std::max(1, int(a.size() + b.size() + kTileColumns - 1) / kTileColumns);
    std::vector<std::int64_t> sums(std::size_t(tiles) * kTileColumns);
    for (int T = 0; T < tiles; ++T) {
        std::int64_t d[32][4] = {};
        const int T0 = T - T % U;
        const Steps steps = warp_steps(T0, std::min(tiles, T0 + U) - 1, int(a.size()), int(b.size()));
        for (int m = steps.first; m <= steps.last; ++m) {
            Lane lanes[32];
            for (int lane = 0; lane < 32; ++lane) {
                const int g = lane / 4, t = lane % 4;
                for (int r = 0; r < 4; ++r) {
                    const int x = b_word_x(m, g, t, r);
                    lanes[lane].a[r] = 0;
                    for (int q = 0; q < 4; ++q) lanes[lane].a[r] |= std::uint32_t(byte_at(b, x - q)) << (8 * q);
                }
                for (int r = 0; r < 2; ++r) {
                    const int offset = a_word_offset(T, m, g, t, r);
                    EXPECT_EQ(offset % 4, 0);
                    lanes[lane].b[r] = 0;
                    for (int q = 0; q < 4; ++q) lanes[lane].b[r] |= std::uint32_t(byte_at(a, offset + q)) << (8 * q);
                }
            }
            mma(lanes, d);
        }
        for (int lane = 0; lane < 32; ++lane)
            for (int r = 0; r < 4; ++r) sums[column(T, lane / 4, lane % 4, r)] += d[lane][r];
    }
    return sums;
}

void expect_product(const Bytes& a, const Bytes& b, int U, const std::string& context)
{
    const std::vector<std::int64_t> sums = column_sums(a, b, U);
    mpz_t x, y, expected, got, term;
    mpz_inits(x, y, expected, got, term, nullptr);
    mpz_import(x, a.size(), -1, 1, 0, 0, a.data());
    mpz_import(y, b.size(), -1, 1, 0, 0, b.data());
    mpz_mul(expected, x, y);
    for (std::size_t k = sums.size(); k-- > 0;) {
        ASSERT_LT(sums[k], std::int64_t(1) << 31) << context << ": column " << k << " overflows the accumulator";
        mpz_mul_2exp(got, got, 8);
        mpz_add_ui(got, got, std::uint64_t(sums[k]));
    }
    EXPECT_EQ(mpz_cmp(got, expected), 0) << context;
    mpz_clears(x, y, expected, got, term, nullptr);
}

Bytes random_bytes(std::mt19937_64& rng, int limbs)
{
    Bytes x(8 * std::size_t(limbs));
    for (auto& byte : x) byte = std::uint8_t(rng());
    return x;
}

TEST(MulTensorLayout, FragmentsGiveTheProduct)
{
    std::mt19937_64 rng(41);
    const int limbs[] = {8, 10, 16, 24, 32, 64, 100, 128};
    for (const int U : {2, 4})
        for (const int n : limbs)
            for (const int m : limbs)
                expect_product(random_bytes(rng, n), random_bytes(rng, m), U, std::to_string(n) + " x " + std::to_string(m) + " limbs, U = " + std::to_string(U));
}

TEST(MulTensorLayout, AllOnesAtTheLargestSize)
{
    // The largest columns the kernel meets (operands of kMulTensorMaxLimbs = 512 limbs).
    const Bytes ones(8 * 512, 0xff);
    for (const int U : {2, 4}) expect_product(ones, ones, U, "all ones, 512 x 512 limbs, U = " + std::to_string(U));
}

TEST(MulTensorLayout, OperandsShorterThanTheirStride)
{
    // The steps follow the operands' sizes, which may be below the kernel's minimum stride (the
    // bytes above a size are zeros in memory); zero still has steps, of zeros.
    std::mt19937_64 rng(42);
    const Bytes b = random_bytes(rng, 64);
    for (const int n : {0, 1, 3, 7}) expect_product(random_bytes(rng, n), b, 4, std::to_string(n) + " x 64 limbs");
}

TEST(MulTensorLayout, AWarpReadsInsideTheMargins)
{
    // Every warp of U tiles runs warp_steps for all its U tiles (also those above the product's
    // tiles, whose sums it drops); its lanes read words of a and entries of the b table.
    for (const int U : {2, 4})
        for (const int a_limbs : {0, 3, 8, 16, 40, 64, 256, 512})
            for (const int b_limbs : {0, 3, 8, 16, 40, 64, 256, 512}) {
                const int tiles = std::max(1, (a_limbs + b_limbs + 15) / 16);
                for (int T0 = 0; T0 < tiles; T0 += U) {
                    const Steps steps = warp_steps(T0, std::min(tiles, T0 + U) - 1, 8 * a_limbs, 8 * b_limbs);
                    const std::string context = std::to_string(a_limbs) + " x " + std::to_string(b_limbs) + " limbs, U = " +
                                                std::to_string(U) + ", tile " + std::to_string(T0);
                    int lowest = 1 << 30, highest = -(1 << 30), first_y = 1 << 30, last_y = -(1 << 30);
                    for (int m = steps.first; m <= steps.last; ++m)
                        for (int g = 0; g < 8; ++g)
                            for (int t = 0; t < 4; ++t) {
                                for (int u = 0; u < U; ++u)
                                    for (int reg = 0; reg < 2; ++reg) {
                                        lowest = std::min(lowest, a_word_offset(T0 + u, m, g, t, reg));
                                        highest = std::max(highest, a_word_offset(T0 + u, m, g, t, reg) + 3);
                                    }
                                first_y = std::min(first_y, b_word_x(m, g, t, 0));
                                last_y = std::max(last_y, b_word_x(m, g, t, 2));
                            }
                    if (steps.first > steps.last) continue;
                    EXPECT_GE(lowest, -a_margin_bytes(U)) << context;
                    EXPECT_LT(highest, 8 * a_limbs + a_margin_bytes(U)) << context;
                    EXPECT_GE(first_y, kTableFirstY) << context;
                    EXPECT_LE(last_y, table_last_y(b_limbs)) << context;
                }
            }
}

TEST(MulTensorLayout, SumsMeetEveryBankOnce)
{
    // sum_word permutes each row of 32 words; a limb's eight sums are two aligned 16-byte chunks.
    const int tiles = 8;
    std::vector<int> seen(std::size_t(kTileColumns) * tiles, 0);
    for (int k = 0; k < kTileColumns * tiles; ++k) {
        ASSERT_EQ(sum_word(k) / 32, k / 32);
        ++seen[std::size_t(sum_word(k))];
        if (k % 4 != 0) {
            EXPECT_EQ(sum_word(k), sum_word(k - k % 4) + k % 4);
        }
        EXPECT_EQ(sum_word(k - k % 4) % 4, 0);
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), kTileColumns * tiles);
    // The stores of one accumulator register by a warp hit 32 different banks.
    for (int T = 0; T < tiles; ++T)
        for (int reg = 0; reg < 4; ++reg) {
            std::vector<int> banks;
            for (int lane = 0; lane < 32; ++lane) banks.push_back(sum_word(column(T, lane / 4, lane % 4, reg)) % 32);
            std::sort(banks.begin(), banks.end());
            EXPECT_EQ(std::unique(banks.begin(), banks.end()) - banks.begin(), 32) << "tile " << T << ", register " << reg;
        }
    // Threads r = 0..7 of a quarter warp loading half h of limbs 2 r + j: eight different 16-byte bank groups.
    for (int j = -1; j <= 1; ++j)
        for (int h = 0; h < 2; ++h)
            for (int first = 1; first < 64; first += 8) {
                std::vector<int> groups;
                for (int r = first; r < first + 8; ++r) groups.push_back(sum_word(8 * (2 * r + j) + 4 * h) % 32 / 4);
                std::sort(groups.begin(), groups.end());
                EXPECT_EQ(std::unique(groups.begin(), groups.end()) - groups.begin(), 8) << "limbs 2 r + " << j << ", half " << h;
            }
}

TEST(MulTensorLayout, WarpStepsCoverTheirTiles)
{
    // A warp's steps include every step of each of its tiles that can meet a nonzero pair.
    for (const int U : {2, 4})
        for (const int a_limbs : {0, 1, 8, 24, 64, 512})
            for (const int b_limbs : {0, 1, 8, 24, 64, 512}) {
                const int tiles = std::max(1, (a_limbs + b_limbs + 15) / 16);
                for (int T0 = 0; T0 < tiles; T0 += U) {
                    const Steps warp = warp_steps(T0, std::min(tiles, T0 + U) - 1, 8 * a_limbs, 8 * b_limbs);
                    for (int T = T0; T < std::min(tiles, T0 + U); ++T) {
                        const Steps own = steps_of_tile(T, 8 * a_limbs, 8 * b_limbs);
                        if (own.first > own.last) continue;
                        EXPECT_LE(warp.first, own.first) << a_limbs << " x " << b_limbs << ", tile " << T;
                        EXPECT_GE(warp.last, own.last) << a_limbs << " x " << b_limbs << ", tile " << T;
                    }
                }
            }
}

}  // namespace
}  // namespace zgpu::kernels::tensor_layout
