// NTL's Vec<ZZ> and ZZX to and from residue arrays, against NTL's own remainders and FLINT's
// symmetric range, on each backend.
#include <string>
#include <vector>

#include <NTL/ZZ.h>
#include <NTL/ZZX.h>
#include <gtest/gtest.h>

#include "backend_env.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_modular.hpp"

namespace zgpu::testing {
namespace {

class NtlModular : public OnBackend {};

std::vector<ulong*> rows(std::vector<std::vector<ulong>>& words)
{
    std::vector<ulong*> p;
    for (auto& w : words) p.push_back(w.data());
    return p;
}

NTL::ZZ zz(ulong v)
{
    NTL::ZZ z;
    NTL::conv(z, v);
    return z;
}

TEST_P(NtlModular, VectorsAndPolynomialsRoundTrip)
{
    NTL::SetSeed(NTL::ZZ(19));
    for (const std::size_t k : {std::size_t(1), std::size_t(3), std::size_t(40)}) {
        const PrimeSet set = PrimeSet::generated(k);
        NTL::ZZ p(1);
        for (const limb_t n : set.moduli()) p *= zz(n);
        for (const long n : {0L, 1L, 37L, 3000L}) {
            NTL::Vec<NTL::ZZ> a;
            a.SetLength(n);
            for (long e = 0; e < n; ++e) {
                a[e] = NTL::RandomBnd(p / 2);
                if (e % 3 == 1) NTL::negate(a[e], a[e]);
            }
            std::vector<std::vector<ulong>> words(k, std::vector<ulong>(std::size_t(n)));
            zgpu::multi_mod(rows(words).data(), a, set);
            for (long e = 0; e < n; ++e)
                for (std::size_t i = 0; i < k; ++i)
                    ASSERT_EQ(zz(words[i][std::size_t(e)]), a[e] % zz(set.moduli()[i])) << e << ", modulus " << i;
            NTL::Vec<NTL::ZZ> back;
            const std::vector<ulong*> r = rows(words);
            zgpu::multi_crt(back, r.data(), n, set, true);
            EXPECT_EQ(back, a) << k << " moduli, " << n << " values";
            zgpu::multi_crt(back, r.data(), n, set, false);
            for (long e = 0; e < n; ++e) ASSERT_EQ(back[e], a[e] < 0 ? a[e] + p : a[e]) << e;

            NTL::ZZX f;
            f.rep = a;
            f.normalize();
            zgpu::multi_mod(rows(words).data(), f, set);
            NTL::ZZX g;
            zgpu::multi_crt(g, r.data(), f.rep.length(), set, true);
            EXPECT_EQ(g, f);
        }
    }
}

TEST_P(NtlModular, BadInputLeavesTheOutputUntouched)
{
    const PrimeSet set(std::vector<limb_t>{11, 13});
    std::vector<std::vector<ulong>> words{{1, 2, 11}, {0, 0, 0}};
    NTL::Vec<NTL::ZZ> x;
    x.SetLength(2);
    x[0] = 5;
    const std::vector<ulong*> r = rows(words);
    EXPECT_THROW(zgpu::multi_crt(x, r.data(), 3, set, true), Error);
    EXPECT_THROW(zgpu::multi_crt(x, r.data(), -1, set, true), Error);
    EXPECT_EQ(x.length(), 2);
    EXPECT_EQ(x[0], 5);
    zgpu::multi_crt(x, r.data(), 2, set, true);
    EXPECT_EQ(x[1], 13);  // 2 mod 11, 0 mod 13
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlModular, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
