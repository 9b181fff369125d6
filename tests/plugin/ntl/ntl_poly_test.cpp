// zgpu::mul and sqr on NTL ZZX and zz_pX against NTL's, on each backend: lengths around
// powers of two, coefficient bits from 1 to 2^16, signs, zero polynomials, every coefficient at
// the maximum, aliasing, a zz_p modulus missing.
#include <string>
#include <vector>

#include <NTL/ZZX.h>
#include <NTL/lzz_pX.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "zgpu/ntl_poly.hpp"

namespace zgpu::testing {
namespace {

const long kLengths[] = {0, 1, 2, 3, 15, 16, 17, 255, 256, 257};

class NtlPolys : public OnBackend {
protected:
    void SetUp() override
    {
        OnBackend::SetUp();
        NTL::SetSeed(NTL::ZZ(7));
    }

    // The backend of a product: NTL's for zero products.
    const char* expected_backend(bool nonzero) const { return GetParam() == Backend::gpu && nonzero ? "gpu" : "cpu"; }

    static NTL::ZZX random_zzx(long length, long bits)
    {
        NTL::ZZX a;
        for (long i = 0; i < length; ++i) {
            NTL::ZZ c = NTL::RandomBits_ZZ(bits);
            if (NTL::RandomBnd(2)) NTL::negate(c, c);
            NTL::SetCoeff(a, i, c);
        }
        return a;
    }

    // Every coefficient sign * (2^bits - 1).
    static NTL::ZZX top_zzx(long length, long bits, long sign)
    {
        NTL::ZZX a;
        for (long i = 0; i < length; ++i) NTL::SetCoeff(a, i, sign * (NTL::power2_ZZ(bits) - 1));
        return a;
    }

