// Where the NTT's groups correct their words (kernels/ntt/butterfly_bounds.hpp): with room for 4p
// every forward sum and every inverse butterfly corrects, as the transforms always did; with room
// for 8p far fewer do, and no word passes its field's room.
#include <gtest/gtest.h>

#include "kernels/ntt/butterfly_bounds.hpp"

namespace zgpu::kernels {
namespace {

// Corrections in a group's plan: sums left below the bound their operands give (from stage
// `first` on: an upper-zero stage 0 has no sums), and words that a butterfly reads below their
// bound.
template <int K>
int forward_corrections(const GroupBounds<K>& g, int first = 0)
{
    int count = 0;
    for (int k = first; k < K; ++k) {
        const int level = K - 1 - k;
        for (int m = 0; m < (1 << K); ++m) {
            if (m & (1 << level)) continue;
            const int h = m | (1 << level);
            count += g.bound[k + 1][m] < g.bound[k][m] + g.bound[k][h];
        }
    }
    return count;
}
template <int K>
int inverse_corrections(const GroupBounds<K>& g)
{
    int count = 0;
    for (int k = 0; k < K; ++k)
        for (int m = 0; m < (1 << K); ++m) count += g.operand[k][m] < g.bound[k][m];
    return count;
}

template <int K>
int largest(const GroupBounds<K>& g)
{
    int most = 0;
    for (const auto& stage : g.bound)
        for (const int b : stage) most = b > most ? b : most;
    return most;
}

TEST(ButterflyBounds, RoomFor4pCorrectsEverySumAndEveryInverseButterfly)
{
    constexpr GroupBounds<4> forward = forward_bounds<4>(4, 2, false, false), inverse = inverse_bounds<4>(4, 4, false);
    static_assert(forward.exact && inverse.exact);
    EXPECT_EQ(forward_corrections(forward), 4 * 8);
    EXPECT_EQ(inverse_corrections(inverse), 4 * 8);
    EXPECT_EQ(largest(forward), 2);
    EXPECT_EQ(largest(inverse), 4);
    // The bottom stages: the unit butterflies correct both words.
    constexpr GroupBounds<3> bottom = inverse_bounds<3>(4, 4, true);
    static_assert(bottom.exact);
    EXPECT_EQ(inverse_corrections(bottom), 12 + 7);  // each butterfly's u, and the 7 unit ones' v
}

TEST(ButterflyBounds, RoomFor8pCorrectsAboutHalfAsOften)
{
    // Forward passes between passes (bound 4): every sum of the first stage, then the sums of sums.
    constexpr GroupBounds<4> forward = forward_bounds<4>(8, 4, false, false);
    static_assert(forward.exact);
    EXPECT_EQ(forward_corrections(forward), 8 + 3 * 4);
    EXPECT_EQ(largest(forward), 4);
    // The first pass, from words just reduced below 2p, its top stage products only.
    constexpr GroupBounds<4> first = forward_bounds<4>(8, 2, true, false);
    static_assert(first.exact);
    EXPECT_EQ(forward_corrections(first, 1), 2 * 4);
    // Inverse passes (bound 8): u corrected on every other stage.
    constexpr GroupBounds<4> inverse = inverse_bounds<4>(8, 8, false);
    static_assert(inverse.exact);
    EXPECT_EQ(inverse_corrections(inverse), 2 * 8);
    EXPECT_EQ(largest(inverse), 8);
    for (int m = 0; m < 16; ++m) EXPECT_EQ(inverse.bound[4][m], 8);
    // The fused pass's inverse stages, from pointwise products below 3p taken as 4p.
    constexpr GroupBounds<3> bottom = inverse_bounds<3>(8, 4, true);
    static_assert(bottom.exact);
    EXPECT_LE(largest(bottom), 8);
    EXPECT_LT(inverse_corrections(bottom), 12 + 7);
}

TEST(ButterflyBounds, PlansThatWouldPassTheRoomAreNotExact)
{
    static_assert(!forward_bounds<2>(4, 4, false, false).exact);  // 4p + 4p in room for 4p
    static_assert(!inverse_bounds<2>(4, 8, false).exact);         // a word below 8p in room for 4p
    static_assert(forward_bounds<2>(8, 4, false, false).exact);
}

}  // namespace
}  // namespace zgpu::kernels
