// The GPU path of nmod_poly_products without a GPU: poly_backend.hpp's functions stood in for by
// FLINT's products of the plans they are given (each plan checked against the backend's
// contract), every result compared with FLINT's own product.
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include <flint/nmod.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/poly/nmod_products.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

// What the stand-in for gpu::nmod_products saw.
struct Seen {
    std::size_t calls = 0;
    std::vector<gpu::NmodProduct> plans;
};

std::uint64_t stand_in_length(const gpu::NmodProduct& p)
{
    const std::size_t la = std::min(p.a_length, p.out_length), lb = std::min(p.b_length, p.out_length);
    return std::bit_ceil(std::max<std::uint64_t>(16, la + lb - 1));
}

// max_transform: the longest transform the stand-in takes.
NmodGpu stand_in(Seen& seen, std::uint64_t max_transform = gpu::kMaxPolyTransform)
{
    NmodGpu gpu;
    gpu.transform_length = stand_in_length;
    gpu.max_transform = max_transform;
    gpu.multiply = [&seen, max_transform](std::span<const gpu::NmodProduct> products) {
        seen.calls += 1;
        for (const gpu::NmodProduct& p : products) {
            seen.plans.push_back(p);
            ASSERT_GE(p.a_length, 1u);
            ASSERT_GE(p.b_length, 1u);
            ASSERT_GE(p.out_length, 1u);
            ASSERT_LE(p.out_length, p.a_length + p.b_length - 1);
            ASSERT_LE(stand_in_length(p), max_transform);
            ASSERT_NE(p.a[p.a_length - 1], 0u) << "top zeros are dropped";
            ASSERT_NE(p.b[p.b_length - 1], 0u);
            for (std::size_t i = 0; i < p.a_length; ++i) ASSERT_LT(p.a[i], p.n);
            nmod_t mod;
            nmod_init(&mod, p.n);
            const bool swap = p.a_length < p.b_length;
            _nmod_poly_mullow(p.out, swap ? p.b : p.a, slong(swap ? p.b_length : p.a_length), swap ? p.a : p.b,
                              slong(swap ? p.a_length : p.b_length), slong(p.out_length), mod);
        }
    };
    return gpu;
}

// Polynomials that free themselves: res, a and b of each product.
class Products {
public:
    explicit Products(std::size_t count) : polys_(3 * count), count_(count) {}
    ~Products()
    {
        for (nmod_poly_struct& p : polys_)
            if (p.mod.n) nmod_poly_clear(&p);
    }
    Products(const Products&) = delete;
    Products& operator=(const Products&) = delete;

    void init(std::size_t i, ulong n)
    {
        for (std::size_t k = 0; k < 3; ++k) nmod_poly_init(&polys_[k * count_ + i], n);
    }
    nmod_poly_struct* res(std::size_t i) { return &polys_[i]; }
    nmod_poly_struct* a(std::size_t i) { return &polys_[count_ + i]; }
    nmod_poly_struct* b(std::size_t i) { return &polys_[2 * count_ + i]; }

private:
    std::vector<nmod_poly_struct> polys_;  // mod.n == 0: not initialised
    std::size_t count_;
};

