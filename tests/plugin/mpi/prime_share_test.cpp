// The MPI layer's shares of a prime set (plugin/mpi/prime_share.hpp): consecutive, disjoint,
// covering every prime once, as even as may be, and empty for ranks beyond the primes.
#include <vector>

#include <gtest/gtest.h>

#include "plugin/mpi/prime_share.hpp"

namespace zgpu::testing {
namespace {

TEST(MpiPrimeShare, ConsecutiveEvenSharesCoverEveryPrimeOnce)
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

}  // namespace
}  // namespace zgpu::testing
