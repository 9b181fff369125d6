// The MPI layer's shares (plugin/mpi/shares.hpp). Of a prime set: consecutive, disjoint,
// covering every prime once, as even as may be, and empty for ranks beyond the primes. Of a
// machine's GPUs: every GPU driven, each by one rank where there are at least as many GPUs as
// ranks, and the ranks spread evenly over the GPUs where there are fewer.
#include <algorithm>
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
            if (devices >= ranks) EXPECT_EQ(*most, 1) << ranks << " ranks, " << devices << " GPUs: a GPU shared";
        }
}

}  // namespace
}  // namespace zgpu::testing
