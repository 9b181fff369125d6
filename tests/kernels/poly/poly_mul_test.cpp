// Polynomial products on the GPU by the 64-bit NTT (kernels/poly/poly_mul.hpp) and the step to
// other moduli (crt_to_moduli.hpp), against FLINT's nmod_poly_mul and nmod_poly_mullow: short
// transforms (several a block), one tile, long ones (one to three passes over device memory),
// batches of mixed lengths, squares, truncations, raw words reduced on the way, and the
// three-prime bound at its tightest (every coefficient n - 1); and compositions f(a)
// (poly_compose) against FLINT's nmod_poly_compose.
#include <algorithm>
#include <bit>
#include <random>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "../modular/device_modular.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "poly_reference.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

// The tables of `primes` for transforms up to `length`, on the device.
class DevicePolyTables {
public:
    DevicePolyTables(const std::vector<limb_t>& primes, std::uint32_t length)
        : fields_(fields_of(primes)), roots_(roots_of(primes, length, false)), inverse_roots_(roots_of(primes, length, true)),
          forward_(primes.size() * length), inverse_(primes.size() * length)
    {
        kernels::make_poly_ntt_tables(fields_.data(), roots_.data(), inverse_roots_.data(), primes.size(), length, forward_.data(),
                                      inverse_.data(), nullptr);
        view_ = {primes.size(), length, fields_.data(), forward_.data(), inverse_.data()};
    }
    const kernels::PolyNttTablesView& view() const { return view_; }

private:
    static std::vector<kernels::Field64> fields_of(const std::vector<limb_t>& primes)
    {
        std::vector<kernels::Field64> f;
        for (const limb_t p : primes) f.push_back(kernels::make_field64(p));
        return f;
    }
    static std::vector<limb_t> roots_of(const std::vector<limb_t>& primes, std::uint32_t length, bool inverse)
    {
        std::vector<limb_t> r;
        for (const limb_t p : primes) {
            const kernels::Field64 f = kernels::make_field64(p);
            const limb_t w = kernels::root_of_unity64(f, length);
            r.push_back(inverse ? f.pow(w, length - 1) : w);
        }
        return r;
    }

    DeviceArray<kernels::Field64> fields_;
    DeviceArray<limb_t> roots_, inverse_roots_;
    DeviceArray<kernels::Twiddle64> forward_, inverse_;
    kernels::PolyNttTablesView view_;
};

// One batch of products, each given for every prime (residues) or as raw words.
struct Product {
    std::vector<Poly> a, b;  // [prime] (one entry when raw)
    std::size_t out;
};

// What a batch computes: products a b (or squares a^2), compositions b(a), or powers a^e.
enum class Operation { product, square, compose, power };

