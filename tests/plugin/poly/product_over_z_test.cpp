// The product over Z without a GPU: its bound, its prime sets, and its GPU path with
// gpu::fmpz_poly_product stood in for by FLINT's product of the operands as the pipeline packs
// them, each coefficient checked against the bound and the prime set, every product compared
// with FLINT's.
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/poly/product_over_z.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::poly {
namespace {

using testing::Vec;

// What the stand-in saw.
struct Seen {
    std::size_t calls = 0;
    bool squares = false;
    std::size_t primes = 0;
};

// FLINT's product of the packed operands, checked against the bound, handed back in two chunks
// of the set's CRT stride.
ZProductOnGpu stand_in(Seen& seen, std::uint64_t bits)
{
    return [&seen, bits](const HostOperand& a, std::size_t la, const HostOperand& b, std::size_t lb, std::size_t out,
                         const PrimeSet& set, const HostResult& result) {
        seen.calls += 1;
        seen.squares = &a == &b;
        seen.primes = set.size();
        EXPECT_TRUE(set.same_moduli(PrimeSet::for_bits(bits, true)));
        ASSERT_GE(la, 1u);
        ASSERT_GE(lb, 1u);
        ASSERT_LE(out, la + lb - 1);
        LimbBatch pa(la, size_class(std::uint32_t(a.max_limbs))), pb(lb, size_class(std::uint32_t(b.max_limbs)));
        a.pack(0, pa.view());
        b.pack(0, pb.view());
        Vec va{slong(la)}, vb{slong(lb)}, product{slong(out)};
        adapters::unpack_fmpz_vec(pa.view(), va.v);
        adapters::unpack_fmpz_vec(pb.view(), vb.v);
        if (la >= lb) _fmpz_poly_mullow(product.v, va.v, slong(la), vb.v, slong(lb), slong(out));
        else _fmpz_poly_mullow(product.v, vb.v, slong(lb), va.v, slong(la), slong(out));
        fmpz_t magnitude;
        fmpz_init(magnitude);
        for (std::size_t i = 0; i < out; ++i) {
            fmpz_abs(magnitude, product.v + i);
            EXPECT_LE(fmpz_bits(magnitude), bits) << "coefficient " << i;  // below 2^bits
            EXPECT_TRUE(set.represents(magnitude, true)) << "coefficient " << i;
        }
        fmpz_clear(magnitude);
        LimbBatch values(out, std::uint32_t(set.state().product_limbs));
        adapters::pack_into(adapters::FmpzReader(product.v), values.view());
        const ConstBatchView v = values.view();
        const std::size_t half = out / 2;
        result(0, {v.limbs, v.sizes, half, v.stride});
        result(half, {v.element(half), v.sizes + half, out - half, v.stride});
    };
}

// A limit on the transforms that ignores the product: `transform`, or 0 for none.
ZMaxTransform limit(std::uint64_t transform)
{
    return [transform](const ZPoly&, const ZPoly&, std::size_t, const PrimeSet&) { return transform; };
}

ZPoly operand(const fmpz* coeffs, std::size_t length)
{
    while (length > 0 && fmpz_is_zero(coeffs + length - 1)) --length;
    const slong bits = length ? _fmpz_vec_max_bits(coeffs, slong(length)) : 0;
    return {host_operand(adapters::FmpzReader(coeffs), length, "a"), length, std::uint64_t(std::labs(bits))};
}

ZPoly shape_only(std::size_t length, std::uint64_t bits) { return {HostOperand{}, length, bits}; }

class ProductOverZ : public ::testing::Test {
protected:
    void SetUp() override { random_init(state_); }
    void TearDown() override { random_clear(state_); }

    // (a, la) * (b, lb) mod x^trunc through the GPU path with transforms up to max_transform,
    // against FLINT; &a == &b squares.
    void expect_flint(const Vec& a, const Vec& b, slong trunc, const std::string& what,
                      std::uint64_t max_transform = gpu::kMaxPolyTransform)
    {
        const ZPoly pa = operand(a.v, std::size_t(a.n));
        const ZPoly other = &a == &b ? ZPoly{} : operand(b.v, std::size_t(b.n));
        const ZPoly& pb = &a == &b ? pa : other;
        const std::size_t out = std::min<std::size_t>(pa.length + pb.length - 1, std::size_t(trunc));
        Vec ours{slong(out)}, theirs{slong(out)};
        const slong fa = slong(pa.length), fb = slong(pb.length);
        if (fa >= fb) _fmpz_poly_mullow(theirs.v, a.v, fa, b.v, fb, slong(out));
        else _fmpz_poly_mullow(theirs.v, b.v, fb, a.v, fa, slong(out));
        Seen seen;
        bool cpu = false;
        const Backend ran = product_over_z_on(
            Backend::gpu, pa, pb, out, [&] { cpu = true; },
            [&](std::size_t first, ConstBatchView values) { adapters::unpack_fmpz_vec(values, ours.v + first); },
            stand_in(seen, product_bits(pa, pb)), limit(max_transform));
        EXPECT_EQ(ran, Backend::gpu) << what;
        EXPECT_FALSE(cpu) << what;
        const bool pieces = std::bit_ceil(std::min(pa.length, out) + std::min(pb.length, out) - 1) > max_transform;
        EXPECT_EQ(seen.calls > 1, pieces) << what;
        if (!pieces) {
            EXPECT_EQ(seen.squares, &a == &b) << what;
        }
        EXPECT_TRUE(_fmpz_vec_equal(ours.v, theirs.v, slong(out))) << what;
    }

    // Every coefficient sign * (2^bits - 1).
    static void set_top(Vec& x, flint_bitcnt_t bits, int sign)
    {
        for (slong i = 0; i < x.n; ++i) {
            fmpz_one(x.v + i);
            fmpz_mul_2exp(x.v + i, x.v + i, bits);
            fmpz_sub_ui(x.v + i, x.v + i, 1);
            if (sign < 0) fmpz_neg(x.v + i, x.v + i);
        }
    }

    flint_rand_t state_;
};

TEST_F(ProductOverZ, TheBoundAddsTheLogOfTheShorterLength)
{
    for (const auto& [la, lb, expected] : {std::tuple{1, 9, 7}, std::tuple{2, 2, 8}, std::tuple{3, 30, 9},
                                           std::tuple{4, 4, 9}, std::tuple{5, 1000, 10}, std::tuple{1024, 1025, 17}})
        EXPECT_EQ(product_bits(shape_only(std::size_t(la), 3), shape_only(std::size_t(lb), 4)), std::uint64_t(expected))
            << la << " x " << lb;
}

TEST_F(ProductOverZ, RandomProductsMatchFlint)
{
    for (const slong la : {slong(1), slong(2), slong(3), slong(16), slong(17), slong(255), slong(257)})
        for (const slong lb : {slong(1), slong(2), slong(31), la})
            for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(63), flint_bitcnt_t(64), flint_bitcnt_t(700)}) {
                Vec a(la), b(lb);
                _fmpz_vec_randtest(a.v, state_, la, bits);
                _fmpz_vec_randtest(b.v, state_, lb, bits);
                fmpz_one(a.v + la - 1);
                fmpz_set_si(b.v + lb - 1, -1);
                const std::string what = std::to_string(la) + " x " + std::to_string(lb) + ", " + std::to_string(bits) + " bits";
                expect_flint(a, b, std::numeric_limits<slong>::max(), what);
                expect_flint(a, a, std::numeric_limits<slong>::max(), "square, " + what);
                expect_flint(a, b, (la + lb) / 2, "truncated, " + what);
            }
}

