// zgpu::mul, determinant, inv and solve on NTL's mat_zz_p against NTL's, on each backend: empty
// and non-square shapes, moduli from 2 to an FFT prime of 60 bits and composite ones, every
// entry p - 1, singular matrices and ones whose leading blocks are singular, aliasing, sizes
// that the automatic choice sends to the GPU, progress lines, bad shapes.
#include <string>

#include <NTL/mat_lzz_p.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

class NtlMatricesModP : public OnBackend {
protected:
    void SetUp() override
    {
        OnBackend::SetUp();
        NTL::SetSeed(NTL::ZZ(13));
    }
    static NTL::mat_zz_p random(long rows, long cols)
    {
        NTL::mat_zz_p m;
        NTL::random(m, rows, cols);
        return m;
    }
    static NTL::mat_zz_p all(long rows, long cols, long value)
    {
        NTL::mat_zz_p m;
        m.SetDims(rows, cols);
        for (long i = 0; i < rows; ++i)
            for (long j = 0; j < cols; ++j) m[i][j] = value;
        return m;
    }
    static std::string context(const NTL::mat_zz_p& a, const char* what)
    {
        return std::string(what) + " of " + std::to_string(a.NumRows()) + " x " + std::to_string(a.NumCols()) + " mod " +
               std::to_string(NTL::zz_p::modulus());
    }
};

// The moduli the tests run under: the smallest, a small odd prime, a composite of 40 bits and
// one of 60, an FFT prime of 60 bits (NTL's zz_p takes moduli below 2^60).
void for_each_modulus(const std::function<void()>& test)
{
    for (const long p : {2L, 65537L, (1L << 40) + 1, (1L << 60) - 1}) {
        NTL::zz_p::init(p);
        test();
    }
    NTL::zz_p::FFTInit(0);
    test();
}

TEST_P(NtlMatricesModP, MulMatchesNtl)
{
    const long shapes[][3] = {{0, 0, 0}, {0, 3, 2}, {2, 0, 3}, {3, 2, 0}, {1, 1, 1}, {33, 17, 65}, {300, 200, 250}};
    for_each_modulus([&] {
        for (const auto& s : shapes) {
            const NTL::mat_zz_p a = random(s[0], s[1]), b = random(s[1], s[2]);
            NTL::mat_zz_p ours = random(2, 2), theirs;  // ours overwritten, of another shape
            NTL::mul(theirs, a, b);
            zgpu::mul(ours, a, b);
            EXPECT_TRUE(ours == theirs) << context(a, "product");
        }
        const long minus_one = NTL::zz_p::modulus() - 1;
        const NTL::mat_zz_p a = all(70, 90, minus_one), b = all(90, 40, minus_one);
        NTL::mat_zz_p ours, theirs;
        NTL::mul(theirs, a, b);
        zgpu::mul(ours, a, b);
        EXPECT_TRUE(ours == theirs) << context(a, "product, every entry p - 1");
    });
    EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");
}

TEST_P(NtlMatricesModP, MulInPlace)
{
    NTL::zz_p::FFTInit(0);
    NTL::mat_zz_p a = random(40, 40), b = random(40, 40);
    NTL::mat_zz_p expected;
    NTL::mul(expected, a, b);
    const NTL::mat_zz_p b_before = b;
    zgpu::mul(b, a, b);
    EXPECT_TRUE(b == expected);
    NTL::mul(expected, a, b_before);
    zgpu::mul(a, a, b_before);
    EXPECT_TRUE(a == expected);
}

