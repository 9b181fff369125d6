// zgpu::mul, determinant, solve1, solve and inv on NTL's mat_ZZ against NTL's, on each backend: empty
// and non-square shapes, entries of 1 to 500 bits with signs, chunks of entries that span rows,
// singular matrices, aliasing, products in blocks under a device memory limit, systems on both
// sides of the lifting's 16 rows with large denominators, bad shapes.
#include <string>

#include <NTL/mat_ZZ.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu::testing {
namespace {

class NtlMatrices : public OnBackend {
protected:
    void SetUp() override
    {
        OnBackend::SetUp();
        NTL::SetSeed(NTL::ZZ(11));
    }
    // Entries of up to `bits` bits with random signs.
    static NTL::mat_ZZ random(long rows, long cols, long bits)
    {
        NTL::mat_ZZ m;
        m.SetDims(rows, cols);
        for (long i = 0; i < rows; ++i)
            for (long j = 0; j < cols; ++j) {
                m[i][j] = NTL::RandomBits_ZZ(bits);
                if (NTL::RandomBnd(2)) NTL::negate(m[i][j], m[i][j]);
            }
        return m;
    }
};

TEST_P(NtlMatrices, MulMatchesNtl)
{
    const long shapes[][3] = {{0, 0, 0}, {0, 3, 2}, {2, 0, 3}, {3, 2, 0}, {1, 1, 1}, {33, 17, 65}, {70, 40, 90}};
    for (const long bits : {1, 64, 65, 500})
        for (const auto& s : shapes) {
            const NTL::mat_ZZ a = random(s[0], s[1], bits), b = random(s[1], s[2], bits);
            NTL::mat_ZZ ours = random(2, 2, 10), theirs;  // ours overwritten, of another shape
            NTL::mul(theirs, a, b);
            zgpu::mul(ours, a, b);
            EXPECT_TRUE(ours == theirs) << s[0] << " x " << s[1] << " x " << s[2] << ", " << bits << " bits";
        }
}

TEST_P(NtlMatrices, MulInPlace)
{
    NTL::mat_ZZ a = random(30, 30, 100);
    const NTL::mat_ZZ b = random(30, 30, 100);
    NTL::mat_ZZ expected;
    NTL::mul(expected, a, b);
    zgpu::mul(a, a, b);
    EXPECT_TRUE(a == expected);
}

TEST_P(NtlMatrices, MulInBlocksUnderADeviceMemoryLimit)
{
    // About 500 kB of device data against a limit of 150 kB: bands of rows and of columns.
    const NTL::mat_ZZ a = random(60, 40, 200), b = random(40, 70, 200);
    NTL::mat_ZZ expected, ours;
    NTL::mul(expected, a, b);
    setenv("ZGPU_GPU_MEMORY_LIMIT", "150000", 1);
    zgpu::mul(ours, a, b);
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
    EXPECT_TRUE(ours == expected);
}

TEST_P(NtlMatrices, DeterminantMatchesNtl)
{
    for (const long n : {0, 1, 2, 17, 60})
        for (const long bits : {1, 64, 300}) {
            NTL::mat_ZZ a = random(n, n, bits);
            NTL::ZZ ours(12345), theirs;
            NTL::determinant(theirs, a, 1);
            zgpu::determinant(ours, a);
            EXPECT_EQ(ours, theirs) << n << " x " << n << ", " << bits << " bits";
            if (n < 2) continue;
            a[n - 1] = a[0];  // two equal rows
            zgpu::determinant(ours, a);
            EXPECT_EQ(ours, NTL::ZZ(0)) << n << " x " << n << ", two equal rows";
        }
}

TEST_P(NtlMatrices, SolutionsMatchNtl)
{
    for (const long n : {0, 1, 15, 16, 40})
        for (const long bits : {1, 64, 200}) {
            const NTL::mat_ZZ a = random(n, n, bits);
            NTL::vec_ZZ b;
            b.SetLength(n);
            for (long i = 0; i < n; ++i) b[i] = NTL::RandomBits_ZZ(bits) - NTL::RandomBits_ZZ(bits);
            const std::string what = std::to_string(n) + " x " + std::to_string(n) + ", " + std::to_string(bits) + " bits";
            NTL::ZZ ours(7), theirs;
            NTL::vec_ZZ x, expected;
            NTL::solve1(theirs, expected, a, b);
            zgpu::solve1(ours, x, a, b);
            EXPECT_EQ(ours, theirs) << "solve1's d, " << what;
            if (theirs != 0) {
                EXPECT_TRUE(x == expected) << "solve1's x, " << what;
            }
            NTL::solve(theirs, expected, a, b, 1);
            zgpu::solve(ours, x, a, b);
            EXPECT_EQ(ours, theirs) << "solve's d, " << what;
            if (theirs != 0) {
                EXPECT_TRUE(x == expected) << "solve's x, " << what;
            }
        }
}

TEST_P(NtlMatrices, SolutionsOfSingularSystemsAndInPlace)
{
    NTL::mat_ZZ a = random(30, 30, 64);
    NTL::vec_ZZ b, x;
    b.SetLength(30);
    for (long i = 0; i < 30; ++i) b[i] = NTL::RandomBits_ZZ(64);
    // x into b itself.
    NTL::ZZ d, theirs;
    NTL::vec_ZZ expected, y = b;
    NTL::solve1(theirs, expected, a, b);
    zgpu::solve1(d, y, a, y);
    EXPECT_TRUE(d == theirs && y == expected);
    // Two equal columns (x a = d b reads a's columns): singular, d = 0 both ways.
    for (long i = 0; i < 30; ++i) a[i][29] = a[i][3];
    zgpu::solve1(d, x, a, b);
    EXPECT_EQ(d, NTL::ZZ(0));
    zgpu::solve(d, x, a, b);
    EXPECT_EQ(d, NTL::ZZ(0));
    // x a row of a matrix (a vector of fixed length), both ways.
    a = random(30, 30, 64);
    NTL::mat_ZZ rows;
    rows.SetDims(2, 30);
    NTL::solve1(theirs, expected, a, b);
    zgpu::solve1(d, rows[0], a, b);
    EXPECT_TRUE(d == theirs && rows[0] == expected);
    NTL::solve(theirs, expected, a, b, 1);
    zgpu::solve(d, rows[1], a, b);
    EXPECT_TRUE(d == theirs && rows[1] == expected);
    for (long i = 0; i < 30; ++i) a[i][29] = a[i][3];
    // A zero column: singular before any lifting.
    for (long i = 0; i < 30; ++i) a[i][5] = 0;
    zgpu::solve1(d, x, a, b);
    EXPECT_EQ(d, NTL::ZZ(0));
}

TEST_P(NtlMatrices, InversesMatchNtl)
{
    // d = det a and x = d a^-1, the adjugate: exact, so NTL's; a singular a gives d = 0.
    for (const long n : {0, 1, 15, 16, 40, 70})
        for (const long bits : {1, 64, 200}) {
            NTL::mat_ZZ a = random(n, n, bits);
            const std::string what = std::to_string(n) + " x " + std::to_string(n) + ", " + std::to_string(bits) + " bits";
            NTL::ZZ ours(7), theirs;
            NTL::mat_ZZ x, expected;
            NTL::inv(theirs, expected, a, 1);
            zgpu::inv(ours, x, a);
            EXPECT_EQ(ours, theirs) << what;
            if (theirs != 0) {
                EXPECT_TRUE(x == expected) << what;
            }
            if (n < 3) continue;
            a[n - 1] = a[0] + a[1];
            zgpu::inv(ours, x, a);
            EXPECT_EQ(ours, NTL::ZZ(0)) << what << ", singular";
        }
    // x is a.
    NTL::mat_ZZ a = random(30, 30, 50), expected;
    NTL::ZZ ours, theirs;
    NTL::inv(theirs, expected, a, 1);
    zgpu::inv(ours, a, a);
    EXPECT_EQ(ours, theirs);
    EXPECT_TRUE(a == expected);
}

TEST_P(NtlMatrices, BadShapesThrowAndWriteNothing)
{
    const NTL::mat_ZZ a = random(3, 4, 10);
    NTL::mat_ZZ x = random(2, 2, 10);
    const NTL::mat_ZZ before = x;
    EXPECT_THROW(zgpu::mul(x, a, a), Error);
    EXPECT_TRUE(x == before);
    NTL::ZZ d(7);
    EXPECT_THROW(zgpu::determinant(d, a), Error);
    EXPECT_EQ(d, NTL::ZZ(7));
    NTL::vec_ZZ b, y;
    b.SetLength(3);
    y = b;
    EXPECT_THROW(zgpu::solve1(d, y, a, b), Error);
    EXPECT_THROW(zgpu::solve(d, y, a, b), Error);
    const NTL::mat_ZZ square = random(4, 4, 10);
    EXPECT_THROW(zgpu::solve1(d, y, square, b), Error);
    EXPECT_THROW(zgpu::solve(d, y, square, b), Error);
    EXPECT_THROW(zgpu::inv(d, x, a), Error);
    EXPECT_TRUE(x == before);
    EXPECT_EQ(d, NTL::ZZ(7));
    EXPECT_TRUE(y == b);
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlMatrices, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// The modular path's values (fmpz) as NTL's: zero, one word, several, both signs.
TEST(NtlConversions, FmpzValuesBecomeTheSameZz)
{
    fmpz_t v;
    fmpz_init(v);
    for (const long bits : {0, 1, 63, 64, 65, 200}) {
        for (const int sign : {1, -1}) {
            fmpz_one(v);
            fmpz_mul_2exp(v, v, ulong(bits));
            fmpz_sub_ui(v, v, 1);  // 2^bits - 1
            if (sign < 0) fmpz_neg(v, v);
            NTL::ZZ expected = (NTL::ZZ(1) << bits) - 1, got(777);
            if (sign < 0) NTL::negate(expected, expected);
            set_zz(got, v);
            EXPECT_EQ(got, expected) << bits << " bits, sign " << sign;
        }
    }
    fmpz_clear(v);
}

}  // namespace
}  // namespace zgpu::testing
