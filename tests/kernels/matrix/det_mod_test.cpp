// Determinants mod p on the GPU (kernels/matrix/det_mod.hpp) against FLINT's nmod_mat_det: primes
// from 2 to 2^64 - 59, one matrix a prime in a batch, sizes from 1 to past a block's threads and
// either side of a panel's width, matrices singular mod p and ones that need row swaps, from
// within a panel and from below it; every matrix counted once as finished.
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "flint_random.hpp"
#include "kernels/matrix/det_mod.hpp"
#include "kernels/modular/ntt_primes.hpp"

namespace zgpu::testing {
namespace {

class DetMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(DetMod, MatchesFlintForEveryPrimeSize)
{
    flint_rand_t state;
    random_init(state);
    const std::vector<limb_t> primes = {2, 3, 65537, kernels::ntt_primes(1)[0], ~limb_t(0) - 58};
    for (const std::size_t n : {1, 2, 7, 15, 16, 17, 33, 300}) {
        std::vector<limb_t> entries;
        std::vector<limb_t> expected;
        std::vector<kernels::Modulus> moduli;
        for (std::size_t b = 0; b < 2 * primes.size(); ++b) {
            const limb_t p = primes[b % primes.size()];
            nmod_mat_t m;
            nmod_mat_init(m, slong(n), slong(n), p);
            nmod_mat_randtest(m, state);
            if (b >= primes.size() && n > 1) {
                // The second round: a zero top-left entry (a row swap) and, for odd b, a singular matrix.
                nmod_mat_entry(m, 0, 0) = 0;
                if (b % 2)
                    for (slong j = 0; j < slong(n); ++j) nmod_mat_entry(m, slong(n) - 1, j) = nmod_mat_entry(m, 0, j);
                // Zeros in the first panel's columns of its first rows: its pivots come from rows
                // below it, whose later columns have not had the panel's updates yet.
                if (b % 3 == 0 && n > 20)
                    for (slong i = 0; i < 20; ++i)
                        for (slong j = 0; j < 16; ++j) nmod_mat_entry(m, i, j) = 0;
            }
            for (slong i = 0; i < slong(n); ++i)
                for (slong j = 0; j < slong(n); ++j) entries.push_back(nmod_mat_entry(m, i, j));
            expected.push_back(nmod_mat_det(m));
            moduli.push_back(kernels::make_modulus(p));
            nmod_mat_clear(m);
        }
        const std::size_t count = moduli.size();
        DeviceArray<limb_t> a(entries), det(count);
        DeviceArray<kernels::Modulus> dm(moduli);
        DeviceArray<unsigned long long> finished(std::vector<unsigned long long>{0});
        kernels::det_mod({a.data(), n, n, n, n * n, count}, dm.data(), det.data(), nullptr, finished.data());
        const std::vector<limb_t> got = det.download();
        EXPECT_EQ(finished.download()[0], count) << "matrices counted as finished";
        for (std::size_t b = 0; b < count; ++b) EXPECT_EQ(got[b], expected[b]) << "n = " << n << ", matrix " << b << " mod " << moduli[b].n;
    }
    random_clear(state);
}

}  // namespace
}  // namespace zgpu::testing