// Runs the batch on the GPU: residues prime-major, products one after another in each row.
std::vector<std::vector<Poly>> gpu_batch(const std::vector<Product>& batch, const std::vector<limb_t>& primes, bool raw, Operation operation,
                                         std::uint64_t e = 0)
{
    const std::size_t k = primes.size(), rows = raw ? 1 : k;
    std::vector<std::uint64_t> a_off, b_off, out_off;
    std::vector<std::uint32_t> a_len, b_len, out_len;
    std::uint64_t a_total = 0, b_total = 0, out_total = 0, length = kernels::kPolyNttMinLength;
    for (const Product& p : batch) {
        a_off.push_back(a_total), b_off.push_back(b_total), out_off.push_back(out_total);
        a_len.push_back(std::uint32_t(p.a[0].size())), b_len.push_back(std::uint32_t(p.b[0].size())), out_len.push_back(std::uint32_t(p.out));
        a_total += p.a[0].size(), b_total += p.b[0].size(), out_total += p.out;
        const std::size_t la = std::min(p.a[0].size(), p.out), lb = std::min(p.b[0].size(), p.out);
        if (operation == Operation::compose || operation == Operation::power) length = std::max<std::uint64_t>(length, std::bit_ceil(p.out));
        else if (p.out) length = std::max<std::uint64_t>(length, kernels::poly_ntt_length(la, lb));
    }
    std::vector<limb_t> a_rows(rows * std::max<std::uint64_t>(a_total, 1)), b_rows(rows * std::max<std::uint64_t>(b_total, 1));
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < batch.size(); ++j) {
            std::copy(batch[j].a[i].begin(), batch[j].a[i].end(), a_rows.begin() + i * a_total + a_off[j]);
            std::copy(batch[j].b[i].begin(), batch[j].b[i].end(), b_rows.begin() + i * b_total + b_off[j]);
        }
    const DevicePolyTables tables(primes, std::uint32_t(length));
    const DeviceArray<limb_t> da(a_rows), db(b_rows), dc(std::vector<limb_t>(k * std::max<std::uint64_t>(out_total, 1), 0xdeadbeef));
    const DeviceArray<std::uint64_t> dao(a_off), dbo(b_off), dco(out_off);
    const DeviceArray<std::uint32_t> dal(a_len), dbl(b_len), dcl(out_len);
    const std::size_t stride = raw ? 0 : 1;
    const kernels::ConstPolyBatchView a{{da.data(), a_total, k, stride * a_total}, dao.data(), dal.data()};
    const kernels::ConstPolyBatchView b{{db.data(), b_total, k, stride * b_total}, dbo.data(), dbl.data()};
    const kernels::PolyBatchView c{{dc.data(), out_total, k, out_total}, dco.data(), dcl.data()};
    if (operation == Operation::compose) kernels::poly_compose(b, a, batch.size(), std::uint32_t(length), tables.view(), c, nullptr);
    else if (operation == Operation::power) kernels::poly_pow(a, e, batch.size(), std::uint32_t(length), tables.view(), c, nullptr);
    else {
        const bool square = operation == Operation::square;
        kernels::poly_mul(a, square ? a : b, square, batch.size(), std::uint32_t(length), tables.view(), c, nullptr);
    }
    const std::vector<limb_t> got = dc.download();
    std::vector<std::vector<Poly>> out(batch.size(), std::vector<Poly>(k));
    for (std::size_t j = 0; j < batch.size(); ++j)
        for (std::size_t i = 0; i < k; ++i)
            out[j][i] = Poly(got.begin() + i * out_total + out_off[j], got.begin() + i * out_total + out_off[j] + batch[j].out);
    return out;
}

std::vector<std::vector<Poly>> gpu_products(const std::vector<Product>& batch, const std::vector<limb_t>& primes, bool raw, bool square)
{
    return gpu_batch(batch, primes, raw, square ? Operation::square : Operation::product);
}

void expect_products(const std::vector<Product>& batch, const std::vector<limb_t>& primes, bool raw, bool square)
{
    const auto got = gpu_products(batch, primes, raw, square);
    for (std::size_t j = 0; j < batch.size(); ++j)
        for (std::size_t i = 0; i < primes.size(); ++i) {
            const Product& p = batch[j];
            const Poly& a = p.a[raw ? 0 : i];
            const Poly expected = flint_product(a, square ? a : p.b[raw ? 0 : i], p.out, primes[i]);
            ASSERT_EQ(got[j][i], expected) << "product " << j << " (" << p.a[0].size() << " x " << p.b[0].size() << " -> " << p.out
                                           << "), prime " << primes[i];
        }
}

Product random_product(std::size_t la, std::size_t lb, std::size_t out, const std::vector<limb_t>& primes, std::mt19937_64& rng)
{
    Product p{{}, {}, out};
    for (const limb_t q : primes) {
        p.a.push_back(random_poly(la, q, rng));
        p.b.push_back(random_poly(lb, q, rng));
    }
    return p;
}

class PolyMul : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
    std::mt19937_64 rng{2026};
    std::vector<limb_t> primes = kernels::ntt_primes(3);
};