TEST_P(NtlMatricesModP, DeterminantMatchesNtl)
{
    // Composite moduli only for matrices whose elimination NTL can finish (unit pivots).
    for_each_modulus([&] {
        const bool prime = NTL::ProbPrime(NTL::zz_p::modulus());
        for (const long n : {0L, 1L, 2L, 17L, 60L, 300L}) {
            NTL::mat_zz_p a = prime ? random(n, n) : NTL::ident_mat_zz_p(n);
            if (!prime && n > 1) swap(a[0], a[n - 1]);  // det -1
            NTL::zz_p ours(12345), theirs;
            NTL::determinant(theirs, a);
            zgpu::determinant(ours, a);
            EXPECT_EQ(ours, theirs) << context(a, "determinant");
            if (n < 2 || !prime) continue;
            a[n - 1] = a[0];  // two equal rows
            zgpu::determinant(ours, a);
            EXPECT_EQ(ours, NTL::zz_p(0)) << context(a, "determinant, two equal rows");
            const NTL::mat_zz_p minus_one = all(n, n, NTL::zz_p::modulus() - 1);  // rank 1
            NTL::determinant(theirs, minus_one);
            zgpu::determinant(ours, minus_one);
            EXPECT_EQ(ours, theirs) << context(a, "determinant, every entry p - 1");
        }
    });
}

TEST_P(NtlMatricesModP, DeterminantsThatTakeSecondsShowProgress)
{
    // FLINT would take over a second (by its cost model): a line as it starts and one as it ends.
    NTL::zz_p::FFTInit(0);
    const NTL::mat_zz_p a = random(1532, 1532);
    NTL::zz_p ours, theirs;
    zgpu_set_progress(1);
    ::testing::internal::CaptureStderr();
    zgpu::determinant(ours, a);
    const std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);
    NTL::determinant(theirs, a);
    EXPECT_EQ(ours, theirs);
    const std::string what = "zgpu: determinant of mat_zz_p, 1532 x 1532 mod " + std::to_string(NTL::zz_p::modulus()) + ": ";
    EXPECT_NE(text.find(what + "started"), std::string::npos) << text;
    EXPECT_NE(text.find(what + "done on the " + std::string(zgpu_last_backend())), std::string::npos) << text;
}

// A matrix to invert mod the current modulus: random where it is prime, else a permuted
// identity (NTL's elimination needs unit pivots).
NTL::mat_zz_p invertible_or_not(long n, bool prime)
{
    NTL::mat_zz_p a;
    if (prime) {
        NTL::random(a, n, n);
        return a;
    }
    a = NTL::ident_mat_zz_p(n);
    if (n > 1) swap(a[0], a[n - 1]);
    return a;
}

TEST_P(NtlMatricesModP, InverseMatchesNtl)
{
    for_each_modulus([&] {
        const bool prime = NTL::ProbPrime(NTL::zz_p::modulus());
        for (const long n : {0L, 1L, 2L, 33L, 200L}) {
            NTL::mat_zz_p a = invertible_or_not(n, prime);
            NTL::zz_p ours(7), theirs;
            NTL::mat_zz_p x = random(3, 3), expected;
            NTL::inv(theirs, expected, a);
            zgpu::inv(ours, x, a);
            EXPECT_EQ(ours, theirs) << context(a, "inverse's determinant");
            if (theirs != 0) {
                EXPECT_TRUE(x == expected) << context(a, "inverse");
            }
            if (n < 2 || !prime) continue;
            // The anti-diagonal: the GPU's leading blocks are singular, it stands aside.
            NTL::mat_zz_p anti;
            anti.SetDims(n, n);
            for (long i = 0; i < n; ++i) anti[i][n - 1 - i] = 1;
            NTL::inv(theirs, expected, anti);
            zgpu::inv(ours, x, anti);
            EXPECT_EQ(ours, theirs) << context(a, "inverse's determinant, anti-diagonal");
            EXPECT_TRUE(x == expected) << context(a, "inverse, anti-diagonal");
            a[n - 1] = a[0];  // singular: d = 0
            zgpu::inv(ours, x, a);
            EXPECT_EQ(ours, NTL::zz_p(0)) << context(a, "inverse's determinant, two equal rows");
        }
    });
}

TEST_P(NtlMatricesModP, ASingularInverseRaisesNtlsError)
{
    // NTL's ArithmeticError, as NTL's inv raises it: thrown where NTL has exceptions, else the
    // end of the program (checked in a new process: a forked one could not use the GPU).
    NTL::zz_p::FFTInit(0);
    NTL::mat_zz_p a = random(100, 100), x;
    a[99] = a[0];
#ifdef NTL_EXCEPTIONS
    EXPECT_THROW(zgpu::inv(x, a), NTL::ArithmeticErrorObject);
#else
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(zgpu::inv(x, a), "inv: non-invertible matrix");
#endif
}

