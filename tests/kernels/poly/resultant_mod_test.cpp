// Resultants modulo a batch of primes on the GPU (kernels/poly/resultant_mod.hpp), a warp or a
// block a prime, against the host's run of the same sequence with one lane (resultant_sequence.hpp,
// itself tested against FLINT): more primes than an SM holds, leading coefficients that vanish
// modulo some of them, unbalanced degrees, lengths that are not multiples of a warp, and
// polynomials too long for shared memory; every prime counted once as finished.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/resultant_mod.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

class ResultantMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }

    // Random a and b of formal degrees da and db modulo each of `count` NTT primes, some with
    // vanishing leading coefficients; the GPU's resultants, a warp and a block a prime and by the
    // automatic choice, against the host's.
    static void check(std::size_t da, std::size_t db, std::size_t count)
    {
        for (const unsigned lanes : {32u, 256u, 0u}) check(da, db, count, lanes);
    }
    static void check(std::size_t da, std::size_t db, std::size_t count, unsigned lanes)
    {
        const std::vector<limb_t> primes = kernels::ntt_primes(count);
        std::mt19937_64 random(da * 1000 + db);
        std::vector<limb_t> a((da + 1) * count), b((db + 1) * count), expected(count);
        std::vector<kernels::Modulus> moduli;
        for (std::size_t k = 0; k < count; ++k) {
            const limb_t p = primes[k];
            moduli.push_back(kernels::make_modulus(p));
            limb_t* ak = a.data() + k * (da + 1);
            limb_t* bk = b.data() + k * (db + 1);
            for (std::size_t i = 0; i <= da; ++i) ak[i] = random() % p;
            for (std::size_t i = 0; i <= db; ++i) bk[i] = random() % p;
            if (k % 7 == 0) ak[da] = 0;  // a leading coefficient that vanishes mod p
            if (k % 11 == 0 && db >= 1) bk[db] = 0, bk[db - 1] = 0;
            std::vector<limb_t> ah(ak, ak + da + 1), bh(bk, bk + db + 1);
            expected[k] = kernels::resultant_mod(kernels::SingleLane{}, ah.data(), da, bh.data(), db, moduli.back());
        }
        SCOPED_TRACE("lanes a prime: " + std::to_string(lanes));
        DeviceArray<limb_t> a_device(a), b_device(b), res(count);
        DeviceArray<kernels::Modulus> m_device(moduli);
        DeviceArray<unsigned long long> finished(std::vector<unsigned long long>{0});
        kernels::resultant_mod(a_device.data(), da, b_device.data(), db, m_device.data(), count, res.data(), nullptr,
                               finished.data(), lanes);
        const std::vector<limb_t> got = res.download();
        EXPECT_EQ(finished.download()[0], count) << "primes counted as finished";
        for (std::size_t k = 0; k < count; ++k)
            ASSERT_EQ(got[k], expected[k]) << "prime " << k << ", formal degrees " << da << " and " << db;
    }
};

TEST_F(ResultantMod, MatchesTheHostsSequenceOnEveryPrime)
{
    check(40, 33, 300);
    check(0, 5, 40);
    check(7, 0, 40);
    check(1, 1, 77);
}

TEST_F(ResultantMod, OnlyWarpsOrBlocksOfLanes)
{
    EXPECT_THROW(kernels::resultant_mod(nullptr, 1, nullptr, 1, nullptr, 1, nullptr, nullptr, nullptr, 64), Error);
}

TEST_F(ResultantMod, UnbalancedAndLongPolynomials)
{
    check(1000, 3, 64);
    check(5, 900, 64);
    check(700, 699, 33);
}

TEST_F(ResultantMod, PolynomialsBeyondSharedMemoryStayInDeviceMemory)
{
    std::size_t d = 1000;
    while (kernels::resultant_mod_fits_on_chip(d, d)) d += 1000;
    check(d, d - 1, 2, 32);
    check(d, d - 1, 2, 256);
}

}  // namespace
}  // namespace zgpu::testing
