// Device-resident division (DeviceBatch) against GMP, on each backend.
#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "algorithm_param.hpp"
#include "batch_checks.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "zgpu/batch_div.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

// A backend, and on the GPU which exact division method (ZGPU_DIV_ALGORITHM): the automatic
// choice, and each method forced where it applies.
class BatchDiv : public OnAlgorithm {
protected:
    BatchDiv() : OnAlgorithm("ZGPU_DIV_ALGORITHM") {}

    // fdiv_qr and tdiv_qr of a and b against GMP, and mod where b is one divisor for all.
    void expect_divisions_match_gmp(const MpzArray& a, const MpzArray& b, const std::string& context)
    {
        const bool shared = b.size() == 1 && a.size() != 1;
        MpzArray eq(a.size()), er(a.size());
        const DeviceBatch da = upload(a), db = upload(b);
        DeviceBatch q, r;
        for (const bool floor : {true, false}) {
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (floor) mpz_fdiv_qr(eq[i], er[i], a[i], b[shared ? 0 : i]);
                else mpz_tdiv_qr(eq[i], er[i], a[i], b[shared ? 0 : i]);
            }
            if (floor) fdiv_qr(q, r, da, db);
            else tdiv_qr(q, r, da, db);
            const std::string what = std::string(floor ? "fdiv" : "tdiv") + ", " + context;
            expect_batch_equals(q.download(), eq, "q, " + what);
            expect_batch_equals(r.download(), er, "r, " + what);
        }
        if (!shared) return;
        MpzArray m(1);
        mpz_abs(m[0], b[0]);
        for (std::size_t i = 0; i < a.size(); ++i) mpz_fdiv_r(er[i], a[i], m[0]);
        mod(r, da, upload(m));
        expect_batch_equals(r.download(), er, "mod, " + context);
    }
};

// A nonzero divisor of `limbs` limbs: random shape and sign, sometimes shifted by many zero
// bits, sometimes +-1.
void set_divisor(IntegerSource& source, mpz_ptr d, std::uint32_t limbs, std::size_t i)
{
    if (i % 9 == 0) return mpz_set_si(d, i % 2 ? -1 : 1);
    source.set(d, limbs, i % 4 == 1 ? Shape::all_ones : Shape::random, i % 3 == 0);
    if (i % 5 == 2) mpz_mul_2exp(d, d, 64 * (i % 4) + i % 63);
}

// Size pairs (quotient limbs, divisor limbs): one-limb and full-size quotients, unbalanced.
const std::pair<std::uint32_t, std::uint32_t> kShapes[] = {{1, 1}, {1, 40}, {40, 1}, {3, 7}, {64, 64}, {300, 17}, {17, 300}};

TEST_P(BatchDiv, ExactDivisionMatchesGmp)
{
    IntegerSource source(41);
    for (const auto& [qlimbs, dlimbs] : kShapes) {
        const std::size_t n = 301;
        MpzArray a(n), b(n), expected(n);
        for (std::size_t i = 0; i < n; ++i) {
            set_divisor(source, b[i], dlimbs, i);
            if (i % 13 == 5) mpz_set_ui(expected[i], 0);
            else source.set(expected[i], qlimbs, i % 7 == 3 ? Shape::all_ones : Shape::random, i % 2);
            mpz_mul(a[i], expected[i], b[i]);
        }
        const std::string context = std::to_string(qlimbs) + "-limb quotients, " + std::to_string(dlimbs) + "-limb divisors";
        const DeviceBatch da = upload(a), db = upload(b);
        DeviceBatch q;
        divexact(q, da, db);
        expect_batch_equals(q.download(), expected, context);
        DeviceBatch checked;
        divexact_checked(checked, da, db);
        expect_batch_equals(checked.download(), expected, "checked, " + context);
        DeviceBatch x = upload(a);
        divexact_checked(x, x, db);  // q == a
        expect_batch_equals(x.download(), expected, "q == a, " + context);
    }
}

