// zgpu_nmod_poly_mul, _mullow, _sqr and _mul_many, and the raw forms _zgpu_nmod_poly_mul,
// _mullow and _sqr, against FLINT on each backend.
#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <flint/nmod.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "flint_values.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

const std::vector<ulong>& moduli()
{
    static const std::vector<ulong> m = {2, 3, kernels::ntt_primes(1)[0], (ulong(1) << 62) + 135, ~ulong(0) - 58, ~ulong(0)};
    return m;
}

const slong kLengths[] = {0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025};

// Every coefficient n - 1, length len.
void set_top(nmod_poly_t p, slong len)
{
    nmod_poly_fit_length(p, len);
    for (slong i = 0; i < len; ++i) p->coeffs[i] = p->mod.n - 1;
    _nmod_poly_set_length(p, len);
}

class PolyEntryPoints : public OnBackendWithFlint {
protected:
    // The backend a product of a and b reports: FLINT's zero products and those too long.
    const char* expected_backend(bool on_gpu_path) const
    {
        return GetParam() == Backend::gpu && on_gpu_path ? "gpu" : "cpu";
    }
};

TEST_P(PolyEntryPoints, MulMatchesFlint)
{
    for (const ulong n : moduli())
        for (const slong la : kLengths)
            for (const slong lb : {slong(0), slong(1), slong(2), slong(17), la}) {
                NmodPoly a(n), b(n), ours(n), theirs(n);
                nmod_poly_randtest(a.p, state_, la);
                nmod_poly_randtest(b.p, state_, lb);
                nmod_poly_randtest(ours.p, state_, 600);  // overwritten: longer than many products
                ::nmod_poly_mul(theirs.p, a.p, b.p);
                ASSERT_EQ(zgpu_nmod_poly_mul(ours.p, a.p, b.p), 0) << zgpu_last_error();
                ASSERT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "lengths " << la << " and " << lb << " mod " << n;
                EXPECT_STREQ(zgpu_last_backend(), expected_backend(a.p->length && b.p->length));
            }
}

TEST_P(PolyEntryPoints, EveryCoefficientAtTheMaximum)
{
    // Up to 2^22 coefficients on the GPU (FLINT's reference products take a while), and times
    // one coefficient (unbalanced).
    const bool gpu = GetParam() == Backend::gpu;
    std::vector<slong> lengths = {1, 2, 255, 256, 257};
    if (gpu) lengths.insert(lengths.end(), {65535, 65537, slong(1) << 20, slong(1) << 22});
    for (const ulong n : {~ulong(0), ~ulong(0) - 58, ulong(2), ulong(3), kernels::ntt_primes(1)[0]})
        for (const slong len : lengths) {
            if (len > 65537 && n != ~ulong(0) - 58) continue;
            NmodPoly a(n), b(n), ours(n), theirs(n);
            set_top(a.p, len);
            set_top(b.p, len);
            ::nmod_poly_mul(theirs.p, a.p, b.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(ours.p, a.p, b.p), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "length " << len << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), expected_backend(true));
            ASSERT_EQ(zgpu_nmod_poly_sqr(ours.p, a.p), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "square, length " << len << " mod " << n;
            set_top(b.p, 1);
            ::nmod_poly_mul(theirs.p, a.p, b.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(ours.p, b.p, a.p), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "1 times length " << len << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), expected_backend(true));
        }
}

// Random products at powers of two plus and minus one up to 2^22: the one-prime route (an NTT
// prime), three primes (a 64-bit modulus) and a small modulus.
TEST_P(PolyEntryPoints, LongRandomProductsMatchFlint)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "FLINT's own products on the CPU backend; long ones on the GPU only";
    for (const slong len : {(slong(1) << 20) - 1, (slong(1) << 20) + 1, (slong(1) << 22) - 1, (slong(1) << 22) + 1})
        for (const ulong n : {kernels::ntt_primes(1)[0], ~ulong(0) - 58, ulong(3)}) {
            NmodPoly a(n), b(n), ours(n), theirs(n);
            nmod_poly_randtest(a.p, state_, len);
            nmod_poly_randtest(b.p, state_, len - 1);
            nmod_poly_set_coeff_ui(a.p, len - 1, 1);  // the lengths as given (randtest may give zeros)
            nmod_poly_set_coeff_ui(b.p, len - 2, n - 1);
            ::nmod_poly_mul(theirs.p, a.p, b.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(ours.p, a.p, b.p), 0) << zgpu_last_error();
            EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << "length " << len << " mod " << n;
            EXPECT_STREQ(zgpu_last_backend(), "gpu") << "length " << len << " mod " << n;
        }
}

