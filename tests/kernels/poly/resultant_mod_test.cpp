// Resultants modulo a batch of primes on the GPU (kernels/poly/resultant_mod.hpp), a thread a
// prime with interleaved coefficients, against the host's run of the same sequence
// (resultant_sequence.hpp, itself tested against FLINT): more primes than a block's threads,
// leading coefficients that vanish modulo some of them.
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/resultant_mod.hpp"

namespace zgpu::testing {
namespace {

class ResultantMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(ResultantMod, MatchesTheHostsSequenceOnEveryPrime)
{
    constexpr std::size_t kPrimes = 300, da = 40, db = 33;
    const std::vector<limb_t> primes = kernels::ntt_primes(kPrimes);
    std::mt19937_64 random(5);
    std::vector<limb_t> a((da + 1) * kPrimes), b((db + 1) * kPrimes), expected(kPrimes);
    std::vector<kernels::Modulus> moduli;
    for (std::size_t k = 0; k < kPrimes; ++k) {
        const limb_t p = primes[k];
        moduli.push_back(kernels::make_modulus(p));
        std::vector<limb_t> ak(da + 1), bk(db + 1);
        for (limb_t& x : ak) x = random() % p;
        for (limb_t& x : bk) x = random() % p;
        if (k % 7 == 0) ak[da] = 0;  // a leading coefficient that vanishes mod p
        if (k % 11 == 0) bk[db] = 0, bk[db - 1] = 0;
        for (std::size_t i = 0; i <= da; ++i) a[i * kPrimes + k] = ak[i];
        for (std::size_t i = 0; i <= db; ++i) b[i * kPrimes + k] = bk[i];
        expected[k] = kernels::resultant_mod({ak.data(), 1}, da, {bk.data(), 1}, db, moduli.back());
    }
    DeviceArray<limb_t> da_(a), db_(b), res(kPrimes);
    DeviceArray<kernels::Modulus> dm(moduli);
    kernels::resultant_mod(da_.data(), da, db_.data(), db, dm.data(), kPrimes, res.data(), nullptr);
    const std::vector<limb_t> got = res.download();
    for (std::size_t k = 0; k < kPrimes; ++k) EXPECT_EQ(got[k], expected[k]) << "prime " << k;
}

}  // namespace
}  // namespace zgpu::testing