    void expect_mul(const NTL::ZZX& a, const NTL::ZZX& b, const std::string& what)
    {
        NTL::ZZX ours = random_zzx(3, 10), theirs;
        NTL::mul(theirs, a, b);
        zgpu::mul(ours, a, b);
        EXPECT_EQ(ours, theirs) << what;
        EXPECT_EQ(last_backend(), GetParam() == Backend::gpu && !NTL::IsZero(a) && !NTL::IsZero(b) ? Backend::gpu : Backend::cpu)
            << what;
        NTL::sqr(theirs, a);
        zgpu::sqr(ours, a);
        EXPECT_EQ(ours, theirs) << "square, " << what;
    }
};

TEST_P(NtlPolys, ZZXProductsMatchNtl)
{
    for (const long bits : {1L, 64L, 1000L})
        for (const long la : kLengths)
            for (const long lb : {0L, 1L, 2L, 17L, la})
                expect_mul(random_zzx(la, bits), random_zzx(lb, bits),
                           std::to_string(la) + " x " + std::to_string(lb) + ", " + std::to_string(bits) + " bits");
}

TEST_P(NtlPolys, ZZXCoefficientsUpTo65536BitsAndAtTheMaximum)
{
    std::vector<long> lengths = {1, 2, 17};
    if (GetParam() == Backend::gpu) lengths.insert(lengths.end(), {255, 4097});
    for (const long bits : {2L, 64L, 4096L, 65536L})
        for (const long len : lengths) {
            if (len > 255 && bits > 64) continue;
            const std::string what = "length " + std::to_string(len) + ", " + std::to_string(bits) + " bits";
            expect_mul(random_zzx(len, bits), random_zzx(len + 2, bits / 2 + 1), "random, " + what);
            expect_mul(top_zzx(len, bits, 1), top_zzx(len, bits, 1), "+ maximum, " + what);
            expect_mul(top_zzx(len, bits, -1), top_zzx(len, bits, 1), "-+ maximum, " + what);
        }
    if (GetParam() == Backend::gpu) expect_mul(random_zzx(1 << 20, 64), top_zzx(1, 100, -1), "2^20 x 1");
}

TEST_P(NtlPolys, ZZXAliasing)
{
    for (const long len : {1L, 2L, 33L, 1000L}) {
        const NTL::ZZX a = random_zzx(len, 200), b = random_zzx(len + 3, 100);
        NTL::ZZX theirs, x;
        NTL::mul(theirs, a, b);
        x = a;
        zgpu::mul(x, x, b);  // x == a
        EXPECT_EQ(x, theirs) << "x == a, length " << len;
        x = b;
        zgpu::mul(x, a, x);  // x == b
        EXPECT_EQ(x, theirs) << "x == b, length " << len;
        NTL::sqr(theirs, a);
        x = a;
        zgpu::mul(x, x, x);  // all one
        EXPECT_EQ(x, theirs) << "x == a == b, length " << len;
        x = a;
        zgpu::sqr(x, x);
        EXPECT_EQ(x, theirs) << "sqr, x == a, length " << len;
    }
}

// The zz_p moduli: 2, 3, one of NTL's FFT primes and the largest prime NTL's zz_p takes.
std::vector<long> zz_p_moduli()
{
    NTL::zz_pPush push;
    NTL::zz_p::FFTInit(0);
    return {2, 3, NTL::zz_p::modulus(), NTL::GenPrime_long(NTL_SP_NBITS)};
}

TEST_P(NtlPolys, ZzpXProductsMatchNtl)
{
    for (const long p : zz_p_moduli()) {
        NTL::zz_pPush push(p);
        for (const long la : kLengths)
            for (const long lb : {0L, 1L, 2L, 17L, la}) {
                const std::string what = std::to_string(la) + " x " + std::to_string(lb) + " mod " + std::to_string(p);
                NTL::zz_pX a = NTL::random_zz_pX(la), b = NTL::random_zz_pX(lb), ours = NTL::random_zz_pX(4), theirs;
                NTL::mul(theirs, a, b);
                zgpu::mul(ours, a, b);
                EXPECT_EQ(ours, theirs) << what;
                EXPECT_EQ(last_backend(), GetParam() == Backend::gpu && !NTL::IsZero(a) && !NTL::IsZero(b) ? Backend::gpu
                                                                                                            : Backend::cpu)
                    << what;
                NTL::sqr(theirs, a);
                zgpu::sqr(ours, a);
                EXPECT_EQ(ours, theirs) << "square, " << what;
                // Every coefficient p - 1.
                for (long i = 0; i < la; ++i) a[i] = -1;
                NTL::mul(theirs, a, a);
                zgpu::mul(ours, a, a);
                EXPECT_EQ(ours, theirs) << "maximum, " << what;
            }
    }
}

TEST_P(NtlPolys, ZzpXAliasing)
{
    NTL::zz_pPush push(NTL::GenPrime_long(NTL_SP_NBITS));
    for (const long len : {1L, 2L, 33L, 1000L}) {
        const NTL::zz_pX a = NTL::random_zz_pX(len), b = NTL::random_zz_pX(len + 3);
        NTL::zz_pX theirs, x;
        NTL::mul(theirs, a, b);
        x = a;
        zgpu::mul(x, x, b);
        EXPECT_EQ(x, theirs) << "x == a, length " << len;
        x = b;
        zgpu::mul(x, a, x);
        EXPECT_EQ(x, theirs) << "x == b, length " << len;
        NTL::sqr(theirs, a);
        x = a;
        zgpu::sqr(x, x);
        EXPECT_EQ(x, theirs) << "sqr, x == a, length " << len;
    }
}

TEST_P(NtlPolys, ZzpXWithoutAModulusIsAnError)
{
    NTL::zz_pPush push(7);
    const NTL::zz_pX a = NTL::random_zz_pX(5);
    NTL::zz_pX x = a;
    NTL::zz_pInfoT* const saved = NTL::zz_pInfo;
    NTL::zz_pInfo = nullptr;  // as before any zz_p::init
    EXPECT_THROW(zgpu::mul(x, a, a), Error);
    EXPECT_THROW(zgpu::sqr(x, a), Error);
    NTL::zz_pInfo = saved;
    EXPECT_EQ(x, a);
}

TEST_P(NtlPolys, ResultantMatchesNtl)
{
    for (const long la : {0, 1, 2, 17, 60})
        for (const long lb : {0, 1, 5, 40})
            for (const long bits : {1, 64, 200}) {
                NTL::ZZX a, b;
                for (long i = 0; i < la; ++i) NTL::SetCoeff(a, i, NTL::RandomBits_ZZ(bits) * (NTL::RandomBnd(2) ? 1 : -1));
                for (long i = 0; i < lb; ++i) NTL::SetCoeff(b, i, NTL::RandomBits_ZZ(bits) * (NTL::RandomBnd(2) ? 1 : -1));
                NTL::ZZ ours(12345), theirs;
                NTL::resultant(theirs, a, b, 1);
                zgpu::resultant(ours, a, b);
                EXPECT_EQ(ours, theirs) << "lengths " << la << " and " << lb << ", " << bits << " bits";
            }
    NTL::ZZX a, b;
    for (long i = 0; i < 12; ++i) NTL::SetCoeff(a, i, NTL::ZZ(i + 1));
    b = a * a;  // a common factor
    NTL::ZZ r(7);
    zgpu::resultant(r, a, b);
    EXPECT_EQ(r, NTL::ZZ(0));
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlPolys, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