// A transform above the GPU's limit: the product in pieces that fit it, added up (the shorter
// operand whole, then both cut), with every coefficient at the maximum.
TEST_P(PolyEntryPoints, TransformsAboveTheLimitGoInPieces)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "the limit concerns the GPU path only";
    const ulong n = ~ulong(0) - 58;
    const slong limit = slong(gpu::kMaxPolyTransform);  // a power of two: la + lb - 1 <= it
    for (const auto& [la, lb] : {std::pair{limit, slong(2)}, std::pair{limit / 2 + 5, limit / 2 + 7}}) {
        NmodPoly a(n), b(n), ours(n), theirs(n);
        set_top(a.p, la);
        set_top(b.p, lb);
        ::nmod_poly_mul(theirs.p, a.p, b.p);
        ASSERT_EQ(zgpu_nmod_poly_mul(ours.p, a.p, b.p), 0) << zgpu_last_error();
        EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << la << " x " << lb;
        EXPECT_STREQ(zgpu_last_backend(), "gpu");
        ASSERT_EQ(zgpu_nmod_poly_mullow(ours.p, a.p, b.p, la + 3), 0) << zgpu_last_error();
        ::nmod_poly_mullow(theirs.p, a.p, b.p, la + 3);
        EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << la << " x " << lb << " mod x^" << la + 3;
    }
}

// ZGPU_TIMING=1: each GPU call's split names its conversions, transfers, transforms and CRT;
// through the five primes the transforms and the CRT are one kernel.
TEST_P(PolyEntryPoints, TimingSplitsThePhases)
{
    if (GetParam() != Backend::gpu) GTEST_SKIP() << "the split is the GPU path's";
    const ulong n = ~ulong(0) - 58;
    for (const auto& [length, five_primes] : {std::pair{slong(100), true}, std::pair{slong(4096), false}}) {
        NmodPoly a(n), b(n), ours(n);
        set_top(a.p, length);
        set_top(b.p, length);
        setenv("ZGPU_TIMING", "1", 1);
        ::testing::internal::CaptureStderr();
        const int status = zgpu_nmod_poly_mul(ours.p, a.p, b.p);
        const std::string log = ::testing::internal::GetCapturedStderr();
        unsetenv("ZGPU_TIMING");
        ASSERT_EQ(status, 0) << zgpu_last_error();
        for (const char* phase : {"gathering", "scattering", "uploads", "transforms", "CRT to the moduli", "downloads"})
            EXPECT_NE(log.find(phase), std::string::npos) << phase << " at length " << length << ": " << log;
        EXPECT_EQ(log.find("(with the CRT: one kernel)") != std::string::npos, five_primes) << log;
    }
}

TEST_P(PolyEntryPoints, Aliasing)
{
    for (const ulong n : moduli())
        for (const slong len : {slong(1), slong(2), slong(33), slong(1000)}) {
            NmodPoly a(n), b(n), theirs(n), copy(n);
            nmod_poly_randtest(a.p, state_, len);
            nmod_poly_randtest(b.p, state_, len + 3);
            ::nmod_poly_mul(theirs.p, a.p, b.p);
            nmod_poly_set(copy.p, a.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(copy.p, copy.p, b.p), 0) << zgpu_last_error();  // res == a
            EXPECT_TRUE(nmod_poly_equal(copy.p, theirs.p)) << "res == a, mod " << n;
            nmod_poly_set(copy.p, b.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(copy.p, a.p, copy.p), 0) << zgpu_last_error();  // res == b
            EXPECT_TRUE(nmod_poly_equal(copy.p, theirs.p)) << "res == b, mod " << n;

            ::nmod_poly_mul(theirs.p, a.p, a.p);
            ASSERT_EQ(zgpu_nmod_poly_mul(b.p, a.p, a.p), 0) << zgpu_last_error();  // a == b
            EXPECT_TRUE(nmod_poly_equal(b.p, theirs.p)) << "a == b, mod " << n;
            ASSERT_EQ(zgpu_nmod_poly_sqr(a.p, a.p), 0) << zgpu_last_error();  // sqr, res == a
            EXPECT_TRUE(nmod_poly_equal(a.p, theirs.p)) << "sqr, res == a, mod " << n;
        }
}