// At least 10^6 random exact divisions on the GPU (a sixteenth on the CPU), elementwise and by
// a shared divisor, checked and not, in every size class up to dividends of 2^20 bits; a few
// elements of each checked batch are made inexact by one unit in the last place.
TEST_P(BatchDiv, ManyRandomExactDivisionsAcrossSizeClasses)
{
    IntegerSource source(47);
    const std::pair<std::uint32_t, std::uint32_t> shapes[] = {
        {1, 1},   {2, 1},     {1, 2},     {4, 4},     {8, 8},     {9, 7},    {16, 16}, {32, 32}, {33, 31},
        {64, 64}, {128, 128}, {256, 256}, {700, 300}, {1024, 1024}, {4096, 4096}, {8192, 8192}, {16383, 1}};
    std::size_t divisions = 0;
    for (const auto& [qlimbs, dlimbs] : shapes) {
        const std::size_t count = std::max<std::size_t>(
            scaled(std::min<std::size_t>(std::size_t(1) << 18, (std::size_t(1) << 23) / (qlimbs * dlimbs)), backend()), 3);
        for (const bool shared : {false, true}) {
            MpzArray a(count), b(shared ? 1 : count), expected(count);
            for (std::size_t i = 0; i < b.size(); ++i) set_divisor(source, b[i], dlimbs, i + 1);
            for (std::size_t i = 0; i < count; ++i) {
                if (i % 97 == 5) mpz_set_ui(expected[i], 0);
                else source.set(expected[i], qlimbs - (i % 3 == 1 && qlimbs > 1), i % 11 == 3 ? Shape::all_ones : Shape::random, i % 2);
                mpz_mul(a[i], expected[i], b[shared ? 0 : i]);
            }
            const std::string context = std::to_string(qlimbs) + "-limb quotients by " + std::to_string(dlimbs) +
                                        "-limb divisors" + (shared ? ", shared" : "");
            const DeviceBatch da = upload(a), db = upload(b);
            DeviceBatch q;
            divexact(q, da, db);
            expect_batch_equals(q.download(), expected, context);
            divexact_checked(q, da, db);
            expect_batch_equals(q.download(), expected, "checked, " + context);
            divisions += 2 * count;

            // Off by one in the last place: inexact unless the divisor is +-1.
            std::size_t first_bad = count;
            for (const std::size_t i : {count / 2, count - 1}) {
                if (i % 2) mpz_add_ui(a[i], a[i], 1);
                else mpz_sub_ui(a[i], a[i], 1);
                if (!mpz_divisible_p(a[i], b[shared ? 0 : i])) first_bad = std::min(first_bad, i);
            }
            if (first_bad == count) continue;
            try {
                divexact_checked(q, upload(a), db);
                ADD_FAILURE() << "no error, " << context;
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find("element " + std::to_string(first_bad) + " does"), std::string::npos)
                    << e.what() << ", " << context;
            }
            expect_batch_equals(q.download(), expected, "left untouched, " + context);
        }
    }
    if (backend() == Backend::gpu) {
        EXPECT_GE(divisions, 1000000u);
    }
}

// The largest operands with the longest carry chains: all-ones quotients and divisors making
// dividends of 2^20 bits, a one-limb divisor, and divisors with thousands of low zero bits.
TEST_P(BatchDiv, AllOnesAtTheLargestSize)
{
    IntegerSource source(48);
    MpzArray a(4), b(4), expected(4);
    source.set(expected[0], 8192, Shape::all_ones, false);
    source.set(b[0], 8192, Shape::all_ones, true);
    source.set(expected[1], 16383, Shape::all_ones, true);
    mpz_set_si(b[1], -1);
    source.set(expected[2], 8000, Shape::all_ones, true);
    source.set(b[2], 100, Shape::all_ones, false);
    mpz_mul_2exp(b[2], b[2], 64 * 90 + 13);
    source.set(expected[3], 1, Shape::all_ones, false);
    source.set(b[3], 16383, Shape::all_ones, false);
    for (std::size_t i = 0; i < 4; ++i) mpz_mul(a[i], expected[i], b[i]);
    DeviceBatch q;
    divexact_checked(q, upload(a), upload(b));
    expect_batch_equals(q.download(), expected, "2^20-bit all-ones");
}

TEST_P(BatchDiv, SharedDivisor)
{
    IntegerSource source(42);
    for (const std::uint32_t dlimbs : {1u, 2u, 33u, 200u}) {
        MpzArray c(1), a(500), expected(500);
        set_divisor(source, c[0], dlimbs, 2);
        for (std::size_t i = 0; i < a.size(); ++i) {
            source.set_random(expected[i], 50);
            mpz_mul(a[i], expected[i], c[0]);
        }
        const DeviceBatch dc = upload(c);
        DeviceBatch q;
        divexact_checked(q, upload(a), dc);
        expect_batch_equals(q.download(), expected, std::to_string(dlimbs) + "-limb shared divisor");
    }
}