TEST_P(NtlMatricesModP, InverseInPlace)
{
    NTL::zz_p::FFTInit(0);
    NTL::mat_zz_p a = random(150, 150), expected;
    NTL::inv(expected, a);
    zgpu::inv(a, a);
    EXPECT_TRUE(a == expected);
}

TEST_P(NtlMatricesModP, SolutionsMatchNtlBothWays)
{
    for_each_modulus([&] {
        const bool prime = NTL::ProbPrime(NTL::zz_p::modulus());
        for (const long n : {0L, 1L, 2L, 40L, 200L}) {
            const NTL::mat_zz_p a = invertible_or_not(n, prime);
            NTL::vec_zz_p b;
            NTL::random(b, n);
            for (const bool row : {false, true}) {
                NTL::zz_p ours(7), theirs;
                NTL::vec_zz_p x, expected;
                if (row) {
                    NTL::solve(theirs, expected, a, b);
                    zgpu::solve(ours, x, a, b);
                } else {
                    NTL::solve(theirs, a, expected, b);
                    zgpu::solve(ours, a, x, b);
                }
                const std::string what = row ? "solution of x a = b" : "solution of a x = b";
                EXPECT_EQ(ours, theirs) << context(a, what.c_str());
                if (theirs != 0) {
                    EXPECT_TRUE(x == expected) << context(a, what.c_str());
                }
            }
            if (n < 2 || !prime) continue;
            // In place: x is b; and a singular a.
            NTL::vec_zz_p y = b, expected;
            NTL::zz_p ours, theirs;
            NTL::solve(theirs, a, expected, b);
            zgpu::solve(ours, a, y, y);
            EXPECT_EQ(ours, theirs) << context(a, "solution's determinant, into b");
            if (theirs != 0) {
                EXPECT_TRUE(y == expected) << context(a, "solution into b");
            }
            // x a row of a matrix (a vector of fixed length).
            NTL::mat_zz_p rows;
            rows.SetDims(1, n);
            zgpu::solve(ours, a, rows[0], b);
            EXPECT_EQ(ours, theirs) << context(a, "solution's determinant, into a matrix's row");
            if (theirs != 0) {
                EXPECT_TRUE(rows[0] == expected) << context(a, "solution into a matrix's row");
            }
            NTL::mat_zz_p singular = a;
            singular[n - 1] = singular[0];
            zgpu::solve(ours, singular, y, b);
            EXPECT_EQ(ours, NTL::zz_p(0)) << context(a, "solution's determinant, two equal rows");
        }
    });
}

TEST_P(NtlMatricesModP, BadShapesThrowAndWriteNothing)
{
    NTL::zz_p::init(65537);
    const NTL::mat_zz_p a = random(3, 4);
    NTL::mat_zz_p x = random(2, 2);
    const NTL::mat_zz_p before = x;
    EXPECT_THROW(zgpu::mul(x, a, a), Error);
    EXPECT_TRUE(x == before);
    NTL::zz_p d(7);
    EXPECT_THROW(zgpu::determinant(d, a), Error);
    EXPECT_THROW(zgpu::inv(d, x, a), Error);
    EXPECT_THROW(zgpu::inv(x, a), Error);
    EXPECT_EQ(d, NTL::zz_p(7));
    EXPECT_TRUE(x == before);
    const NTL::mat_zz_p square = random(3, 3);
    NTL::vec_zz_p b, y;
    NTL::random(b, 4);
    y = b;
    EXPECT_THROW(zgpu::solve(d, square, y, b), Error);
    EXPECT_THROW(zgpu::solve(d, y, square, b), Error);
    EXPECT_THROW(zgpu::solve(d, a, y, b), Error);
    EXPECT_EQ(d, NTL::zz_p(7));
    EXPECT_TRUE(y == b);
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlMatricesModP, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
