// The KS path of nmod_poly_products without a GPU: its integer products run by the CPU
// backend's batched product on the operands as the pipeline packs them, the results handed
// back in two chunks, and every product compared with FLINT's.
#include <gmp.h>

#include <vector>

#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "ks_limits.hpp"
#include "plugin/cpu/mul.hpp"
#include "plugin/gpu/result_strides.hpp"
#include "plugin/poly/poly_products.hpp"

namespace zgpu::poly {
namespace {

// What the stand-in for mul_host saw.
struct Seen {
    std::size_t calls = 0, products = 0;
    bool squares = false;
};

IntegerProducts on_the_cpu(Seen& seen)
{
    return [&seen](const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t, const HostRange&,
                   const HostResult& on_result) {
        LimbBatch pa(count, size_class(std::uint32_t(a.max_limbs))), pb(count, size_class(std::uint32_t(b.max_limbs)));
        a.pack(0, pa.view());
        b.pack(0, pb.view());
        LimbBatch r(count, gpu::product_stride(a.max_limbs, b.max_limbs));
        cpu::mul(pa.view(), pb.view(), r.view(), false);
        const ConstBatchView v = r.view();
        const std::size_t half = count / 2;
        on_result(0, {v.limbs, v.sizes, half, v.stride});
        on_result(half, {v.element(half), v.sizes + half, count - half, v.stride});
        seen.calls += 1;
        seen.products += count;
        seen.squares = &a == &b;
    };
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

class KsProducts : public ::testing::Test {
protected:
    void SetUp() override { random_init(state_); }
    void TearDown() override { random_clear(state_); }

    // Runs `products` through the KS path and checks each against FLINT.
    void expect_flint(const std::vector<PolyProduct>& products, Seen& seen)
    {
        std::vector<nmod_poly_struct> theirs(products.size());
        for (std::size_t i = 0; i < products.size(); ++i) {
            const PolyProduct& p = products[i];
            nmod_poly_init_mod(&theirs[i], p.a->mod);
            if (p.trunc < 0) ::nmod_poly_mul(&theirs[i], p.a, p.b);
            else ::nmod_poly_mullow(&theirs[i], p.a, p.b, p.trunc);
        }
        nmod_poly_products(products, on_the_cpu(seen));
        for (std::size_t i = 0; i < products.size(); ++i) {
            EXPECT_TRUE(nmod_poly_equal(products[i].res, &theirs[i]))
                << "product " << i << ": lengths " << products[i].a->length << " and " << products[i].b->length
                << " mod " << products[i].a->mod.n << ", trunc " << products[i].trunc;
            nmod_poly_clear(&theirs[i]);
        }
    }

    flint_rand_t state_;
};

const ulong kModuli[] = {2, 3, 0, (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};  // 0: an NTT prime

TEST_F(KsProducts, MixedBatchesMatchFlint)
{
    const slong lengths[] = {0, 1, 2, 3, 31, 32, 33, 500};
    for (const std::size_t count : {std::size_t(1), std::size_t(2), std::size_t(13), std::size_t(40)}) {
        for (const bool truncated : {false, true}) {
            Products polys(count);
            std::vector<PolyProduct> products;
            for (std::size_t i = 0; i < count; ++i) {
                const ulong m = kModuli[i % std::size(kModuli)];
                polys.init(i, m ? m : kernels::ntt_primes(1)[0]);
                nmod_poly_randtest(polys.a(i), state_, lengths[n_randint(state_, std::size(lengths))]);
                nmod_poly_randtest(polys.b(i), state_, lengths[n_randint(state_, std::size(lengths))]);
                const slong full = polys.a(i)->length + polys.b(i)->length - 1;
                const slong trunc = truncated ? slong(n_randint(state_, ulong(std::max<slong>(full, 0) + 3))) : -1;
                // res == a for every third product, res == b for every fifth.
                nmod_poly_struct* res = i % 3 == 0 ? polys.a(i) : i % 5 == 0 ? polys.b(i) : polys.res(i);
                products.push_back({res, polys.a(i), polys.b(i), trunc});
            }
            Seen seen;
            expect_flint(products, seen);
            EXPECT_LE(seen.calls, 1u) << "one batch of integer products";
            EXPECT_FALSE(seen.squares);
        }
    }
}

TEST_F(KsProducts, SquaresAreOneOperandTwice)
{
    Products polys(5);
    std::vector<PolyProduct> products;
    for (std::size_t i = 0; i < 5; ++i) {
        polys.init(i, kModuli[i + 1] ? kModuli[i + 1] : 7);
        nmod_poly_randtest(polys.a(i), state_, slong(1 + 100 * i));
        nmod_poly_set_coeff_ui(polys.a(i), 0, 1);  // not zero, truncated too
        nmod_poly_set_coeff_ui(polys.a(i), slong(100 * i), 1);
        products.push_back({i == 2 ? polys.a(i) : polys.res(i), polys.a(i), polys.a(i), i == 4 ? slong(50) : -1});
    }
    Seen seen;
    expect_flint(products, seen);
    EXPECT_EQ(seen.products, 5u);
    EXPECT_TRUE(seen.squares);
}

TEST_F(KsProducts, EveryCoefficientAtTheMaximumAtTheLimitAndBeyond)
{
    for (const ulong n : {~ulong(0), ~ulong(0) - 58, ulong(2)}) {
        const slong limit = slong(testing::ks_limit_length(n));
        for (const slong len : {limit, limit + 1}) {
            Products polys(1);
            polys.init(0, n);
            for (nmod_poly_struct* p : {polys.a(0), polys.b(0)}) {
                nmod_poly_fit_length(p, len);
                for (slong i = 0; i < len; ++i) p->coeffs[i] = n - 1;
                _nmod_poly_set_length(p, len);
            }
            Seen seen;
            expect_flint({{polys.res(0), polys.a(0), polys.b(0), -1}}, seen);
            EXPECT_EQ(seen.products, len == limit ? 1u : 0u) << "length " << len << " mod " << n;
        }
    }
}

}  // namespace
}  // namespace zgpu::poly