TEST_P(BatchDiv, CheckedDivisionNamesTheFirstInexactElementAndWritesNothing)
{
    IntegerSource source(43);
    MpzArray a(200), b(200), poison(200);
    for (std::size_t i = 0; i < a.size(); ++i) {
        source.set(b[i], 5, Shape::random, i & 1);
        source.set_random(a[i], 9);
        mpz_mul(a[i], a[i], b[i]);
        mpz_set_si(poison[i], -7);
    }
    mpz_add_ui(a[150], a[150], 1);  // off by one unit in the last place
    mpz_sub_ui(a[61], a[61], 1);
    DeviceBatch q = upload(poison);
    try {
        divexact_checked(q, upload(a), upload(b));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("element 61 does not divide exactly"), std::string::npos) << e.what();
    }
    expect_batch_equals(q.download(), poison, "q untouched");
}

TEST_P(BatchDiv, QuotientAndRemainderMatchGmpForEverySign)
{
    IntegerSource source(44);
    for (const bool floor : {true, false}) {
        for (const auto& [alimbs, blimbs] : kShapes) {
            const std::size_t n = 257;
            MpzArray a(n), b(n), eq(n), er(n);
            for (std::size_t i = 0; i < n; ++i) {
                source.set_random(a[i], alimbs);
                set_divisor(source, b[i], blimbs, i);
                if (floor) mpz_fdiv_qr(eq[i], er[i], a[i], b[i]);
                else mpz_tdiv_qr(eq[i], er[i], a[i], b[i]);
            }
            const std::string context = std::string(floor ? "fdiv" : "tdiv") + ", " + std::to_string(alimbs) + " by " +
                                        std::to_string(blimbs) + " limbs";
            DeviceBatch x = upload(a), y = upload(b);
            if (floor) fdiv_qr(x, y, x, y);  // q == a, r == b
            else tdiv_qr(x, y, x, y);
            expect_batch_equals(x.download(), eq, "q, " + context);
            expect_batch_equals(y.download(), er, "r, " + context);
        }
    }
    MpzArray ones(2);
    mpz_set_si(ones[0], 5);
    mpz_set_si(ones[1], -3);
    DeviceBatch q, d = upload(ones);
    EXPECT_THROW(fdiv_qr(q, q, d, d), Error) << "q and r the same batch";
}

// At least 10^6 random divisions with remainder on the GPU for each of fdiv_qr, tdiv_qr and mod
// (a sixteenth on the CPU), elementwise and by a shared divisor: dividends shorter than the
// divisor up to 2^20 bits, divisors on both sides of the GPU kernel's 512 limbs, every sign.
TEST_P(BatchDiv, ManyRandomDivisionsWithRemainder)
{
    if (GetParam().algorithm != std::string("auto")) GTEST_SKIP() << "ZGPU_DIV_ALGORITHM only chooses exact division methods";
    IntegerSource source(49);
    const std::pair<std::uint32_t, std::uint32_t> shapes[] = {  // (dividend limbs, divisor limbs)
        {1, 1},    {2, 1},     {1, 2},     {3, 2},      {8, 4},      {8, 8},       {16, 8},     {17, 9},
        {64, 32},  {40, 33},   {96, 64},   {256, 128},  {512, 256},  {1024, 512},  {1025, 513}, {16384, 1},
        {16384, 512}};
    std::size_t divisions = 0;  // of each of fdiv_qr, tdiv_qr and mod
    for (const auto& [alimbs, dlimbs] : shapes) {
        const std::size_t work = std::max<std::size_t>(alimbs, std::size_t(alimbs - std::min(alimbs, dlimbs) + 1) * dlimbs);
        const std::size_t count = std::max<std::size_t>(scaled(std::min<std::size_t>(std::size_t(1) << 18, (std::size_t(1) << 23) / work), backend()), 3);
        for (const bool shared : {false, true}) {
            MpzArray a(count), b(shared ? 1 : count);
            for (std::size_t i = 0; i < b.size(); ++i) set_divisor(source, b[i], dlimbs, i + 1);
            for (std::size_t i = 0; i < count; ++i) {
                if (i % 101 == 7) mpz_set_ui(a[i], 0);
                else source.set(a[i], alimbs - (i % 3 == 1 && alimbs > 1), i % 11 == 3 ? Shape::all_ones : Shape::random, i % 2);
            }
            expect_divisions_match_gmp(a, b, std::to_string(alimbs) + " by " + std::to_string(dlimbs) + " limbs" + (shared ? ", shared" : ""));
        }
        divisions += count;
    }
    if (backend() == Backend::gpu) {
        EXPECT_GE(divisions, 1000000u);
    }
}