const ulong kModuli[] = {2, 3, 0, (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};  // 0: an NTT prime

ulong modulus(std::size_t i)
{
    const ulong n = kModuli[i % std::size(kModuli)];
    return n ? n : kernels::ntt_primes(1)[0];
}

class NmodGpuPath : public ::testing::Test {
protected:
    void SetUp() override { random_init(state_); }
    void TearDown() override { random_clear(state_); }

    // Runs `products` through the GPU path (transforms up to max_transform) and checks each
    // against FLINT.
    Backend expect_flint(const std::vector<PolyProduct>& products, Seen& seen, std::uint64_t max_transform = gpu::kMaxPolyTransform)
    {
        std::vector<nmod_poly_struct> theirs(products.size());
        for (std::size_t i = 0; i < products.size(); ++i) {
            const PolyProduct& p = products[i];
            nmod_poly_init_mod(&theirs[i], p.a->mod);
            if (p.trunc < 0) ::nmod_poly_mul(&theirs[i], p.a, p.b);
            else ::nmod_poly_mullow(&theirs[i], p.a, p.b, p.trunc);
        }
        const Backend ran = nmod_poly_products_on(Backend::gpu, products, stand_in(seen, max_transform));
        for (std::size_t i = 0; i < products.size(); ++i) {
            EXPECT_TRUE(nmod_poly_equal(products[i].res, &theirs[i]))
                << "product " << i << ": lengths " << products[i].a->length << " and " << products[i].b->length
                << " mod " << products[i].a->mod.n << ", trunc " << products[i].trunc;
            nmod_poly_clear(&theirs[i]);
        }
        return ran;
    }

    flint_rand_t state_;
};

TEST_F(NmodGpuPath, MixedBatchesMatchFlint)
{
    const slong lengths[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 500};
    for (const std::size_t count : {std::size_t(1), std::size_t(2), std::size_t(13), std::size_t(40)}) {
        for (const bool truncated : {false, true}) {
            Products polys(count);
            std::vector<PolyProduct> products;
            std::size_t nonzero = 0;
            for (std::size_t i = 0; i < count; ++i) {
                polys.init(i, modulus(i));
                nmod_poly_randtest(polys.a(i), state_, lengths[n_randint(state_, std::size(lengths))]);
                nmod_poly_randtest(polys.b(i), state_, lengths[n_randint(state_, std::size(lengths))]);
                const slong full = polys.a(i)->length + polys.b(i)->length - 1;
                const slong trunc = truncated ? slong(n_randint(state_, ulong(std::max<slong>(full, 0) + 3))) : -1;
                nonzero += polys.a(i)->length && polys.b(i)->length && trunc != 0;
                // res == a for every third product, res == b for every fifth.
                nmod_poly_struct* res = i % 3 == 0 ? polys.a(i) : i % 5 == 0 ? polys.b(i) : polys.res(i);
                products.push_back({res, polys.a(i), polys.b(i), trunc});
            }
            Seen seen;
            const Backend ran = expect_flint(products, seen);
            EXPECT_LE(seen.calls, 1u) << "one call for the batch";
            EXPECT_LE(seen.plans.size(), nonzero) << "zero products stay on the host";
            EXPECT_EQ(ran, seen.plans.empty() ? Backend::cpu : Backend::gpu);
        }
    }
}

TEST_F(NmodGpuPath, OperandsAreTruncatedAndTheirTopZerosDropped)
{
    Products polys(1);
    polys.init(0, 101);
    for (slong i = 0; i < 40; ++i) nmod_poly_set_coeff_ui(polys.a(0), i, ulong(i % 7 == 6 ? 0 : 1 + i % 100));
    for (slong i = 0; i < 30; ++i) nmod_poly_set_coeff_ui(polys.b(0), i, ulong(1 + i));
    for (const slong trunc : {slong(1), slong(7), slong(13), slong(30), slong(68), slong(69), slong(100)}) {
        Seen seen;
        expect_flint({{polys.res(0), polys.a(0), polys.b(0), trunc}}, seen);
        ASSERT_EQ(seen.plans.size(), 1u);
        const gpu::NmodProduct& p = seen.plans[0];
        // Coefficient 6 of a is zero: mod x^7 a has 6 coefficients.
        EXPECT_EQ(p.a_length, std::size_t(trunc == 7 ? 6 : std::min<slong>(trunc, 40))) << trunc;
        EXPECT_EQ(p.b_length, std::size_t(std::min<slong>(trunc, 30))) << trunc;
        EXPECT_EQ(p.out_length, std::min<std::size_t>(std::size_t(trunc), p.a_length + p.b_length - 1)) << trunc;
    }
}

TEST_F(NmodGpuPath, SquaresAreOneOperandTwice)
{
    Products polys(5);
    std::vector<PolyProduct> products;
    for (std::size_t i = 0; i < 5; ++i) {
        polys.init(i, modulus(i + 1));
        nmod_poly_randtest(polys.a(i), state_, slong(1 + 100 * i));
        nmod_poly_set_coeff_ui(polys.a(i), 0, 1);  // not zero, truncated too
        nmod_poly_set_coeff_ui(polys.a(i), slong(100 * i), 1);
        products.push_back({i == 2 ? polys.a(i) : polys.res(i), polys.a(i), polys.a(i), i == 4 ? slong(50) : -1});
    }
    Seen seen;
    expect_flint(products, seen);
    ASSERT_EQ(seen.plans.size(), 5u);
    for (const gpu::NmodProduct& p : seen.plans) {
        EXPECT_EQ(p.a, p.b);
        EXPECT_EQ(p.a_length, p.b_length);
    }
}

TEST_F(NmodGpuPath, EveryCoefficientAtTheMaximum)
{
    for (const ulong n : {ulong(2), ulong(3), modulus(2), ~ulong(0) - 58, ~ulong(0)})
        for (const slong len : {slong(1), slong(2), slong(255), slong(256), slong(257), slong(4097)}) {
            Products polys(1);
            polys.init(0, n);
            for (nmod_poly_struct* p : {polys.a(0), polys.b(0)}) {
                nmod_poly_fit_length(p, len);
                for (slong i = 0; i < len; ++i) p->coeffs[i] = n - 1;
                _nmod_poly_set_length(p, len);
            }
            Seen seen;
            expect_flint({{polys.res(0), polys.a(0), polys.b(0), -1}}, seen);
            EXPECT_EQ(seen.plans.size(), 1u) << "length " << len << " mod " << n;
        }
}

// The three 62-bit primes of products mod n that are not an NTT prime: their product exceeds
// every coefficient of the product over Z for any n < 2^64 up to the longest transform,
// min(la, lb) (n - 1)^2 with min(la, lb) <= kMaxPolyTransform / 2.
TEST(NmodThreePrimes, ProductExceedsEveryCoefficient)
{
    mpz_t product, largest;
    mpz_init_set_ui(product, 1);
    mpz_init_set_ui(largest, ~ulong(0) - 1);  // (n - 1) for n = 2^64 - 1
    for (const limb_t p : kernels::ntt_primes(3)) mpz_mul_ui(product, product, p);
    mpz_mul(largest, largest, largest);
    mpz_mul_ui(largest, largest, gpu::kMaxPolyTransform / 2);
    EXPECT_GT(mpz_cmp(product, largest), 0);
    EXPECT_GE(mpz_sizeinbase(product, 2), 186u) << "above 2^185, as poly_backend.hpp states";
    mpz_clear(product);
    mpz_clear(largest);
}

// Products whose transform exceeds the GPU's limit (here 64) go in pieces: every piece within
// it, the sums FLINT's products, with long and short operands, truncations, squares, aliasing,
// pieces that are all zeros, and every coefficient n - 1.
TEST_F(NmodGpuPath, TransformsAboveTheLimitGoInPieces)
{
    constexpr std::uint64_t kLimit = 64;
    const slong lengths[] = {1, 2, 31, 32, 33, 34, 63, 64, 65, 200, 513};
    for (const slong la : lengths)
        for (const slong lb : lengths) {
            if (la + lb - 1 <= slong(kLimit)) continue;
            const std::size_t count = 4;
            Products polys(count);
            std::vector<PolyProduct> products;
            for (std::size_t i = 0; i < count; ++i) {
                const ulong n = modulus(i + la + lb);
                polys.init(i, n);
                nmod_poly_randtest(polys.a(i), state_, la);
                nmod_poly_randtest(polys.b(i), state_, lb);
                nmod_poly_set_coeff_ui(polys.a(i), la - 1, 1);  // the lengths as given
                nmod_poly_set_coeff_ui(polys.b(i), lb - 1, 1);
                if (i == 1)  // every coefficient n - 1
                    for (nmod_poly_struct* p : {polys.a(i), polys.b(i)})
                        for (slong e = 0; e < p->length; ++e) p->coeffs[e] = n - 1;
                if (i == 2 && polys.a(i)->length > 40)  // a run of zeros the length of a piece
                    for (slong e = 1; e < 40; ++e) polys.a(i)->coeffs[e] = 0;
                const slong full = polys.a(i)->length + polys.b(i)->length - 1;
                const slong trunc = i == 3 ? slong(1 + n_randint(state_, ulong(full + 2))) : -1;
                const nmod_poly_struct* b = i == 1 ? polys.a(i) : polys.b(i);  // a square
                products.push_back({i == 2 ? polys.a(i) : polys.res(i), polys.a(i), b, trunc});
            }
            Seen seen;
            EXPECT_EQ(expect_flint(products, seen, kLimit), Backend::gpu) << la << " x " << lb;
            EXPECT_GE(seen.calls, 2u) << la << " x " << lb << ": the whole products, then product 0's pieces";
        }
}

TEST_F(NmodGpuPath, TheCallersCpuBackendLeavesTheResultsAlone)
{
    Products polys(1);
    polys.init(0, 7);
    nmod_poly_randtest_not_zero(polys.a(0), state_, 30);
    nmod_poly_randtest_not_zero(polys.b(0), state_, 30);
    nmod_poly_randtest(polys.res(0), state_, 5);
    nmod_poly_t before;
    nmod_poly_init(before, 7);
    nmod_poly_set(before, polys.res(0));
    const PolyProduct product{polys.res(0), polys.a(0), polys.b(0), -1};
    int calls = 0;
    Seen seen;
    EXPECT_EQ(nmod_poly_products_on(Backend::cpu, {&product, 1}, stand_in(seen), [&] { ++calls; }), Backend::cpu);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(seen.calls, 0u);
    EXPECT_TRUE(nmod_poly_equal(polys.res(0), before));
    nmod_poly_clear(before);
}

TEST_F(NmodGpuPath, ResultsThatAreOtherProductsOperandsWaitForTheirReading)
{
    // Product 0 writes product 1's a, product 2 writes product 0's b: those results go to
    // temporaries, product 1's in place; every product sees its operands as they were.
    Products polys(3);
    for (std::size_t i = 0; i < 3; ++i) {
        polys.init(i, 1000003);
        nmod_poly_randtest_not_zero(polys.a(i), state_, 50 + 10 * slong(i));
        nmod_poly_randtest_not_zero(polys.b(i), state_, 40);
    }
    std::vector<nmod_poly_struct> theirs(3);
    for (std::size_t i = 0; i < 3; ++i) {
        nmod_poly_init(&theirs[i], 1000003);
        ::nmod_poly_mul(&theirs[i], polys.a(i), polys.b(i));
    }
    const std::vector<PolyProduct> products = {{polys.a(1), polys.a(0), polys.b(0), -1},
                                               {polys.res(1), polys.a(1), polys.b(1), -1},
                                               {polys.b(0), polys.a(2), polys.b(2), -1}};
    Seen seen;
    EXPECT_EQ(nmod_poly_products_on(Backend::gpu, products, stand_in(seen)), Backend::gpu);
    EXPECT_TRUE(nmod_poly_equal(polys.a(1), &theirs[0]));
    EXPECT_TRUE(nmod_poly_equal(polys.res(1), &theirs[1]));
    EXPECT_TRUE(nmod_poly_equal(polys.b(0), &theirs[2]));
    for (nmod_poly_struct& p : theirs) nmod_poly_clear(&p);
}

// A GPU that writes garbage into the first result, then fails.
NmodGpu failing_gpu()
{
    NmodGpu gpu;
    gpu.transform_length = stand_in_length;
    gpu.multiply = [](std::span<const gpu::NmodProduct> products) {
        for (std::size_t i = 0; i < products[0].out_length; ++i) products[0].out[i] = 1;
        throw Error("a kernel failed");
    };
    return gpu;
}

TEST_F(NmodGpuPath, AFailureAfterWritingInPlaceIsFinishedByTheHost)
{
    Products polys(3);
    std::vector<PolyProduct> products;
    for (std::size_t i = 0; i < 3; ++i) {
        polys.init(i, modulus(i + 3));
        nmod_poly_randtest_not_zero(polys.a(i), state_, 40);
        nmod_poly_randtest_not_zero(polys.b(i), state_, 30);
        products.push_back({polys.res(i), polys.a(i), polys.b(i), -1});
    }
    std::vector<nmod_poly_struct> theirs(3);
    for (std::size_t i = 0; i < 3; ++i) {
        nmod_poly_init_mod(&theirs[i], polys.a(i)->mod);
        ::nmod_poly_mul(&theirs[i], polys.a(i), polys.b(i));
    }
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(nmod_poly_products_on(Backend::gpu, products, failing_gpu()), Backend::cpu);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("the host computes them"), std::string::npos);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(nmod_poly_equal(polys.res(i), &theirs[i])) << "product " << i;
        nmod_poly_clear(&theirs[i]);
    }
}

TEST_F(NmodGpuPath, AFailureWithEveryResultAsideWritesNothing)
{
    // res == a: the result goes to a temporary, so a failure leaves every polynomial as it was.
    Products polys(1);
    polys.init(0, 11);
    nmod_poly_randtest_not_zero(polys.a(0), state_, 40);
    nmod_poly_randtest_not_zero(polys.b(0), state_, 30);
    nmod_poly_t before;
    nmod_poly_init(before, 11);
    nmod_poly_set(before, polys.a(0));
    const PolyProduct product{polys.a(0), polys.a(0), polys.b(0), -1};
    EXPECT_THROW(nmod_poly_products_on(Backend::gpu, {&product, 1}, failing_gpu()), Error);
    EXPECT_TRUE(nmod_poly_equal(polys.a(0), before));
    nmod_poly_clear(before);
}

}  // namespace
}  // namespace zgpu::poly