// One product a call, from the shortest transform to 1 to 10 stages above the tile: one outer
// pass of 1, 2, 5, 6, 7 or 8 stages, two of 5 and 4 (the uneven split) or of 5 and 5.
TEST_F(PolyMul, SingleProductsOfEveryShape)
{
    const std::pair<std::size_t, std::size_t> shapes[] = {
        {1, 1},         {1, 2},           {2, 2},           {16, 17},     {31, 2},      {33, 33},
        {1024, 1024},   {1025, 1024},     {1500, 1500},     {3000, 5000}, {1, 40000},   {40000, 1},
        {40000, 40000}, {70000, 70001},   {200000, 200001}, {300000, 300000}, {1 << 20, 3}};
    for (const auto& [la, lb] : shapes) {
        SCOPED_TRACE(std::to_string(la) + " x " + std::to_string(lb));
        expect_products({random_product(la, lb, la + lb - 1, primes, rng)}, primes, false, false);
    }
}

// Truncated results (mullow): none, one, fewer than either operand, all but the top.
TEST_F(PolyMul, TruncatedProducts)
{
    for (const std::size_t out : {std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(2999), std::size_t(5000)}) {
        SCOPED_TRACE(out);
        expect_products({random_product(2000, 3001, out, primes, rng)}, primes, false, false);
    }
    expect_products({random_product(10, 10, 0, primes, rng), random_product(5, 3, 7, primes, rng)}, primes, false, false);
}

// Many products a call, lengths mixed, counts no multiple of the products a block.
TEST_F(PolyMul, BatchesOfMixedLengths)
{
    for (const std::size_t max_length : {std::size_t(16), std::size_t(1000), std::size_t(4000)}) {
        SCOPED_TRACE(max_length);
        std::vector<Product> batch;
        for (int j = 0; j < 67; ++j) {
            const std::size_t la = 1 + rng() % max_length, lb = 1 + rng() % max_length;
            batch.push_back(random_product(la, lb, j % 5 == 0 ? 1 + rng() % (la + lb - 1) : la + lb - 1, primes, rng));
        }
        expect_products(batch, primes, false, false);
    }
}

TEST_F(PolyMul, Squares)
{
    for (const std::size_t length : {std::size_t(1), std::size_t(100), std::size_t(5000)}) {
        std::vector<Product> batch{random_product(length, length, 2 * length - 1, primes, rng),
                                   random_product(length / 2 + 1, length / 2 + 1, length + 1, primes, rng)};
        for (Product& p : batch) p.b = p.a;
        expect_products(batch, primes, false, true);
    }
}

// Raw words (prime_stride 0), all-ones among them, reduced modulo each prime on the way.
TEST_F(PolyMul, RawWordsReducedOnTheWay)
{
    for (const std::size_t length : {std::size_t(500), std::size_t(3000)}) {
        Product p{{random_poly(length, ~limb_t(0), rng)}, {random_poly(length + 3, ~limb_t(0), rng)}, 2 * length + 2};
        std::fill(p.a[0].begin(), p.a[0].begin() + length / 2, ~limb_t(0));
        expect_products({p}, primes, true, false);
    }
}

