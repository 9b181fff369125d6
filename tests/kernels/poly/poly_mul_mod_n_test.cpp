// Short products modulo word moduli through five 29-bit primes (kernels/poly/poly_mul_mod_n.hpp)
// against FLINT's nmod_poly_mullow: every transform length from 32 to 2048, several products a
// block and counts no multiple of them, truncations, squares, empty operands, raw words, and the
// five-prime bound at its tightest (every coefficient n - 1 at the longest length).
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "../modular/device_modular.hpp"
#include "kernels/poly/poly_mul_mod_n.hpp"
#include "poly_reference.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

// One product: operands as words (reduced mod n or not), result length, modulus.
struct Product {
    Poly a, b;
    std::size_t out;
    limb_t n;
};

// The five primes' tables, on the device.
class DeviceFivePrimeTables {
public:
    DeviceFivePrimeTables() : forward_(host(false)), inverse_(host(true)) {}
    kernels::FivePrimeTablesView view() const { return {forward_.data(), inverse_.data()}; }

private:
    static std::vector<kernels::Twiddle> host(bool inverse)
    {
        const std::size_t entries = kernels::kFivePrimeCount * kernels::kPolyMulModNMaxLength;
        std::vector<kernels::Twiddle> forward(entries), backward(entries);
        kernels::fill_five_prime_tables(forward, backward);
        return inverse ? backward : forward;
    }
    DeviceArray<kernels::Twiddle> forward_, inverse_;
};

std::vector<Poly> gpu_products(const std::vector<Product>& batch, bool square)
{
    std::vector<std::uint64_t> a_off, b_off, out_off;
    std::vector<std::uint32_t> a_len, b_len, out_len;
    std::vector<limb_t> a_words, b_words, moduli;
    std::uint64_t out_total = 0, length = kernels::kPolyNttMinLength;
    for (const Product& p : batch) {
        a_off.push_back(a_words.size()), b_off.push_back(b_words.size()), out_off.push_back(out_total);
        a_len.push_back(std::uint32_t(p.a.size())), b_len.push_back(std::uint32_t(p.b.size())), out_len.push_back(std::uint32_t(p.out));
        a_words.insert(a_words.end(), p.a.begin(), p.a.end());
        b_words.insert(b_words.end(), p.b.begin(), p.b.end());
        moduli.push_back(p.n);
        out_total += p.out;
        const std::size_t la = std::min(p.a.size(), p.out), lb = std::min(p.b.size(), p.out);
        if (p.out && la && lb) length = std::max<std::uint64_t>(length, kernels::poly_ntt_length(la, lb));
    }
    a_words.resize(a_words.size() + 1), b_words.resize(b_words.size() + 1);  // none may be empty
    const DeviceFivePrimeTables tables;
    const DeviceArray<limb_t> da(a_words), db(b_words), dn(moduli), dc(std::vector<limb_t>(out_total + 1, 0xdeadbeef));
    const DeviceArray<std::uint64_t> dao(a_off), dbo(b_off), dco(out_off);
    const DeviceArray<std::uint32_t> dal(a_len), dbl(b_len), dcl(out_len);
    const kernels::ConstPolyBatchView a{{da.data(), a_words.size(), 1, 0}, dao.data(), dal.data()};
    const kernels::ConstPolyBatchView b{{db.data(), b_words.size(), 1, 0}, dbo.data(), dbl.data()};
    const kernels::PolyBatchView c{{dc.data(), out_total, 1, 0}, dco.data(), dcl.data()};
    kernels::poly_mul_mod_n(a, b, square, batch.size(), std::uint32_t(length), dn.data(), tables.view(), c, nullptr);
    const std::vector<limb_t> got = dc.download();
    EXPECT_EQ(got.back(), 0xdeadbeefu) << "written past the results";
    std::vector<Poly> out;
    for (std::size_t j = 0; j < batch.size(); ++j)
        out.emplace_back(got.begin() + std::ptrdiff_t(out_off[j]), got.begin() + std::ptrdiff_t(out_off[j] + batch[j].out));
    return out;
}

void expect_products(const std::vector<Product>& batch, bool square = false)
{
    const std::vector<Poly> got = gpu_products(batch, square);
    for (std::size_t j = 0; j < batch.size(); ++j) {
        const Product& p = batch[j];
        ASSERT_EQ(got[j], flint_product(p.a, square ? p.a : p.b, p.out, p.n))
            << "product " << j << " (" << p.a.size() << " x " << p.b.size() << " -> " << p.out << ") mod " << p.n;
    }
}