TEST_F(ProductOverZ, EveryCoefficientAtTheMaximum)
{
    for (const slong len : {slong(1), slong(2), slong(255), slong(256), slong(257), slong(1025)})
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(61), flint_bitcnt_t(62), flint_bitcnt_t(64),
                                          flint_bitcnt_t(122), flint_bitcnt_t(4096)})
            for (const int sign : {1, -1}) {
                Vec a(len), b(len);
                set_top(a, bits, sign);
                set_top(b, bits, 1);
                const std::string what = "length " + std::to_string(len) + ", " + std::to_string(bits) + " bits";
                expect_flint(a, b, std::numeric_limits<slong>::max(), what);
                expect_flint(a, a, std::numeric_limits<slong>::max(), "square, " + what);
            }
}

// Transforms above the limit (here 16 and 64): pieces with the whole product's primes, their
// sums FLINT's product, signs and carries across pieces, every coefficient at the maximum.
TEST_F(ProductOverZ, TransformsAboveTheLimitGoInPieces)
{
    for (const std::uint64_t transform : {std::uint64_t(16), std::uint64_t(64)})
        for (const slong la : {slong(1), slong(9), slong(40), slong(200)})
            for (const slong lb : {slong(1), slong(8), slong(33), slong(100)})
                for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(64), flint_bitcnt_t(300)}) {
                    Vec a(la), b(lb);
                    _fmpz_vec_randtest(a.v, state_, la, bits);
                    _fmpz_vec_randtest(b.v, state_, lb, bits);
                    fmpz_one(a.v + la - 1);
                    fmpz_set_si(b.v + lb - 1, -1);
                    const std::string what = std::to_string(la) + " x " + std::to_string(lb) + ", " + std::to_string(bits) +
                                             " bits, transforms of " + std::to_string(transform);
                    expect_flint(a, b, std::numeric_limits<slong>::max(), what, transform);
                    expect_flint(a, a, std::numeric_limits<slong>::max(), "square, " + what, transform);
                    expect_flint(a, b, (la + lb) / 2, "truncated, " + what, transform);
                    set_top(a, bits, -1);
                    set_top(b, bits, 1);
                    expect_flint(a, b, std::numeric_limits<slong>::max(), "at the maximum, " + what, transform);
                }
}