// Inputs where schoolbook division's estimated digit is one too large and the divisor is added
// back: a = d B^(n-2) with d a random digit times the divisor's top two limbs, and the divisor's
// lower limbs all ones (the estimate from its top two limbs is d, the digit d - 1); and
// a = b B^k - 1, whose windows repeat the divisor's top limbs (the digit B - 1 without a 3/2
// division).
TEST_P(BatchDiv, DivisionsThatAddTheDivisorBack)
{
    IntegerSource source(50);
    const std::size_t n = 400;
    MpzArray a(n), b(n);
    mpz_t top, low;
    mpz_inits(top, low, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t limbs = std::uint32_t(3 + i % 7 * (i % 3 == 0 ? 70 : 1)), below = std::uint32_t(i % 5);
        if (i % 2 == 0) {
            source.set(top, 2, Shape::random, false);  // top bit set: b is normalized
            mpz_set_ui(b[i], 1);
            mpz_mul_2exp(b[i], b[i], 64 * (limbs - 2));
            mpz_mul(a[i], b[i], top);
            mpz_mul_ui(a[i], a[i], source.next() | 2);
            mpz_addmul(b[i], b[i], top);
            mpz_sub_ui(b[i], b[i], 1);  // top B^(n-2) + B^(n-2) - 1
            source.set(low, below, Shape::random, false);
            mpz_mul_2exp(a[i], a[i], 64 * below);
            mpz_add(a[i], a[i], low);
        } else {
            source.set(b[i], limbs, Shape::random, false);
            mpz_mul_2exp(a[i], b[i], 64 * (below + 1));
            mpz_sub_ui(a[i], a[i], 1);
        }
        if (source.coin()) mpz_neg(a[i], a[i]);
        if (source.coin()) mpz_neg(b[i], b[i]);
    }
    mpz_clears(top, low, nullptr);
    expect_divisions_match_gmp(a, b, "digits estimated one too large");
}

// The longest carry chains at the largest sizes: all-ones dividends of 2^20 bits by all-ones
// divisors of the GPU kernel's largest stride and one limb more, and by one limb.
TEST_P(BatchDiv, DivisionsWithRemainderOfAllOnesAtTheLargestSize)
{
    IntegerSource source(53);
    for (const std::uint32_t dlimbs : {1u, 512u, 513u}) {
        MpzArray a(3), b(3);
        for (std::size_t i = 0; i < 3; ++i) {
            source.set(a[i], 16384 - std::uint32_t(i), Shape::all_ones, i == 1);
            source.set(b[i], dlimbs, Shape::all_ones, i == 2);
        }
        mpz_sub_ui(b[1], b[1], 1);
        expect_divisions_match_gmp(a, b, "all ones by " + std::to_string(dlimbs) + " limbs");
    }
}