TEST_P(PolyEntryPoints, MullowMatchesFlint)
{
    for (const ulong n : moduli())
        for (const slong la : {slong(0), slong(1), slong(5), slong(64), slong(300)})
            for (const slong lb : {slong(1), slong(7), slong(300)}) {
                const slong full = la + lb - 1;
                for (const slong trunc : {slong(0), slong(1), full / 2, full - 1, full, full + 5}) {
                    if (trunc < 0) continue;
                    NmodPoly a(n), b(n), ours(n), theirs(n);
                    nmod_poly_randtest(a.p, state_, la);
                    nmod_poly_randtest(b.p, state_, lb);
                    ::nmod_poly_mullow(theirs.p, a.p, b.p, trunc);
                    ASSERT_EQ(zgpu_nmod_poly_mullow(ours.p, a.p, b.p, trunc), 0) << zgpu_last_error();
                    EXPECT_TRUE(nmod_poly_equal(ours.p, theirs.p)) << la << " x " << lb << " mod x^" << trunc;
                    ASSERT_EQ(zgpu_nmod_poly_mullow(a.p, a.p, b.p, trunc), 0) << zgpu_last_error();  // res == a
                    EXPECT_TRUE(nmod_poly_equal(a.p, theirs.p)) << "res == a, " << la << " x " << lb << " mod x^" << trunc;
                    ::nmod_poly_mullow(theirs.p, b.p, b.p, trunc);
                    ASSERT_EQ(zgpu_nmod_poly_mullow(b.p, b.p, b.p, trunc), 0) << zgpu_last_error();  // all one
                    EXPECT_TRUE(nmod_poly_equal(b.p, theirs.p)) << "square mod x^" << trunc;
                }
            }
}

// `count` products of mixed moduli and lengths: every fifth by zero, and with long_pair (where
// count allows) pair 6 of a transform above the GPU's limit.
class Batch {
public:
    Batch(flint_rand_t state, slong count, bool long_pair) : count_(count)
    {
        polys_.resize(3 * std::size_t(count));
        for (slong i = 0; i < count; ++i) {
            const ulong n = moduli()[std::size_t(i) % moduli().size()];
            for (int k = 0; k < 3; ++k) nmod_poly_init(&polys_[std::size_t(k * count + i)], n);
            const slong la = kLengths[1 + n_randint(state, std::size(kLengths) - 1)];  // nonzero
            const slong lb = i % 5 == 4 ? 0 : kLengths[1 + n_randint(state, std::size(kLengths) - 1)];
            nmod_poly_randtest(a() + i, state, la);
            nmod_poly_randtest(b() + i, state, lb);
            nmod_poly_randtest(res() + i, state, 3);
        }
        if (long_pair && count > 6) {  // pair 6: FLINT's on either backend
            set_top(a() + 6, slong(gpu::kMaxPolyTransform));
            set_top(b() + 6, 2);
        }
    }
    ~Batch()
    {
        for (nmod_poly_struct& p : polys_) nmod_poly_clear(&p);
    }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;

    nmod_poly_struct* a() { return polys_.data(); }
    nmod_poly_struct* b() { return polys_.data() + count_; }
    nmod_poly_struct* res() { return polys_.data() + 2 * count_; }

private:
    slong count_;
    std::vector<nmod_poly_struct> polys_;
};

