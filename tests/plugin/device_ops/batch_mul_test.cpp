// Device-resident products (DeviceBatch mul) against GMP, on each backend.
#include <cstdlib>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "algorithm_param.hpp"
#include "batch_checks.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

// Operand sizes at and around every shape boundary of the classical kernels (one thread with a
// window up to 8 columns, one thread for operands up to 16 limbs, 2 to 32 threads a product,
// 256 limbs at most), of the tensor-core kernel
// (8 to 512 limbs; 2 or 4 tiles of 16 product limbs a warp, 1 to 16 warps), the crossovers
// (32, 64 and 256 limbs) and the NTT's shapes: transform lengths 2 (a + b) rounded up to a power of two,
// one tile up to 4096 words (operands of 1024 limbs), tiles of 2 to 32 rows above, up to
// operands of 2^20 bits (16384 limbs).
const std::vector<std::uint32_t> kSizes = {1,    2,    3,    4,    5,    7,    8,    9,    12,   15,   16,  17,  31,
                                           32,   33,   63,   64,   65,   100,  127,  128,  129,  200,  255, 256, 257,
                                           511,  512,  513,  1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 16384};

// A backend, and on the GPU which product algorithm (ZGPU_MUL_ALGORITHM): every test runs
// with the automatic choice and with each algorithm forced where it applies.
class BatchMul : public OnAlgorithm {
protected:
    BatchMul() : OnAlgorithm("ZGPU_MUL_ALGORITHM") {}

    // r = a * b (b of a.size() elements, or of one), into a poisoned r of the result's shape.
    void check(const MpzArray& a, const MpzArray& b, const std::string& context)
    {
        MpzArray expected(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) mpz_mul(expected[i], a[i], b[b.size() == 1 ? 0 : i]);
        const DeviceBatch da = upload(a), db = upload(b);
        const std::uint32_t stride = size_class(da.stride() + db.stride());
        LimbBatch poison(a.size(), stride);
        std::fill(poison.limbs().begin(), poison.limbs().end(), ~limb_t(0));
        std::fill(poison.sizes().begin(), poison.sizes().end(), std::int32_t(stride));
        DeviceBatch r = DeviceBatch::upload(poison.view(), backend());
        mul(r, da, db);
        EXPECT_EQ(r.stride(), stride) << context;
        expect_batch_equals(r.download(), expected, context);
        products_ += a.size();
    }

    std::size_t products_ = 0;
};

TEST_P(BatchMul, RandomProductsAcrossSizesAndSigns)
{
    IntegerSource source(21);
    for (const std::uint32_t n : kSizes) {
        for (const std::uint32_t m : {n, std::max(1u, n / 3), 1u}) {
            // About 2^21 limb products per shape, fewer for large ones.
            const std::size_t count =
                std::max<std::size_t>(scaled((std::size_t(1) << 21) / (std::uint64_t(n) * m), backend()), n > 1024 ? 9 : 33);
            MpzArray a(count), b(count);
            for (std::size_t i = 0; i < count; ++i) {
                source.set_random(a[i], n);
                source.set_random(b[i], m);
            }
            check(a, b, std::to_string(count) + " products, up to " + std::to_string(n) + " x " + std::to_string(m) + " limbs");
            check(b, a, std::to_string(count) + " products, up to " + std::to_string(m) + " x " + std::to_string(n) + " limbs");
        }
    }
    if (backend() == Backend::gpu) {
        EXPECT_GE(products_, 1000000u);
    }
}