TEST_P(BatchDiv, QuotientStridesAreTightAndHoldTheFloorEdge)
{
    // |a| = 2^(64*40) - 1 and b = -2^(64*29): the floor quotient's magnitude is exactly
    // 2^(64*11), one limb more than |a| - |b| + 1 = 11 limbs.
    MpzArray a(2), b(2), eq(2), er(2);
    IntegerSource source(46);
    source.set(a[0], 40, Shape::all_ones, false);
    mpz_set_ui(b[0], 1);
    mpz_mul_2exp(b[0], b[0], 64 * 29);
    mpz_neg(b[0], b[0]);
    source.set(a[1], 40, Shape::random, true);
    source.set(b[1], 30, Shape::random, false);
    for (std::size_t i = 0; i < 2; ++i) mpz_fdiv_qr(eq[i], er[i], a[i], b[i]);
    EXPECT_EQ(mpz_size(eq[0]), 12u);
    DeviceBatch q, r;
    fdiv_qr(q, r, upload(a), upload(b));
    EXPECT_EQ(q.stride(), size_class(12));
    expect_batch_equals(q.download(), eq, "floor quotients");
    expect_batch_equals(r.download(), er, "floor remainders");
    MpzArray exact(2);
    for (std::size_t i = 0; i < 2; ++i) mpz_mul(exact[i], b[i], eq[i]);
    const DeviceBatch da = upload(exact);
    divexact(q, da, upload(b));
    EXPECT_EQ(q.stride(), size_class(da.stride() - 30 + 1)) << "a's stride less the smallest divisor's size, plus one";
    expect_batch_equals(q.download(), eq, "exact quotients");

    // Long quotients are bounded element by element (kernels::quotient_limbs_bound): a = b q with
    // b and q of 64 random limbs has 128 limbs and its top limb below b's, so the quotients take
    // 64 limbs, not 65 (a 72-limb class); where a's top limb is not below b's, 65.
    MpzArray q64(5), b64(5), a128(5);
    for (std::size_t i = 0; i < 5; ++i) {
        source.set(q64[i], 64, Shape::random, i % 2);
        source.set(b64[i], 64, Shape::random, i % 3 == 0);
        mpz_mul(a128[i], q64[i], b64[i]);
    }
    divexact(q, upload(a128), upload(b64));
    EXPECT_EQ(q.stride(), 64u);
    expect_batch_equals(q.download(), q64, "exact quotients of 64 limbs");
    // b = B^63 + B^62 (top limb 1) and q = B^64 - 1: q b >= B^127, a's top limb is 1.
    source.set(q64[4], 64, Shape::all_ones, false);
    mpz_set_ui(b64[4], 1);
    mpz_mul_2exp(b64[4], b64[4], 64);
    mpz_add_ui(b64[4], b64[4], 1);
    mpz_mul_2exp(b64[4], b64[4], 64 * 62);
    mpz_mul(a128[4], q64[4], b64[4]);
    divexact(q, upload(a128), upload(b64));
    EXPECT_EQ(q.stride(), size_class(65));
    expect_batch_equals(q.download(), q64, "exact quotients of 64 limbs, one bound at 65");
    // q = B^64, 65 limbs: a = b B^64 has b's top limb, and the bound's extra limb is needed.
    mpz_set_ui(q64[2], 1);
    mpz_mul_2exp(q64[2], q64[2], 64 * 64);
    mpz_mul(a128[2], q64[2], b64[2]);
    divexact(q, upload(a128), upload(b64));
    EXPECT_EQ(q.stride(), size_class(65));
    expect_batch_equals(q.download(), q64, "an exact quotient of 65 limbs, the bound's largest");
}

TEST_P(BatchDiv, ModulusMatchesGmp)
{
    IntegerSource source(45);
    for (const std::uint32_t mlimbs : {1u, 2u, 40u}) {
        MpzArray m(1), a(400), expected(400);
        source.set(m[0], mlimbs, Shape::random, false);
        for (std::size_t i = 0; i < a.size(); ++i) {
            source.set_random(a[i], 3 * mlimbs);
            mpz_fdiv_r(expected[i], a[i], m[0]);
        }
        DeviceBatch x = upload(a);
        mod(x, x, upload(m));
        expect_batch_equals(x.download(), expected, std::to_string(mlimbs) + "-limb modulus");
    }
    MpzArray negative(1), a(3);
    mpz_set_si(negative[0], -5);
    DeviceBatch r;
    EXPECT_THROW(mod(r, upload(a), upload(negative)), Error);
}

TEST_P(BatchDiv, ZeroDivisorsAndShapesAreRefusedWithNothingWritten)
{
    MpzArray a(4), b(4), poison(4);
    for (std::size_t i = 0; i < 4; ++i) {
        mpz_set_si(a[i], 12);
        mpz_set_si(b[i], 3);
        mpz_set_si(poison[i], 99);
    }
    mpz_set_ui(b[2], 0);
    DeviceBatch q = upload(poison), r = upload(poison);
    try {
        divexact(q, upload(a), upload(b));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("division by zero (b[2] is 0)"), std::string::npos) << e.what();
    }
    EXPECT_THROW(tdiv_qr(q, r, upload(a), upload(b)), Error);
    MpzArray zero(1), three(3);
    EXPECT_THROW(divexact(q, upload(MpzArray(0)), upload(zero)), Error) << "a zero shared divisor, even for no elements";
    EXPECT_THROW(mod(r, upload(a), upload(zero)), Error);
    EXPECT_THROW(divexact(q, upload(a), upload(three)), Error) << "4 elements by 3";
    expect_batch_equals(q.download(), poison, "q untouched");
    expect_batch_equals(r.download(), poison, "r untouched");
}

INSTANTIATE_TEST_SUITE_P(Backends, BatchDiv,
                         ::testing::Values(AlgorithmCase{Backend::cpu, "auto"}, AlgorithmCase{Backend::gpu, "auto"},
                                           AlgorithmCase{Backend::gpu, "hensel"}, AlgorithmCase{Backend::gpu, "block"},
                                           AlgorithmCase{Backend::gpu, "newton"}),
                         algorithm_case_name);

}  // namespace
}  // namespace zgpu::testing
