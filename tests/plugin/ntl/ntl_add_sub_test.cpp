// zgpu::add/sub on NTL Vec<ZZ> and ZZX against NTL, on each backend.
#include <string>

#include <NTL/ZZX.h>
#include <NTL/mat_ZZ.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"

namespace zgpu::testing {
namespace {

class NtlEntryPoints : public OnBackend {
protected:
    NTL::ZZ random_zz(long max_bits)
    {
        NTL::ZZ z = NTL::RandomBits_ZZ(NTL::RandomBnd(max_bits + 1));
        if (NTL::RandomBnd(2)) NTL::negate(z, z);
        if (NTL::RandomBnd(10) == 0) z = NTL::power2_ZZ(64 * NTL::RandomBnd(40)) - 1;  // all-ones limbs
        return z;
    }
    NTL::Vec<NTL::ZZ> random_vec(long n, long max_bits)
    {
        NTL::Vec<NTL::ZZ> v;
        v.SetLength(n);
        for (long i = 0; i < n; ++i) v[i] = random_zz(max_bits);
        return v;
    }
};

TEST_P(NtlEntryPoints, VecAddSubMatchNtlWithAliasing)
{
    NTL::SetSeed(NTL::ZZ(1));
    for (const long n : {0L, 1L, 31L, 33L, 20000L}) {
        const NTL::Vec<NTL::ZZ> a = random_vec(n, 3000), b = random_vec(n, 3000);
        NTL::Vec<NTL::ZZ> sum, difference, x;
        NTL::add(sum, a, b);
        NTL::sub(difference, a, b);
        x = random_vec(7, 100);
        zgpu::add(x, a, b);
        EXPECT_EQ(x, sum) << n << " entries";
        zgpu::sub(x, a, b);
        EXPECT_EQ(x, difference) << n << " entries";
        x = a;
        zgpu::add(x, x, b);
        EXPECT_EQ(x, sum) << "x == a";
        x = b;
        zgpu::sub(x, a, x);
        EXPECT_EQ(x, difference) << "x == b";
        x = a;
        zgpu::sub(x, x, x);
        for (long i = 0; i < n; ++i) ASSERT_TRUE(NTL::IsZero(x[i]));
    }
}

TEST_P(NtlEntryPoints, ZZXAddSubMatchNtlWithAliasing)
{
    NTL::SetSeed(NTL::ZZ(2));
    for (int trial = 0; trial < 100; ++trial) {
        NTL::ZZX a, b;
        a.rep = random_vec(NTL::RandomBnd(200), 500);
        a.normalize();
        b.rep = random_vec(NTL::RandomBnd(200), 500);
        b.normalize();
        if (trial % 4 == 0) b = -a;
        if (trial % 4 == 1) b = a + 1;  // leading terms cancel in a - b
        NTL::ZZX expected_sum = a + b, expected_difference = a - b, x;
        zgpu::add(x, a, b);
        ASSERT_EQ(x, expected_sum) << "trial " << trial;
        zgpu::sub(x, a, b);
        ASSERT_EQ(x, expected_difference) << "trial " << trial;
        x = a;
        zgpu::sub(x, x, b);
        ASSERT_EQ(x, expected_difference) << "trial " << trial << ", x == a";
        x = b;
        zgpu::add(x, a, x);
        ASSERT_EQ(x, expected_sum) << "trial " << trial << ", x == b";
    }
}

TEST_P(NtlEntryPoints, LengthMismatchThrowsAndLeavesXAlone)
{
    const NTL::Vec<NTL::ZZ> a = random_vec(3, 100), b = random_vec(4, 100);
    NTL::Vec<NTL::ZZ> x = random_vec(5, 100);
    const NTL::Vec<NTL::ZZ> before = x;
    try {
        zgpu::add(x, a, b);
        FAIL() << "adding vectors of lengths 3 and 4 did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("lengths differ"), std::string::npos) << e.what();
    }
    EXPECT_EQ(x, before);
}

TEST_P(NtlEntryPoints, RowsOfAMatrixAreOutputsOfFixedLength)
{
    NTL::Mat<NTL::ZZ> m;
    m.SetDims(2, 3);
    const NTL::Vec<NTL::ZZ> a = random_vec(3, 3000), b = random_vec(3, 3000), longer = random_vec(4, 10);
    zgpu::add(m[0], a, b);
    EXPECT_EQ(m[0], a + b);
    zgpu::mul(m[1], a, b[0]);
    EXPECT_EQ(m[1], a * b[0]);
    const NTL::Vec<NTL::ZZ> row = m[0];
    EXPECT_THROW(zgpu::sub(m[0], longer, longer), Error) << "a fixed length of 3 cannot take 4 entries";
    EXPECT_THROW(zgpu::mul(m[0], longer, longer), Error);
    EXPECT_EQ(m[0], row) << "nothing written";
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