TEST_P(BatchMul, AllOnesZeroAndUnits)
{
    // (2^(64n) - 1)^2 has the largest columns; zero and +-1 factors; every sign.
    IntegerSource source(22);
    for (const std::uint32_t n : kSizes) {
        MpzArray a(12), b(12);
        for (std::size_t i = 0; i < 12; ++i) {
            source.set(a[i], n, Shape::all_ones, i & 1);
            if (i < 4) source.set(b[i], n, Shape::all_ones, i & 2);
            else if (i < 8) mpz_set_si(b[i], long(i % 3) - 1);  // -1, 0, 1
            else source.set(b[i], n, Shape::power, i & 2);
        }
        check(a, b, "all ones, " + std::to_string(n) + " limbs");
    }
    // Unbalanced pairs (with the tensor-core kernel's shortest and longest operands together:
    // one warp a product of 1 and of 4 tiles, 4 warps of 4 tiles, 16 warps of 4); NTTs of two
    // tiles (2^17-bit operands, and one or the other longer than half the transform); 2^20-bit
    // operands; and the largest product, 2^21 x 2^21 bits: the NTT's longest transform (2^17
    // words) and its largest coefficients.
    for (const auto& [n, m] : {std::pair{8u, 8u}, std::pair{8u, 56u}, std::pair{8u, 248u}, std::pair{8u, 512u},
                               std::pair{512u, 8u}, std::pair{511u, 9u}, std::pair{256u, 17u}, std::pair{17u, 256u},
                               std::pair{256u, 1u}, std::pair{129u, 128u}, std::pair{2048u, 2048u}, std::pair{2500u, 64u},
                               std::pair{64u, 2500u}, std::pair{2048u, 1025u},
                               std::pair{16384u, 1u}, std::pair{1u, 16384u}, std::pair{16384u, 16384u},
                               std::pair{32768u, 32768u}}) {
        MpzArray a(8), b(8);
        for (std::size_t i = 0; i < 8; ++i) {
            source.set(a[i], n, Shape::all_ones, i & 1);
            source.set(b[i], m, Shape::all_ones, i & 2);
        }
        check(a, b, "all ones, " + std::to_string(n) + " x " + std::to_string(m) + " limbs");
    }
}

TEST_P(BatchMul, ScalarTimesVector)
{
    IntegerSource source(23);
    for (const std::uint32_t n : {1u, 4u, 17u, 100u, 256u, 1000u, 3000u}) {
        // A scalar of 16 limbs is the longer operand of the one-thread kernel for 1- and 4-limb
        // vectors: the broadcast operand read from global memory.
        for (const std::uint32_t scalar : {std::max(1u, n / 2), n, 16u, 256u}) {
            MpzArray a(n > 256 ? 101 : 1001), c(1);
            for (std::size_t i = 0; i < a.size(); ++i) source.set_random(a[i], n);
            source.set(c[0], scalar, Shape::random, true);
            check(a, c, "scalar of " + std::to_string(scalar) + " limbs times " + std::to_string(n) + "-limb vector");
        }
    }
}

TEST_P(BatchMul, CountsAndAliasing)
{
    IntegerSource source(24);
    for (const std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(33), std::size_t(100003)}) {
        MpzArray a(count), b(count);
        for (std::size_t i = 0; i < count; ++i) {
            source.set_random(a[i], 3);
            source.set_random(b[i], 2);
        }
        check(a, b, std::to_string(count) + " products");
    }
    MpzArray a(500), square(500), cube(500);
    for (std::size_t i = 0; i < a.size(); ++i) {
        source.set_random(a[i], 40);
        mpz_mul(square[i], a[i], a[i]);
        mpz_mul(cube[i], square[i], a[i]);
    }
    DeviceBatch x = upload(a);
    const DeviceBatch y = upload(a);
    mul(x, x, x);  // r == a == b: squares
    expect_batch_equals(x.download(), square, "x = x * x");
    mul(x, x, y);  // r == a
    expect_batch_equals(x.download(), cube, "x = x * y");
}

TEST_P(BatchMul, Squares)
{
    // mul(r, x, x) and sqr(r, x): the NTT transforms x once. All ones at the largest operands.
    IntegerSource source(28);
    for (const std::uint32_t n : {1u, 17u, 64u, 65u, 300u, 1024u, 1025u, 4096u, 16384u}) {
        const std::size_t count = n > 1024 ? 7 : 257;
        MpzArray a(count), expected(count);
        for (std::size_t i = 0; i < count; ++i) {
            if (i < 3) source.set(a[i], n, Shape::all_ones, i & 1);
            else source.set_random(a[i], n);
            mpz_mul(expected[i], a[i], a[i]);
        }
        const DeviceBatch x = upload(a);
        DeviceBatch r(backend(), 0, 1), s(backend(), 0, 1);
        sqr(r, x);
        expect_batch_equals(r.download(), expected, "sqr, " + std::to_string(n) + " limbs");
        mul(s, x, x);
        expect_batch_equals(s.download(), expected, "mul(r, x, x), " + std::to_string(n) + " limbs");
        DeviceBatch y = upload(a);
        sqr(y, y);
        expect_batch_equals(y.download(), expected, "sqr(y, y), " + std::to_string(n) + " limbs");
    }
}