TEST_P(PolyEntryPoints, MulManyMatchesFlint)
{
    for (const slong count : {slong(0), slong(1), slong(7), slong(33)}) {
        // The long pair costs FLINT's reference products time: on the GPU only, where it matters.
        const bool long_pair = GetParam() == Backend::gpu;
        Batch batch(state_, count, long_pair);
        std::vector<NmodPoly*> theirs;
        for (slong i = 0; i < count; ++i) {
            theirs.push_back(new NmodPoly(batch.a()[i].mod.n));
            ::nmod_poly_mul(theirs.back()->p, batch.a() + i, batch.b() + i);
        }
        ASSERT_EQ(zgpu_nmod_poly_mul_many(batch.res(), batch.a(), batch.b(), count), 0) << zgpu_last_error();
        for (slong i = 0; i < count; ++i)
            EXPECT_TRUE(nmod_poly_equal(batch.res() + i, theirs[std::size_t(i)]->p)) << "pair " << i << " of " << count;
        // The GPU where some pair within its limit (all but a long pair 6) has two nonzero
        // operands: random ones may be zero, more often with some FLINT versions' generators.
        bool gpu_pairs = false;
        for (slong i = 0; i < count; ++i)
            gpu_pairs |= !(long_pair && i == 6) && batch.a()[i].length > 0 && batch.b()[i].length > 0;
        if (count) {
            EXPECT_STREQ(zgpu_last_backend(), expected_backend(gpu_pairs));
        }

        ASSERT_EQ(zgpu_nmod_poly_mul_many(batch.a(), batch.a(), batch.b(), count), 0) << zgpu_last_error();  // res == a
        for (slong i = 0; i < count; ++i)
            EXPECT_TRUE(nmod_poly_equal(batch.a() + i, theirs[std::size_t(i)]->p)) << "res == a, pair " << i;

        for (slong i = 0; i < count; ++i) ::nmod_poly_mul(theirs[std::size_t(i)]->p, batch.b() + i, batch.b() + i);
        ASSERT_EQ(zgpu_nmod_poly_mul_many(batch.res(), batch.b(), batch.b(), count), 0) << zgpu_last_error();  // squares
        for (slong i = 0; i < count; ++i)
            EXPECT_TRUE(nmod_poly_equal(batch.res() + i, theirs[std::size_t(i)]->p)) << "squares, pair " << i;
        for (NmodPoly* p : theirs) delete p;
    }
}

// Batches of many chunks of unequal sizes: squares (results twice the operands) of random lengths
// from 513 to 1024, so that a chunk's operands reach past where the chunk two before it left
// its results in the same device slot (the GPU must wait for that chunk's download), and
// products modulo 2^64 - 59 of random lengths.
TEST_P(PolyEntryPoints, ManyChunksOfUnequalSizesMatchFlint)
{
    struct Group {
        ulong n;
        bool squares;
        slong count;
    };
    for (const Group g : {Group{kernels::ntt_primes(1)[0], true, 6000}, Group{~ulong(0) - 58, false, 3000}}) {
        std::vector<nmod_poly_struct> a(g.count), b(g.count), expected(g.count), got(g.count);
        for (auto* polys : {&a, &b, &expected, &got})
            for (nmod_poly_struct& p : *polys) nmod_poly_init(&p, g.n);
        for (slong i = 0; i < g.count; ++i) {
            const slong length = 513 + slong(n_randint(state_, 512));
            nmod_poly_randtest_not_zero(&a[i], state_, length);
            nmod_poly_randtest_not_zero(&b[i], state_, length);
            ::nmod_poly_mul(&expected[i], &a[i], g.squares ? &a[i] : &b[i]);
        }
        ASSERT_EQ(zgpu_nmod_poly_mul_many(got.data(), a.data(), g.squares ? a.data() : b.data(), g.count), 0) << zgpu_last_error();
        for (slong i = 0; i < g.count; ++i)
            ASSERT_TRUE(nmod_poly_equal(&got[i], &expected[i])) << (g.squares ? "square " : "product ") << i << " mod " << g.n;
        for (auto* polys : {&a, &b, &expected, &got})
            for (nmod_poly_struct& p : *polys) nmod_poly_clear(&p);
    }
}

