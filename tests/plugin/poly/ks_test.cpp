// KS packing and unpacking against FLINT on the CPU: pack, multiply the integers with
// mpn_mul, unpack, compare with _nmod_poly_mul. And which pairs fit a batch.
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <vector>

#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "ks_limits.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/poly/ks.hpp"
#include "plugin/poly/poly_choice.hpp"

namespace zgpu::poly {
namespace {

constexpr ulong kMaxModulus = ~ulong(0);    // 2^64 - 1
constexpr ulong kPrime64 = ~ulong(0) - 58;  // 2^64 - 59

nmod_t modulus(ulong n)
{
    nmod_t mod;
    nmod_init(&mod, n);
    return mod;
}

// The packed integer of coeffs, with a canary limb past its end that must survive.
std::vector<ulong> packed(const std::vector<ulong>& coeffs, unsigned bits)
{
    const std::uint64_t limbs = ks_limbs(coeffs.data(), coeffs.size(), bits);
    std::vector<ulong> out(limbs + 1, 0x5a5a5a5a5a5a5a5aull);
    ks_pack(coeffs.data(), coeffs.size(), bits, out.data());
    EXPECT_EQ(out[limbs], 0x5a5a5a5a5a5a5a5aull) << "wrote past ks_limbs";
    if (limbs) {
        EXPECT_NE(out[limbs - 1], 0u) << "top limb zero: the size is not normalised";
    }
    out.pop_back();
    return out;
}

// a * b mod n through KS and mpn_mul, against _nmod_poly_mul. Operands normalised, nonempty.
void expect_ks_product(const std::vector<ulong>& a, const std::vector<ulong>& b, ulong n)
{
    const nmod_t mod = modulus(n);
    const unsigned bits = ks_bits(n, std::min(a.size(), b.size()));
    const std::vector<ulong> pa = packed(a, bits), pb = packed(b, bits);
    const auto& [big, small] = pa.size() >= pb.size() ? std::tie(pa, pb) : std::tie(pb, pa);
    std::vector<ulong> product(big.size() + small.size());
    mpn_mul(product.data(), big.data(), mp_size_t(big.size()), small.data(), mp_size_t(small.size()));
    std::size_t size = product.size();
    while (size && product[size - 1] == 0) --size;

    const std::size_t len = a.size() + b.size() - 1;
    std::vector<ulong> ours(len), theirs(len);
    ks_unpack(product.data(), size, bits, mod, ours.data(), len);
    const auto& [longer, shorter] = a.size() >= b.size() ? std::tie(a, b) : std::tie(b, a);
    _nmod_poly_mul(theirs.data(), longer.data(), slong(longer.size()), shorter.data(), slong(shorter.size()), mod);
    ASSERT_EQ(ours, theirs) << "lengths " << a.size() << " and " << b.size() << " mod " << n << ", digits of " << bits
                            << " bits";
}

std::vector<ulong> random_poly(flint_rand_t state, std::size_t len, ulong n)
{
    std::vector<ulong> p(len);
    for (ulong& c : p) c = n_randint(state, n);
    if (len) p.back() = 1 + n_randint(state, n - 1);  // normalised
    return p;
}

class Ks : public ::testing::Test {
protected:
    void SetUp() override { random_init(state_); }
    void TearDown() override { random_clear(state_); }
    flint_rand_t state_;
};

TEST_F(Ks, DigitWidthIsTwiceTheModulusBitsPlusTheShorterLengthsBits)
{
    EXPECT_EQ(ks_bits(2, 1), 5u);
    EXPECT_EQ(ks_bits(3, 4), 7u);
    EXPECT_EQ(ks_bits(kMaxModulus, 1), 129u);
    EXPECT_EQ(ks_bits(kMaxModulus, std::uint64_t(1) << 22), 151u);
}

TEST_F(Ks, RandomProductsMatchFlint)
{
    const ulong moduli[] = {2, 3, 5, 1ull << 31, kernels::ntt_primes(1)[0], (1ull << 62) + 135, kPrime64, kMaxModulus};
    const std::size_t lengths[] = {1, 2, 3, 7, 8, 9, 63, 64, 65, 255, 1000};
    for (const ulong n : moduli)
        for (const std::size_t la : lengths)
            for (const std::size_t lb : {std::size_t(1), std::size_t(2), std::size_t(17), la})
                expect_ks_product(random_poly(state_, la, n), random_poly(state_, lb, n), n);
}

TEST_F(Ks, EveryCoefficientAtTheMaximumAtTheBatchLimit)
{
    for (const ulong n : {kMaxModulus, kPrime64, ulong(2)}) {
        const std::size_t len = testing::ks_limit_length(n);
        const std::vector<ulong> top(len, n - 1);
        expect_ks_product(top, top, n);  // the middle coefficient is len (n - 1)^2, the bound's tightest
        expect_ks_product(top, {n - 1}, n);
        expect_ks_product(top, std::vector<ulong>(2, n - 1), n);

        // The bound: len (n - 1)^2 < 2^b; and the product, of at most (2 len - 2) b + 2 bits(n)
        // bits (its top digit is a product of two coefficients), within a batch's 2^22.
        const unsigned bits = ks_bits(n, len);
        fmpz_t c, limit;
        fmpz_init_set_ui(c, n - 1);
        fmpz_mul(c, c, c);
        fmpz_mul_ui(c, c, len);
        fmpz_init(limit);
        fmpz_one(limit);
        fmpz_mul_2exp(limit, limit, bits);
        EXPECT_LT(fmpz_cmp(c, limit), 0) << "mod " << n;
        EXPECT_LE(std::uint64_t(2 * len - 2) * bits + 2 * std::bit_width(n), std::uint64_t(1) << 22) << "mod " << n;
        fmpz_clear(c);
        fmpz_clear(limit);
    }
}

TEST_F(Ks, DigitsAboveTheIntegerReadAsZero)
{
    // A product whose top coefficients are zero mod n but not over Z: n = 2, every coefficient 1.
    const std::vector<ulong> ones(100, 1);
    expect_ks_product(ones, ones, 2);
    const ulong limb = 5;
    std::vector<ulong> out(4, 7);
    ks_unpack(&limb, 1, 64, modulus(3), out.data(), out.size());
    EXPECT_EQ(out, (std::vector<ulong>{2, 0, 0, 0}));
}

TEST_F(Ks, PairsForTheGpuFitOneBatchTogether)
{
    const auto pair = [](std::uint64_t a_limbs, std::uint64_t b_limbs) {
        KsPair p;
        p.a_limbs = a_limbs;
        p.b_limbs = b_limbs;
        p.out_len = 1;
        return p;
    };
    KsPair zero;  // a zero product: neither the GPU's nor FLINT's
    const std::vector<KsPair> pairs = {pair(100, 50), zero, pair(60000, 1000), pair(32000, 32000), pair(70000, 1)};
    // 60000 limbs times the 32000 of pair 3 would not fit one stride: FLINT takes pair 2.
    EXPECT_EQ(gpu_pairs(pairs), (std::vector<std::size_t>{0, 3}));
    EXPECT_EQ(gpu_pairs({&pairs[2], 1}), (std::vector<std::size_t>{0}));
    EXPECT_TRUE(ks_fits_batch(kMaxLimbs / 2, kMaxLimbs / 2));
    EXPECT_FALSE(ks_fits_batch(kMaxLimbs / 2 + 1, kMaxLimbs / 2));
    EXPECT_FALSE(ks_fits_batch(kMaxLimbs + 1, 0));
}

}  // namespace
}  // namespace zgpu::poly