// Products mod n through the three primes, at the bound's tightest: every coefficient n - 1.
TEST_F(PolyMul, ThreePrimesThenEachModulus)
{
    const limb_t moduli[] = {2, 3, (limb_t(1) << 62) + 135, (limb_t(1) << 63) - 25, ~limb_t(0) - 58};
    for (const std::size_t length : {std::size_t(5), std::size_t(4096), std::size_t(1) << 20}) {
        SCOPED_TRACE(length);
        for (const limb_t n : moduli) {
            SCOPED_TRACE(n);
            const Poly a(length, n - 1), b(length + 1, n - 1);
            const auto residues = gpu_products({Product{{a}, {b}, 2 * length}}, primes, true, false);
            // CRT of the residues, then reduction mod n, on the device.
            std::vector<limb_t> rows;
            for (const Poly& r : residues[0]) rows.insert(rows.end(), r.begin(), r.end());
            std::vector<kernels::Field64> fields;
            std::vector<limb_t> below(9, 0), inverse(3, 0), radix(3);
            unsigned __int128 product_mod_n = 1 % n;
            for (std::size_t i = 0; i < 3; ++i) {
                const kernels::Field64 f = kernels::make_field64(primes[i]);
                fields.push_back(f);
                unsigned __int128 below_i = 1;
                for (std::size_t l = 0; l < i; ++l) {
                    below[i * 3 + l] = f.to_montgomery(limb_t(below_i));
                    below_i = below_i * primes[l] % primes[i];
                }
                limb_t inv = 1, base = limb_t(below_i);
                for (limb_t e = primes[i] - 2; e; e >>= 1, base = limb_t((unsigned __int128)base * base % primes[i]))
                    if (e & 1) inv = limb_t((unsigned __int128)inv * base % primes[i]);
                inverse[i] = f.to_montgomery(inv);
                radix[i] = limb_t(product_mod_n);
                product_mod_n = product_mod_n * primes[i] % n;
            }
            const DeviceArray<kernels::Field64> df(fields);
            const DeviceArray<limb_t> dbelow(below), dinv(inverse), dradix(radix), drows(rows), dout(2 * length);
            const DeviceArray<kernels::Modulus> dmod(std::vector<kernels::Modulus>{kernels::make_modulus(n)});
            const DeviceArray<std::uint64_t> doff(std::vector<std::uint64_t>{0});
            const DeviceArray<std::uint32_t> dlen(std::vector<std::uint32_t>{std::uint32_t(2 * length)});
            const kernels::GarnerView g{3, df.data(), dbelow.data(), dinv.data()};
            kernels::crt_to_moduli({drows.data(), 2 * length, 3, 2 * length}, g, dmod.data(), dradix.data(), doff.data(), dlen.data(), 1,
                                   std::uint32_t(2 * length), dout.data(), nullptr);
            ASSERT_EQ(dout.download(), flint_product(a, b, 2 * length, n));
        }
    }
}

// FLINT's f(a) modulo m.
Poly flint_composition(const Poly& f, const Poly& a, limb_t m)
{
    return flint_nmod(f, a, (f.size() - 1) * (a.size() - 1) + 1, m,
                      [](nmod_poly_t r, const nmod_poly_t x, const nmod_poly_t y) { nmod_poly_compose(r, x, y); });
}

// The compositions f(a) of a batch (Product's a: the inner polynomials, b: the outer ones).
void expect_compositions(const std::vector<Product>& batch, const std::vector<limb_t>& primes)
{
    const auto got = gpu_batch(batch, primes, false, Operation::compose);
    for (std::size_t j = 0; j < batch.size(); ++j)
        for (std::size_t i = 0; i < primes.size(); ++i)
            ASSERT_EQ(got[j][i], flint_composition(batch[j].b[i], batch[j].a[i], primes[i]))
                << "composition " << j << " (" << batch[j].b[0].size() << " of " << batch[j].a[0].size() << "), prime " << primes[i];
}

Product random_composition(std::size_t outer, std::size_t inner, const std::vector<limb_t>& primes, std::mt19937_64& rng)
{
    Product p = random_product(inner, outer, (outer - 1) * (inner - 1) + 1, primes, rng);
    for (std::size_t i = 0; i < primes.size(); ++i) p.a[i].back() = std::max<limb_t>(p.a[i].back(), 1);
    return p;
}

// One composition a call, from the shortest transform to long ones (outer passes), results
// that fill their transform exactly ((lf - 1)(la - 1) + 1 = 64, 2048, 65536), constants inside
// and outside.
TEST_F(PolyMul, CompositionsOfEveryShape)
{
    const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1},   {1, 5},    {5, 1},     {2, 2},     {3, 5},   {8, 10},
                                                          {24, 90}, {33, 65},  {100, 3},   {2, 3000},  {256, 256}, {256, 258},
                                                          {600, 300}};
    for (const auto& [outer, inner] : shapes) {
        SCOPED_TRACE(std::to_string(outer) + " of " + std::to_string(inner));
        expect_compositions({random_composition(outer, inner, primes, rng)}, primes);
    }
}

