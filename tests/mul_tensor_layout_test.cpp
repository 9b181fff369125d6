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

#include "../kernels/mul_tensor_layout.hpp"

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

// The product of a and b from the layout, as column sums.
std::vector<std::int64_t> column_sums(const Bytes& a, const Bytes& b)
{
    const int tiles = int(a.size() + b.size() + kTileColumns - 1) / kTileColumns;
    std::vector<std::int64_t> sums(std::size_t(tiles) * kTileColumns);
    for (int T = 0; T < tiles; ++T) {
        std::int64_t d[32][4] = {};
        const Steps steps = steps_of_tile(T, int(a.size()), int(b.size()));
        for (int m = steps.first; m <= steps.last; ++m) {
            Lane lanes[32];
            for (int lane = 0; lane < 32; ++lane) {
                const int g = lane / 4, t = lane % 4;
                for (int r = 0; r < 4; ++r) {
                    const int offset = a_word_offset(T, m, g, t, r);
                    EXPECT_EQ(offset, 16 * a_word_index(T, m, r) + 8 * g - 4 * t);
                    lanes[lane].a[r] = 0;
                    for (int q = 0; q < 4; ++q) lanes[lane].a[r] |= std::uint32_t(byte_at(a, offset + q)) << (8 * q);
                }
                for (int r = 0; r < 2; ++r) {
                    const int x = b_word_x(m, g, t, r);
                    lanes[lane].b[r] = 0;
                    for (int q = 0; q < 4; ++q) lanes[lane].b[r] |= std::uint32_t(byte_at(b, x - q)) << (8 * q);
                }
            }
            mma(lanes, d);
        }
        for (int lane = 0; lane < 32; ++lane)
            for (int r = 0; r < 4; ++r) sums[column(T, lane / 4, lane % 4, r)] += d[lane][r];
    }
    return sums;
}

void expect_product(const Bytes& a, const Bytes& b, const std::string& context)
{
    const std::vector<std::int64_t> sums = column_sums(a, b);
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
    for (const int n : limbs)
        for (const int m : limbs) expect_product(random_bytes(rng, n), random_bytes(rng, m), std::to_string(n) + " x " + std::to_string(m) + " limbs");
}

TEST(MulTensorLayout, AllOnesAtTheLargestSize)
{
    // The largest columns the kernel meets (operands of kMulTensorMaxLimbs = 512 limbs).
    const Bytes ones(8 * 512, 0xff);
    expect_product(ones, ones, "all ones, 512 x 512 limbs");
}

TEST(MulTensorLayout, OperandsShorterThanTheirStride)
{
    // The steps follow the operands' sizes, which may be below the kernel's minimum stride (the
    // bytes above a size are zeros in memory); zero still has steps, of zeros.
    std::mt19937_64 rng(42);
    const Bytes b = random_bytes(rng, 64);
    for (const int n : {0, 1, 3, 7}) expect_product(random_bytes(rng, n), b, std::to_string(n) + " x 64 limbs");
}

TEST(MulTensorLayout, AWarpReadsInsideTheMargins)
{
    // Every warp of U tiles runs the union of its tiles' steps; its window reads the words
    // e' in [-2 (steps - 1) - 3, 8 U - 4] from a_word_index(T0, first, 0), and B words x in
    // [32 m, 32 m + 35]: inside the zero margins around a and the b table.
    for (const int U : {2, 4, 8})
        for (const int a_limbs : {8, 16, 40, 64, 256, 512})
            for (const int b_limbs : {8, 16, 40, 64, 256, 512}) {
                const int tiles = (a_limbs + b_limbs + 15) / 16;
                for (int T0 = 0; T0 < tiles; T0 += U) {
                    int first = 1 << 30, last = -(1 << 30);
                    for (int T = T0; T < std::min(tiles, T0 + U); ++T) {
                        const Steps s = steps_of_tile(T, 8 * a_limbs, 8 * b_limbs);
                        if (s.first > s.last) continue;
                        first = std::min(first, s.first);
                        last = std::max(last, s.last);
                    }
                    if (first > last) continue;
                    const int steps = last - first + 1;
                    const int lowest = 16 * (a_word_index(T0, first, 0) - 2 * (steps - 1) - 3) - 4 * 3;
                    const int highest = 16 * (a_word_index(T0, first, 0) + 8 * U - 4) + 8 * 7 + 3;
                    const std::string context = std::to_string(a_limbs) + " x " + std::to_string(b_limbs) + " limbs, U = " +
                                                std::to_string(U) + ", tile " + std::to_string(T0);
                    EXPECT_GE(lowest, -a_margin_bytes(U)) << context;
                    EXPECT_LT(highest, 8 * a_limbs + a_margin_bytes(U)) << context;
                    EXPECT_GE(b_word_x(first, 0, 0, 0), kTableFirstX) << context;
                    EXPECT_LE(b_word_x(last, 7, 3, 1), table_last_x(b_limbs)) << context;
                }
            }
}

}  // namespace
}  // namespace zgpu::kernels::tensor_layout
