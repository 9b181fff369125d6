// NTL-style division of Vec<ZZ> and ZZX by a scalar, against NTL, on each backend (ZGPU_BACKEND).
#include <cstdlib>
#include <string>

#include <NTL/ZZ.h>
#include <NTL/ZZX.h>
#include <NTL/mat_ZZ.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"

namespace zgpu::testing {
namespace {

NTL::Vec<NTL::ZZ> random_vector(long n, long bits)
{
    NTL::Vec<NTL::ZZ> v;
    v.SetLength(n);
    for (long i = 0; i < n; ++i) {
        v[i] = NTL::RandomBits_ZZ(NTL::RandomBnd(bits + 1));
        if (i % 3 == 1) NTL::negate(v[i], v[i]);
    }
    return v;
}

class NtlDivision : public OnBackend {};

TEST_P(NtlDivision, DivRemAndDivRemMatchNtl)
{
    NTL::SetSeed(NTL::ZZ(5));
    for (const long n : {0L, 1L, 33L, 3000L}) {
        for (const NTL::ZZ& b : {NTL::ZZ(1), NTL::ZZ(-1), NTL::ZZ(-7), NTL::RandomBits_ZZ(100), -NTL::RandomBits_ZZ(2000)}) {
            const NTL::Vec<NTL::ZZ> a = random_vector(n, 3000);
            NTL::Vec<NTL::ZZ> eq, er, q, r;
            eq.SetLength(n);
            er.SetLength(n);
            for (long i = 0; i < n; ++i) NTL::DivRem(eq[i], er[i], a[i], b);
            zgpu::div(q, a, b);
            EXPECT_EQ(q, eq) << n << " entries, div by " << b;
            zgpu::rem(r, a, b);
            EXPECT_EQ(r, er) << "rem";
            q = a;
            zgpu::DivRem(q, r, q, b);  // q == a
            EXPECT_TRUE(q == eq && r == er) << "DivRem, q == a";
        }
    }
    NTL::Vec<NTL::ZZ> v = random_vector(40, 500), ev = v;  // b an entry of the output: read once
    v[0] = 7;
    ev[0] = 7;
    for (long i = 0; i < ev.length(); ++i) NTL::div(ev[i], ev[i], NTL::ZZ(7));
    zgpu::div(v, v, v[0]);
    EXPECT_EQ(v, ev) << "b aliasing q[0]";
    NTL::Vec<NTL::ZZ> q = random_vector(3, 10);
    const NTL::Vec<NTL::ZZ> before = q;
    EXPECT_THROW(zgpu::div(q, q, NTL::ZZ(0)), Error);
    EXPECT_EQ(q, before) << "nothing written";
    EXPECT_THROW(zgpu::DivRem(q, q, before, NTL::ZZ(3)), Error);
}

TEST_P(NtlDivision, DivideIsExactOrLeavesTheResultAlone)
{
    NTL::SetSeed(NTL::ZZ(6));
    const NTL::ZZ b = -NTL::RandomBits_ZZ(300);
    NTL::Vec<NTL::ZZ> a = random_vector(500, 900), expected = a;
    for (long i = 0; i < a.length(); ++i) a[i] *= b;
    NTL::Vec<NTL::ZZ> q;
    EXPECT_TRUE(zgpu::divide(q, a, b));
    EXPECT_EQ(q, expected);
    a[321] += 1;
    NTL::Vec<NTL::ZZ> untouched = random_vector(4, 10);
    const NTL::Vec<NTL::ZZ> before = untouched;
    EXPECT_FALSE(zgpu::divide(untouched, a, b));
    EXPECT_EQ(untouched, before);

    NTL::ZZX p, x, expected_poly;
    for (long i = 0; i <= 200; ++i) NTL::SetCoeff(p, i, NTL::RandomBits_ZZ(500) * b);
    NTL::div(expected_poly, p, b);
    zgpu::div(x, p, b);
    EXPECT_EQ(x, expected_poly);
    x = p;
    EXPECT_TRUE(zgpu::divide(x, x, b));  // x == a
    EXPECT_EQ(x, expected_poly);
    NTL::SetCoeff(p, 77, NTL::coeff(p, 77) + 1);
    x = expected_poly;
    try {
        zgpu::div(x, p, b);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("coefficient 77"), std::string::npos) << e.what();
    }
    EXPECT_EQ(x, expected_poly) << "nothing written";
    EXPECT_FALSE(zgpu::divide(x, p, b));
    EXPECT_EQ(x, expected_poly) << "nothing written";
}

TEST_P(NtlDivision, ZeroDivisorsAsNtl)
{
    // divide: b = 0 divides zeros only (NTL returns 1 with q = 0); div, rem, DivRem throw.
    NTL::Vec<NTL::ZZ> zeros, q = random_vector(2, 10);
    zeros.SetLength(3);
    EXPECT_TRUE(zgpu::divide(q, zeros, NTL::ZZ(0)));
    EXPECT_EQ(q, zeros);
    NTL::Vec<NTL::ZZ> some = zeros;
    some[1] = 5;
    EXPECT_FALSE(zgpu::divide(q, some, NTL::ZZ(0)));
    NTL::ZZX zero_poly, p, x;
    NTL::SetCoeff(p, 2, 9);
    EXPECT_TRUE(zgpu::divide(x, zero_poly, NTL::ZZ(0)));
    EXPECT_TRUE(NTL::IsZero(x));
    EXPECT_FALSE(zgpu::divide(x, p, NTL::ZZ(0)));
    EXPECT_THROW(zgpu::div(x, p, NTL::ZZ(0)), Error);
    EXPECT_THROW(zgpu::rem(q, some, NTL::ZZ(0)), Error);
}

TEST_P(NtlDivision, RowsOfAMatrixAreOutputsOfFixedLength)
{
    NTL::Mat<NTL::ZZ> m;
    m.SetDims(2, 4);
    NTL::Vec<NTL::ZZ> a = random_vector(4, 300), eq, er;
    eq.SetLength(4);
    er.SetLength(4);
    for (long i = 0; i < 4; ++i) NTL::DivRem(eq[i], er[i], a[i], NTL::ZZ(3));
    zgpu::DivRem(m[0], m[1], a, NTL::ZZ(3));
    EXPECT_TRUE(m[0] == eq && m[1] == er);
    const NTL::Vec<NTL::ZZ> tenths = a;
    for (long i = 0; i < 4; ++i) a[i] *= 10;
    EXPECT_TRUE(zgpu::divide(m[0], a, NTL::ZZ(10)));
    EXPECT_EQ(m[0], tenths);
    const NTL::Vec<NTL::ZZ> longer = random_vector(5, 10), row = m[1];
    EXPECT_THROW(zgpu::div(m[1], longer, NTL::ZZ(3)), Error);
    EXPECT_THROW(zgpu::DivRem(m[0], m[1], longer, NTL::ZZ(3)), Error);
    EXPECT_EQ(m[1], row) << "nothing written";
}

// Many chunks: the device memory limit (ZGPU_GPU_MEMORY_LIMIT) far below the vectors' bytes.
TEST_P(NtlDivision, ManyChunksUnderTheDeviceMemoryLimit)
{
    setenv("ZGPU_GPU_MEMORY_LIMIT", "65536", 1);
    NTL::SetSeed(NTL::ZZ(11));
    const long n = 4001;
    const NTL::ZZ b = -((NTL::ZZ(1) << 128) - 1);  // all-ones limbs, negative
    NTL::Vec<NTL::ZZ> a = random_vector(n, 500), eq, er, q, r;
    eq.SetLength(n);
    er.SetLength(n);
    for (long i = 0; i < n; ++i) NTL::DivRem(eq[i], er[i], a[i], b);
    zgpu::DivRem(q, r, a, b);
    EXPECT_TRUE(q == eq && r == er);
    NTL::Vec<NTL::ZZ> products = eq;
    for (long i = 0; i < n; ++i) products[i] *= b;
    products[n - 3] += 1;  // inexact in the last chunk: q left alone
    NTL::Vec<NTL::ZZ> before = q;
    EXPECT_FALSE(zgpu::divide(q, products, b));
    EXPECT_EQ(q, before);
    products[n - 3] -= 1;
    EXPECT_TRUE(zgpu::divide(products, products, b));  // q == a
    EXPECT_EQ(products, eq);
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlDivision, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