// Many compositions a call, several a block or two on long transforms, and the accumulator's
// bound at its tightest: every coefficient p - 1.
TEST_F(PolyMul, CompositionBatchesAndLargestCoefficients)
{
    std::vector<Product> batch;
    for (int j = 0; j < 37; ++j) batch.push_back(random_composition(1 + rng() % 12, 1 + rng() % 12, primes, rng));
    expect_compositions(batch, primes);
    // Two a call on a transform above the tile (its outer passes).
    expect_compositions({random_composition(64, 70, primes, rng), random_composition(40, 100, primes, rng)}, primes);
    for (const auto& [outer, inner] : {std::pair<std::size_t, std::size_t>{7, 9}, {300, 200}}) {
        Product p = random_composition(outer, inner, primes, rng);
        for (std::size_t i = 0; i < primes.size(); ++i) {
            std::fill(p.a[i].begin(), p.a[i].end(), primes[i] - 1);
            std::fill(p.b[i].begin(), p.b[i].end(), primes[i] - 1);
        }
        expect_compositions({p}, primes);
    }
}

// The families' kernels load ahead of their first launch (the plugin's warm start does this).
TEST_F(PolyMul, KernelsLoadAheadOfTheirFirstLaunch)
{
    EXPECT_NO_THROW(kernels::load_poly_mul_kernels());
    EXPECT_NO_THROW(kernels::load_multi_mod_kernels());
    EXPECT_NO_THROW(kernels::load_multi_crt_kernels());
}

// Powers a^e of one polynomial a call and of batches, from the shortest transform to long ones,
// exponents 1 to 300, results that fill their transform (e (la - 1) + 1 = 2048), every
// coefficient p - 1; against FLINT's nmod_poly_pow.
TEST_F(PolyMul, PowersOfEveryShape)
{
    const auto power = [&](std::size_t length, std::uint64_t e, bool largest) {
        Product p = random_product(length, 1, e * (length - 1) + 1, primes, rng);
        if (largest)
            for (std::size_t i = 0; i < primes.size(); ++i) std::fill(p.a[i].begin(), p.a[i].end(), primes[i] - 1);
        return p;
    };
    const auto expect = [&](const std::vector<Product>& batch, std::uint64_t e) {
        const auto got = gpu_batch(batch, primes, false, Operation::power, e);
        for (std::size_t j = 0; j < batch.size(); ++j)
            for (std::size_t i = 0; i < primes.size(); ++i) {
                const Poly expected = flint_nmod(batch[j].a[i], {}, batch[j].out, primes[i],
                                                 [e](nmod_poly_t r, const nmod_poly_t x, const nmod_poly_t) { nmod_poly_pow(r, x, e); });
                ASSERT_EQ(got[j][i], expected) << "power " << j << " (" << batch[j].a[0].size() << " coefficients to the " << e
                                               << "), prime " << primes[i];
            }
    };
    for (const auto& [length, e] : {std::pair<std::size_t, std::uint64_t>{1, 5}, {2, 1}, {2, 31}, {5, 3}, {100, 2}, {90, 23},
                                    {1024, 64}, {3000, 7}, {2, 300}})
        for (const bool largest : {false, true}) {
            SCOPED_TRACE(std::to_string(length) + " to the " + std::to_string(e));
            expect({power(length, e, largest)}, e);
        }
    std::vector<Product> batch;
    for (int j = 0; j < 29; ++j) batch.push_back(power(1 + rng() % 20, 6, j % 3 == 0));
    expect(batch, 6);
    // Two a call on a transform above the tile (its outer passes).
    expect({power(1024, 3, false), power(700, 3, true)}, 3);
}

}  // namespace
}  // namespace zgpu::testing