class PolyMulModN : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
    Product random_product(std::size_t la, std::size_t lb, std::size_t out, limb_t n)
    {
        return {random_poly(la, n, rng), random_poly(lb, n, rng), out, n};
    }
    std::mt19937_64 rng{2027};
    static constexpr limb_t kModuli[] = {2, 3, 1000003, (limb_t(1) << 62) + 135, (limb_t(1) << 63) - 25, ~limb_t(0) - 58};
};

// One product a call at every transform length, each modulus.
TEST_F(PolyMulModN, SingleProductsOfEveryLength)
{
    const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1},     {1, 2},     {2, 2},     {16, 17},   {31, 2},
                                                          {33, 33},   {64, 65},   {200, 57},  {300, 300}, {1, 1000},
                                                          {1024, 1024}, {1025, 1024}, {1000, 1049}};
    for (const auto& [la, lb] : shapes)
        for (const limb_t n : kModuli) {
            SCOPED_TRACE(std::to_string(la) + " x " + std::to_string(lb) + " mod " + std::to_string(n));
            expect_products({random_product(la, lb, la + lb - 1, n)});
        }
}

// Many products a call: mixed lengths and moduli, truncations, empty operands, a count that is no
// multiple of the products a block (2048 / N).
TEST_F(PolyMulModN, BatchesOfMixedLengthsAndModuli)
{
    for (const std::size_t max_length : {std::size_t(16), std::size_t(100), std::size_t(1024)}) {
        SCOPED_TRACE(max_length);
        std::vector<Product> batch;
        for (int j = 0; j < 203; ++j) {
            const std::size_t la = j % 17 == 3 ? 0 : 1 + rng() % max_length, lb = 1 + rng() % max_length;
            const std::size_t full = la ? la + lb - 1 : 0;
            const limb_t n = j % 3 ? kModuli[j % std::size(kModuli)] : 2 + rng() % (~limb_t(0) - 1);
            batch.push_back(random_product(la, lb, j % 5 == 0 && full ? 1 + rng() % full : full, n));
        }
        expect_products(batch);
    }
}

TEST_F(PolyMulModN, Squares)
{
    for (const std::size_t length : {std::size_t(1), std::size_t(40), std::size_t(1024)}) {
        SCOPED_TRACE(length);
        std::vector<Product> batch;
        for (const limb_t n : kModuli) {
            Product p = random_product(length, length, 2 * length - 1, n);
            p.b = p.a;
            batch.push_back(p);
        }
        expect_products(batch, true);
    }
}

// Raw words, all-ones among them, not reduced mod n: reduced modulo each prime on the way.
TEST_F(PolyMulModN, RawWords)
{
    for (const limb_t n : kModuli) {
        Product p{random_poly(1000, ~limb_t(0), rng), random_poly(1048, ~limb_t(0), rng), 2047, n};
        std::fill(p.a.begin(), p.a.begin() + 500, ~limb_t(0));
        expect_products({p});
    }
}

// The bound at its tightest: every coefficient n - 1 (and 2^64 - 1, raw), 1024 x 1025, the
// longest transform: coefficients of the product over Z up to 1024 (n - 1)^2.
TEST_F(PolyMulModN, EveryCoefficientAtTheMaximum)
{
    std::vector<Product> batch;
    for (const limb_t n : kModuli) batch.push_back({Poly(1024, n - 1), Poly(1025, n - 1), 2048, n});
    batch.push_back({Poly(1024, ~limb_t(0)), Poly(1025, ~limb_t(0)), 2048, ~limb_t(0) - 58});
    expect_products(batch);
}

TEST_F(PolyMulModN, RejectsTransformsAboveTheLimit)
{
    const DeviceFivePrimeTables tables;
    const kernels::ConstPolyBatchView none{};
    EXPECT_THROW(kernels::poly_mul_mod_n(none, none, false, 1, 4096, nullptr, tables.view(), {}, nullptr), Error);
    EXPECT_THROW(kernels::poly_mul_mod_n(none, none, false, 1, 48, nullptr, tables.view(), {}, nullptr), Error);
}

}  // namespace
}  // namespace zgpu::testing