// The raw forms against FLINT's: operands with zeros on top, every truncation's edges, squares,
// res overlapping an operand.
TEST_P(PolyEntryPoints, RawFormsMatchFlint)
{
    for (const ulong n : moduli())
        for (const slong la : {slong(1), slong(2), slong(17), slong(1024), slong(1025), slong(3000)})
            for (const slong lb : {slong(1), slong(2), slong(16), slong(1024)}) {
                if (lb > la) continue;
                nmod_t mod;
                nmod_init(&mod, n);
                std::vector<ulong> a(static_cast<std::size_t>(la)), b(static_cast<std::size_t>(lb));
                for (ulong& x : a) x = n_randint(state_, n);
                for (ulong& x : b) x = n_randint(state_, n);
                if (la > 2) a[std::size_t(la - 1)] = a[std::size_t(la - 2)] = 0;  // zeros on top
                const std::size_t full = std::size_t(la + lb - 1);
                std::vector<ulong> theirs(full), ours(full + 1, 12345);
                ::_nmod_poly_mul(theirs.data(), a.data(), la, b.data(), lb, mod);
                ASSERT_EQ(_zgpu_nmod_poly_mul(ours.data(), a.data(), la, b.data(), lb, mod), 0) << zgpu_last_error();
                EXPECT_EQ(std::vector<ulong>(ours.begin(), ours.end() - 1), theirs) << la << " x " << lb << " mod " << n;
                EXPECT_EQ(ours.back(), 12345u) << "nothing past the product";
                for (const slong cut : {slong(1), lb, la, slong(full) - 1, slong(full)}) {
                    if (cut < 1) continue;
                    std::vector<ulong> low(static_cast<std::size_t>(cut)), got(static_cast<std::size_t>(cut), 7);
                    ::_nmod_poly_mullow(low.data(), a.data(), la, b.data(), lb, cut, mod);
                    ASSERT_EQ(_zgpu_nmod_poly_mullow(got.data(), a.data(), la, b.data(), lb, cut, mod), 0) << zgpu_last_error();
                    EXPECT_EQ(got, low) << la << " x " << lb << " mod x^" << cut << ", mod " << n;
                }
                std::vector<ulong> square(static_cast<std::size_t>(2 * la - 1)), got(square.size());
                ::_nmod_poly_mul(square.data(), a.data(), la, a.data(), la, mod);
                ASSERT_EQ(_zgpu_nmod_poly_sqr(got.data(), a.data(), la, mod), 0) << zgpu_last_error();
                EXPECT_EQ(got, square) << "square of " << la << " mod " << n;
                std::vector<ulong> overlap(square.size());  // res starting at a's first coefficient
                std::copy(a.begin(), a.end(), overlap.begin());
                ASSERT_EQ(_zgpu_nmod_poly_mul(overlap.data(), overlap.data(), la, b.data(), lb, mod), 0) << zgpu_last_error();
                EXPECT_TRUE(std::equal(theirs.begin(), theirs.end(), overlap.begin())) << "res overlapping a";
            }
}

// Modulus 1, as FLINT's raw forms take it (its test programs do): every coefficient 0, every one
// of res written.
TEST_P(PolyEntryPoints, RawFormsTakeModulusOne)
{
    nmod_t mod;
    nmod_init(&mod, 1);
    const std::vector<ulong> a(6, 0), b(4, 0);
    std::vector<ulong> res(9, 99), theirs(9, 98);
    ::_nmod_poly_mul(theirs.data(), a.data(), 6, b.data(), 4, mod);
    ASSERT_EQ(_zgpu_nmod_poly_mul(res.data(), a.data(), 6, b.data(), 4, mod), 0) << zgpu_last_error();
    EXPECT_EQ(res, theirs);
    std::fill(res.begin(), res.end(), 99);
    ASSERT_EQ(_zgpu_nmod_poly_mullow(res.data(), a.data(), 6, b.data(), 4, 5, mod), 0) << zgpu_last_error();
    EXPECT_EQ(res, (std::vector<ulong>{0, 0, 0, 0, 0, 99, 99, 99, 99}));
    ASSERT_EQ(_zgpu_nmod_poly_sqr(res.data(), a.data(), 5, mod), 0) << zgpu_last_error();
    EXPECT_EQ(res, std::vector<ulong>(9, 0));
}

