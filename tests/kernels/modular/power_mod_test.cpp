// Powers and inverses modulo one word (kernels/modular/power_mod.hpp) on the host, against GMP:
// the same functions run on the device. Inverses for odd moduli at every edge (2^64 - 1, the
// largest prime below 2^64, 2^63 + 1) and random ones, and for 2; powers with exponents 0, 1
// and full words.
#include <random>
#include <vector>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/modular/power_mod.hpp"

namespace zgpu::kernels {
namespace {

limb_t gmp_pow(limb_t x, limb_t e, limb_t n)
{
    mpz_t b, r, m;
    mpz_init_set_ui(b, x);
    mpz_init(r);
    mpz_init_set_ui(m, n);
    mpz_powm_ui(r, b, e, m);
    const limb_t v = mpz_get_ui(r);
    mpz_clears(b, r, m, nullptr);
    return v;
}

std::vector<limb_t> odd_moduli(std::mt19937_64& rng)
{
    std::vector<limb_t> moduli = {3, 5, 65537, (limb_t(1) << 61) - 1, (limb_t(1) << 62) + 1, (limb_t(1) << 63) + 1,
                                  ~limb_t(0) - 58, ~limb_t(0)};
    for (int bits = 2; bits <= 64; ++bits) {
        const limb_t top = limb_t(1) << (bits - 1);
        moduli.push_back(top | (rng() & (top - 1)) | 1);
    }
    return moduli;
}

TEST(PowerMod, InversesMatchGmp)
{
    std::mt19937_64 rng(3);
    EXPECT_EQ(inverse_mod(make_modulus(2), 1), 1u);
    // Against the contract (no inverse): 0, not an endless loop.
    EXPECT_EQ(inverse_mod(make_modulus(15), 5), 0u);
    EXPECT_EQ(inverse_mod(make_modulus(15), 6), 0u);
    for (const limb_t n : odd_moduli(rng)) {
        const Modulus p = make_modulus(n);
        std::vector<limb_t> xs = {1, 2, n - 1, n - 2, n / 2, n / 2 + 1};
        for (int r = 0; r < 200; ++r) xs.push_back(1 + rng() % (n - 1));
        for (const limb_t x : xs) {
            if (x == 0 || x >= n) continue;
            mpz_t a, m, inverse;
            mpz_init_set_ui(a, x);
            mpz_init_set_ui(m, n);
            mpz_init(inverse);
            if (mpz_invert(inverse, a, m)) {
                EXPECT_EQ(inverse_mod(p, x), mpz_get_ui(inverse)) << x << "^-1 mod " << n;
            }
            mpz_clears(a, m, inverse, nullptr);
        }
    }
}

TEST(PowerMod, PowersMatchGmp)
{
    std::mt19937_64 rng(4);
    for (const limb_t n : odd_moduli(rng)) {
        const Modulus p = make_modulus(n);
        for (const limb_t e : {limb_t(0), limb_t(1), limb_t(2), n - 2, ~limb_t(0), rng()}) {
            const limb_t x = rng() % n;
            EXPECT_EQ(pow_mod(p, x, e), gmp_pow(x, e, n)) << x << "^" << e << " mod " << n;
        }
    }
}

}  // namespace
}  // namespace zgpu::kernels