TEST_F(ProductOverZ, ProductsTheGpuDoesNotTakeAreTheCpus)
{
    Seen seen;
    const auto cpu_runs = [&](const ZPoly& a, const ZPoly& b, std::size_t out, std::uint64_t max_transform = gpu::kMaxPolyTransform) {
        bool cpu = false;
        const Backend ran = product_over_z_on(Backend::gpu, a, b, out, [&] { cpu = true; },
                                              [](std::size_t, ConstBatchView) {}, stand_in(seen, 0), limit(max_transform));
        return ran == Backend::cpu && cpu;
    };
    EXPECT_TRUE(cpu_runs(shape_only(5, 10), shape_only(5, 10), 0)) << "zero product";
    EXPECT_TRUE(cpu_runs(shape_only(100, 10), shape_only(2, 10), 100, 0)) << "no piece fits the device";
    EXPECT_TRUE(cpu_runs(shape_only(2, 64 * kMaxLimbs / 2), shape_only(2, 64 * kMaxLimbs / 2), 3)) << "CRT too long";
    Vec huge(1);
    fmpz_one(huge.v);
    fmpz_mul_2exp(huge.v, huge.v, 64 * kMaxLimbs);
    const ZPoly too_large = operand(huge.v, 1);
    ASSERT_FALSE(too_large.coeffs.too_large.empty());
    EXPECT_TRUE(cpu_runs(too_large, shape_only(1, 1), 1)) << "coefficient above kMaxLimbs limbs";
    EXPECT_EQ(seen.calls, 0u);
}

TEST_F(ProductOverZ, AFailureAfterTheFirstCoefficientsIsFinishedByTheHost)
{
    Vec a(40), b(30);
    _fmpz_vec_randtest(a.v, state_, a.n, 200);
    _fmpz_vec_randtest(b.v, state_, b.n, 200);
    fmpz_one(a.v + a.n - 1), fmpz_one(b.v + b.n - 1);
    const ZPoly pa = operand(a.v, std::size_t(a.n)), pb = operand(b.v, std::size_t(b.n));
    const std::size_t out = std::size_t(a.n + b.n - 1);
    // The GPU hands over a chunk of the first coefficients, or none, then fails.
    const auto failing = [](bool deliver) -> ZProductOnGpu {
        return [deliver](const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::size_t, const PrimeSet&,
                         const HostResult& result) {
            if (deliver) {
                std::vector<limb_t> limbs(4, 1);
                std::vector<std::int32_t> sizes(4, 1);
                result(0, ConstBatchView{limbs.data(), sizes.data(), 4, 1});
            }
            throw Error("a kernel failed");
        };
    };
    int delivered = 0, cpu = 0;
    const HostResult count = [&](std::size_t, ConstBatchView) { ++delivered; };
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(product_over_z_on(Backend::gpu, pa, pb, out, [&] { ++cpu; }, count, failing(true), limit(gpu::kMaxPolyTransform)), Backend::cpu);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("the host computes it"), std::string::npos);
    EXPECT_EQ(delivered, 1);
    EXPECT_EQ(cpu, 1) << "the host computed the product after the GPU had written some of it";
    EXPECT_THROW(product_over_z_on(Backend::gpu, pa, pb, out, [&] { ++cpu; }, count, failing(false), limit(gpu::kMaxPolyTransform)), Error);
    EXPECT_EQ(cpu, 1) << "before the first coefficient the error stands";
    EXPECT_EQ(delivered, 1);
}

}  // namespace
}  // namespace zgpu::poly