TEST_P(BatchMul, ShapesAndSizeLimits)
{
    MpzArray a(3), b(2);
    IntegerSource source(25);
    for (std::size_t i = 0; i < 3; ++i) source.set_random(a[i], 4);
    for (std::size_t i = 0; i < 2; ++i) source.set_random(b[i], 4);
    DeviceBatch r(backend(), 0, 1);
    EXPECT_THROW(mul(r, upload(a), upload(b)), Error);
    EXPECT_EQ(r.count(), 0u);

    // A product above kMaxLimbs is refused with nothing written, also where r would have been
    // written in place.
    MpzArray big(2), other(2);
    source.set(big[0], 32769, Shape::all_ones, true);
    source.set(big[1], 100, Shape::random, false);
    source.set(other[0], 32768, Shape::random, true);
    source.set(other[1], 1, Shape::random, false);
    const DeviceBatch dbig = upload(big), dother = upload(other);
    DeviceBatch in_place = upload(other);
    const LimbBatch before = in_place.download();
    EXPECT_THROW(mul(in_place, dbig, dother), Error);
    const LimbBatch after = in_place.download();
    EXPECT_EQ(after.stride(), before.stride());
    EXPECT_TRUE(std::equal(before.limbs().begin(), before.limbs().end(), after.limbs().begin()));
}

TEST_P(BatchMul, BatchesLargerThanOneWorkspaceChunk)
{
    // 2^20-bit products take 1.5 MiB of NTT workspace each: 1000 of them run in chunks.
    IntegerSource source(27);
    MpzArray a(1000), b(1000);
    for (std::size_t i = 0; i < a.size(); ++i) {
        source.set(a[i], 16384 - std::uint32_t(i % 3), i % 7 == 0 ? Shape::all_ones : Shape::random, i & 1);
        source.set(b[i], 16384 - std::uint32_t(i % 5), Shape::random, i & 2);
    }
    check(a, b, "1000 products of 2^20-bit operands");
}

TEST_P(BatchMul, AddmulAndSubmul)
{
    IntegerSource source(26);
    for (const std::uint32_t n : {1u, 5u, 40u, 256u}) {
        MpzArray r(777), a(777), c(1), expected_add(777), expected_sub(777);
        source.set(c[0], std::max(1u, n / 4), Shape::random, true);
        for (std::size_t i = 0; i < r.size(); ++i) {
            source.set_random(r[i], n + 2);
            source.set_random(a[i], n);
            mpz_set(expected_add[i], r[i]);
            mpz_addmul(expected_add[i], a[i], c[0]);
            mpz_set(expected_sub[i], r[i]);
            mpz_submul(expected_sub[i], a[i], c[0]);
        }
        const DeviceBatch da = upload(a), dc = upload(c);
        DeviceBatch x = upload(r);
        addmul(x, da, dc);
        expect_batch_equals(x.download(), expected_add, "r += a * c, " + std::to_string(n) + " limbs");
        DeviceBatch y = upload(r);
        submul(y, da, dc);
        expect_batch_equals(y.download(), expected_sub, "r -= a * c, " + std::to_string(n) + " limbs");
    }
    MpzArray a(50), twice_square(50);
    for (std::size_t i = 0; i < a.size(); ++i) {
        source.set_random(a[i], 30);
        mpz_mul(twice_square[i], a[i], a[i]);
        mpz_add(twice_square[i], twice_square[i], a[i]);
    }
    DeviceBatch x = upload(a);
    addmul(x, x, x);  // r == a == b: a + a^2
    expect_batch_equals(x.download(), twice_square, "x += x * x");
    DeviceBatch short_r(backend(), 3, 1);
    EXPECT_THROW(addmul(short_r, upload(a), upload(a)), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, BatchMul,
                         ::testing::Values(AlgorithmCase{Backend::cpu, "auto"}, AlgorithmCase{Backend::gpu, "auto"},
                                           AlgorithmCase{Backend::gpu, "classical"}, AlgorithmCase{Backend::gpu, "tensor"},
                                           AlgorithmCase{Backend::gpu, "ntt"}),
                         algorithm_case_name);

}  // namespace
}  // namespace zgpu::testing
