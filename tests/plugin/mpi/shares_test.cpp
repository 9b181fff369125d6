// The MPI layer's shares (plugin/mpi/shares.hpp). Of a prime set: consecutive, disjoint,
// covering every prime once, as even as may be, and empty for ranks beyond the primes. Of a
// machine's GPUs: every GPU driven, each by one rank where there are at least as many GPUs as
// ranks, and the ranks spread evenly over the GPUs where there are fewer.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "plugin/mpi/shares.hpp"

namespace zgpu::testing {
namespace {

TEST(MpiShares, ConsecutiveEvenSharesCoverEveryPrimeOnce)
{
    for (std::size_t k = 0; k <= 40; ++k) {
        std::vector<limb_t> primes(k);
        for (std::size_t i = 0; i < k; ++i) primes[i] = limb_t(1000 + i);
        for (int size = 1; size <= 9; ++size) {
            std::size_t next = 0;
            for (int rank = 0; rank < size; ++rank) {
                const std::span<const limb_t> share = mpi::prime_share(primes, rank, size);
                ASSERT_EQ(share.data(), primes.data() + next) << k << " primes, rank " << rank << " of " << size;
                EXPECT_LE(share.size(), (k + std::size_t(size) - 1) / std::size_t(size));
                EXPECT_GE(share.size(), k / std::size_t(size));
                next += share.size();
            }
            EXPECT_EQ(next, k) << k << " primes over " << size << " ranks";
        }
    }
}

TEST(MpiShares, WeightedSharesCoverEveryPrimeOnceInProportion)
{
    std::vector<limb_t> primes(1000);
    for (std::size_t i = 0; i < primes.size(); ++i) primes[i] = limb_t(5000 + i);
    const std::span<const limb_t> all(primes);
    const std::vector<std::vector<std::uint64_t>> cases = {
        {1}, {1, 1, 1}, {3, 1}, {1, 2, 1, 4}, {mpi::kFullWeight, 1, mpi::kFullWeight / 3}, {5, 5, 5, 5, 5, 5, 5}};
    for (const std::vector<std::uint64_t>& weights : cases)
        for (const std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(999), std::size_t(1000)}) {
            const std::span<const limb_t> some = all.first(k);
            std::size_t next = 0;
            const double total = double(std::accumulate(weights.begin(), weights.end(), std::uint64_t(0)));
            for (int rank = 0; rank < int(weights.size()); ++rank) {
                const std::span<const limb_t> share = mpi::weighted_share(some, weights, rank);
                ASSERT_EQ(share.data(), some.data() + next) << k << " primes, rank " << rank;
                EXPECT_LE(std::abs(double(share.size()) - double(k) * double(weights[std::size_t(rank)]) / total), 1.0);
                if (std::adjacent_find(weights.begin(), weights.end(), std::not_equal_to<>()) == weights.end()) {
                    EXPECT_EQ(share.size(), mpi::prime_share(some, rank, int(weights.size())).size()) << "equal weights";
                }
                next += share.size();
            }
            EXPECT_EQ(next, k);
        }
}

TEST(MpiShares, RebalancingEvensTheRanksTimes)
{
    using W = std::vector<std::uint64_t>;
    const W equal(3, mpi::kFullWeight);
    EXPECT_EQ(mpi::rebalanced(equal, std::vector<double>{2, 2, 2}), equal);
    // Times within 5 % of their mean leave any weights as they are (the kept prime sets stay).
    const W uneven = {mpi::kFullWeight, 12345, 777};
    EXPECT_EQ(mpi::rebalanced(uneven, std::vector<double>{2.0, 2.09, 1.93}), uneven);
    // Twice as slow: half the weight of the others (scaled so that the largest is full).
    const W slow = mpi::rebalanced(equal, std::vector<double>{1, 2, 1});
    EXPECT_EQ(slow[0], mpi::kFullWeight);
    EXPECT_EQ(slow[2], mpi::kFullWeight);
    EXPECT_EQ(slow[1], mpi::kFullWeight / 2);
    // One call's factor is kept within [1/2, 2]: a rank 100 times slower than the others keeps a
    // quarter of their weight (1/2 against their 2), not a hundredth.
    const W far = mpi::rebalanced(equal, std::vector<double>{1, 100, 1});
    EXPECT_EQ(far[1], mpi::kFullWeight / 4);
    // A rank without primes (0 seconds) keeps its weight; the others' mean is over the timed ones.
    const W idle = mpi::rebalanced(W{mpi::kFullWeight, 1000, mpi::kFullWeight}, std::vector<double>{1, 0, 1});
    EXPECT_EQ(idle, (W{mpi::kFullWeight, 1000, mpi::kFullWeight}));
    // Repeated, times a + b primes on identical ranks converge to about equal shares, not away.
    W w = {mpi::kFullWeight, mpi::kFullWeight / 2};
    for (int call = 0; call < 30; ++call) {
        const double total = double(w[0] + w[1]);
        const std::vector<double> seconds = {0.1 + double(w[0]) / total, 0.1 + double(w[1]) / total};
        w = mpi::rebalanced(w, seconds);
    }
    EXPECT_NEAR(double(w[1]) / double(w[0]), 1.0, 0.12);  // within the even band
}

TEST(MpiShares, EveryGpuDrivenAndRanksSpreadEvenly)
{
    EXPECT_EQ(mpi::device_share(0, 1, 1), std::vector<int>{0});
    EXPECT_EQ(mpi::device_share(0, 1, 4), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(mpi::device_share(1, 2, 2), std::vector<int>{1});
    EXPECT_EQ(mpi::device_share(1, 2, 5), (std::vector<int>{1, 3}));
    EXPECT_EQ(mpi::device_share(2, 3, 2), std::vector<int>{0});
    for (int devices = 1; devices <= 8; ++devices)
        for (int ranks = 1; ranks <= 10; ++ranks) {
            std::vector<int> drivers(std::size_t(devices), 0);
            for (int rank = 0; rank < ranks; ++rank)
                for (const int d : mpi::device_share(rank, ranks, devices)) {
                    ASSERT_GE(d, 0);
                    ASSERT_LT(d, devices);
                    ++drivers[std::size_t(d)];
                }
            const auto [fewest, most] = std::minmax_element(drivers.begin(), drivers.end());
            EXPECT_GE(*fewest, 1) << ranks << " ranks, " << devices << " GPUs: a GPU idles";
            EXPECT_LE(*most - *fewest, 1) << ranks << " ranks, " << devices << " GPUs";
            if (devices >= ranks) {
                EXPECT_EQ(*most, 1) << ranks << " ranks, " << devices << " GPUs: a GPU shared";
            }
        }
}

}  // namespace
}  // namespace zgpu::testing