TEST_P(PolyEntryPoints, RawFormsRejectBadInputAndWriteNothing)
{
    nmod_t mod;
    nmod_init(&mod, 7);
    const std::vector<ulong> a = {1, 2, 3, 4, 5}, b = {6, 5, 4}, unreduced = {1, 7, 2};
    std::vector<ulong> res(8, 99);
    const std::vector<ulong> untouched = res;
    EXPECT_EQ(_zgpu_nmod_poly_mul(res.data(), b.data(), 3, a.data(), 5, mod), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_nmod_poly_mul: lena (3) is below lenb (5)");
    EXPECT_EQ(_zgpu_nmod_poly_mul(res.data(), a.data(), 5, b.data(), 0, mod), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_nmod_poly_mul: lenb is 0, at least 1 is needed");
    EXPECT_EQ(_zgpu_nmod_poly_mul(res.data(), a.data(), 5, unreduced.data(), 3, mod), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_nmod_poly_mul: b[1] = 7 is not below the modulus 7");
    EXPECT_EQ(_zgpu_nmod_poly_mullow(res.data(), a.data(), 5, b.data(), 3, 8, mod), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_nmod_poly_mullow: n is 8, not from 1 to lena + lenb - 1 = 7");
    EXPECT_EQ(_zgpu_nmod_poly_mullow(res.data(), a.data(), 5, b.data(), 3, 0, mod), -1);
    EXPECT_EQ(_zgpu_nmod_poly_sqr(res.data(), a.data(), 0, mod), -1);
    EXPECT_STREQ(zgpu_last_error(), "_zgpu_nmod_poly_sqr: len is 0, at least 1 is needed");
    EXPECT_EQ(_zgpu_nmod_poly_mul(nullptr, a.data(), 5, b.data(), 3, mod), -1);
    EXPECT_EQ(_zgpu_nmod_poly_mul(res.data(), nullptr, 5, b.data(), 3, mod), -1);
    EXPECT_EQ(res, untouched);
    EXPECT_THROW(zgpu::_nmod_poly_mul(res.data(), a.data(), 5, unreduced.data(), 3, mod), Error);
}

TEST_P(PolyEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    NmodPoly a(7), b(7), c(11), res(7), copy(7);
    nmod_poly_randtest(a.p, state_, 20);
    nmod_poly_randtest(b.p, state_, 20);
    nmod_poly_randtest(c.p, state_, 20);
    nmod_poly_randtest(res.p, state_, 20);
    nmod_poly_set(copy.p, res.p);
    EXPECT_EQ(zgpu_nmod_poly_mul(res.p, a.p, c.p), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("zgpu_nmod_poly_mul: different moduli"), std::string::npos)
        << zgpu_last_error();
    EXPECT_EQ(zgpu_nmod_poly_mullow(res.p, a.p, b.p, -1), -1);
    EXPECT_STREQ(zgpu_last_error(), "zgpu_nmod_poly_mullow: n is negative (-1)");
    EXPECT_EQ(zgpu_nmod_poly_sqr(res.p, nullptr), -1);
    EXPECT_TRUE(nmod_poly_equal(res.p, copy.p));
    EXPECT_EQ(zgpu_nmod_poly_mul(c.p, a.p, b.p), -1);  // res of another modulus

    Batch batch(state_, 9, false);
    std::vector<NmodPoly*> before;
    for (slong i = 0; i < 9; ++i) {
        before.push_back(new NmodPoly(batch.res()[i].mod.n));
        nmod_poly_set(before.back()->p, batch.res() + i);
    }
    nmod_poly_clear(batch.b() + 5);
    nmod_poly_init(batch.b() + 5, 11);  // pair 5 now mixes moduli
    EXPECT_EQ(zgpu_nmod_poly_mul_many(batch.res(), batch.a(), batch.b(), 9), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("a[5] mod"), std::string::npos) << zgpu_last_error();
    for (slong i = 0; i < 9; ++i) EXPECT_TRUE(nmod_poly_equal(batch.res() + i, before[std::size_t(i)]->p)) << i;
    for (NmodPoly* p : before) delete p;
    EXPECT_EQ(zgpu_nmod_poly_mul_many(batch.res(), batch.a(), batch.b(), -2), -1);
    EXPECT_EQ(zgpu_nmod_poly_mul_many(nullptr, batch.a(), batch.b(), 3), -1);
    EXPECT_EQ(zgpu_nmod_poly_mul_many(nullptr, nullptr, nullptr, 0), 0);
    EXPECT_THROW(zgpu::nmod_poly_mul(res.p, a.p, c.p), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, PolyEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
