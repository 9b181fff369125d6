// ResidueBatch on each backend against FLINT: transfers in both layouts, reduction of a
// DeviceBatch, CRT back (signed, unsigned, checked) and arithmetic modulo each modulus.
#include <functional>
#include <string>
#include <vector>

#include <flint/fmpz_vec.h>
#include <flint/nmod_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/residue_matrix.hpp"
#include "zgpu/residue_poly.hpp"

namespace zgpu::testing {
namespace {

class ResidueBatches : public OnBackendWithFlint {
protected:
    Backend where() const { return GetParam(); }

    // FLINT's residues of x, one array a modulus.
    static std::vector<std::vector<ulong>> flint_residues(const PrimeSet& set, const fmpz* x, std::size_t n)
    {
        std::vector<std::vector<ulong>> r(set.size(), std::vector<ulong>(n));
        fmpz_comb_t comb;
        fmpz_comb_temp_t temp;
        fmpz_comb_init(comb, set.moduli().data(), slong(set.size()));
        fmpz_comb_temp_init(temp, comb);
        std::vector<ulong> one(set.size());
        for (std::size_t e = 0; e < n; ++e) {
            fmpz_multi_mod_ui(one.data(), x + e, comb, temp);
            for (std::size_t i = 0; i < set.size(); ++i) r[i][e] = one[i];
        }
        fmpz_comb_temp_clear(temp);
        fmpz_comb_clear(comb);
        return r;
    }

    static std::vector<const ulong*> pointers(const std::vector<std::vector<ulong>>& r)
    {
        std::vector<const ulong*> p;
        for (const auto& v : r) p.push_back(v.data());
        return p;
    }

    static std::vector<std::vector<ulong>> download(const ResidueBatch& b)
    {
        std::vector<std::vector<ulong>> r(b.prime_set().size(), std::vector<ulong>(b.count()));
        std::vector<ulong*> p;
        for (auto& v : r) p.push_back(v.data());
        b.download(p.data());
        return r;
    }
};

TEST_P(ResidueBatches, ReduceAndCrtMatchFlint)
{
    for (const std::size_t k : {std::size_t(1), std::size_t(3), std::size_t(70), std::size_t(300)}) {
        const PrimeSet set = PrimeSet::generated(k);
        for (const slong n : {slong(0), slong(1), slong(33), slong(1000)}) {
            Vec x(n), back(n);
            // Values within the symmetric range of P, so that the CRT returns them.
            _fmpz_vec_randtest(x.v, state_, n, std::max<flint_bitcnt_t>(1, set.product_bits() - 2));
            const DeviceBatch batch = DeviceBatch::upload(adapters::pack_fmpz_vec(x.v, std::size_t(n)).view(), where());
            ResidueBatch r(set, 0, where());
            reduce(r, batch, set);
            ASSERT_EQ(r.count(), std::size_t(n));
            EXPECT_EQ(r.prime_stride() % 32, 0u);
            EXPECT_EQ(download(r), flint_residues(set, x.v, std::size_t(n))) << k << " moduli, " << n << " values";

            DeviceBatch signed_values, unsigned_values;
            crt(signed_values, r, true);
            adapters::unpack_fmpz_vec(signed_values.download().view(), back.v);
            EXPECT_TRUE(_fmpz_vec_equal(back.v, x.v, n)) << k << " moduli, " << n << " values, signed";
            crt(unsigned_values, r, false);
            adapters::unpack_fmpz_vec(unsigned_values.download().view(), back.v);
            for (slong e = 0; e < n; ++e) {
                FmpzTemp expected;
                fmpz_mod(expected.get(), x.v + e, set.product());
                ASSERT_TRUE(fmpz_equal(back.v + e, expected.get())) << e;
            }
        }
    }
}

TEST_P(ResidueBatches, TransfersInBothLayoutsAndBadResidues)
{
    const PrimeSet set(std::vector<limb_t>{~limb_t(0), 2, 7});
    const std::size_t n = 45;
    std::vector<std::vector<ulong>> r(3, std::vector<ulong>(n));
    std::vector<ulong> interleaved(3 * n);
    for (std::size_t e = 0; e < n; ++e)
        for (std::size_t i = 0; i < 3; ++i) interleaved[e * 3 + i] = r[i][e] = (e * 0x9e3779b97f4a7c15u + i) % set.moduli()[i];
    const ResidueBatch a = ResidueBatch::upload(set, pointers(r).data(), n, where());
    EXPECT_EQ(download(a), r);
    const ResidueBatch b = ResidueBatch::upload_interleaved(set, interleaved.data(), n, where());
    std::vector<ulong> back(3 * n);
    b.download_interleaved(back.data());
    EXPECT_EQ(back, interleaved);
    EXPECT_EQ(download(b), r);

    r[2][40] = 7;
    try {
        ResidueBatch::upload(set, pointers(r).data(), n, where());
        ADD_FAILURE() << "a residue equal to its modulus was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("residues[2][40] = 7 is not below its modulus 7"), std::string::npos) << e.what();
    }
    interleaved[3 * 5 + 1] = 2;
    EXPECT_THROW(ResidueBatch::upload_interleaved(set, interleaved.data(), n, where()), Error);
}

// Enough values that each modulus's residues cross straight from and to the caller's arrays,
// and more than one 32 x 32 tile of the device's transposes both ways (37 moduli, 2^15 + 5 values).
TEST_P(ResidueBatches, LargeTransfersInBothLayouts)
{
    const PrimeSet set = PrimeSet::generated(37);
    const std::size_t n = (std::size_t(1) << 15) + 5, k = set.size();
    std::vector<std::vector<ulong>> r(k, std::vector<ulong>(n));
    std::vector<ulong> interleaved(k * n);
    for (std::size_t e = 0; e < n; ++e)
        for (std::size_t i = 0; i < k; ++i) interleaved[e * k + i] = r[i][e] = (e * 0x9e3779b97f4a7c15u + i * 0x51ed27u) % set.moduli()[i];
    const ResidueBatch a = ResidueBatch::upload(set, pointers(r).data(), n, where());
    EXPECT_EQ(download(a), r);
    std::vector<ulong> back(k * n);
    a.download_interleaved(back.data());
    EXPECT_EQ(back, interleaved);
    const ResidueBatch b = ResidueBatch::upload_interleaved(set, interleaved.data(), n, where());
    EXPECT_EQ(download(b), r);
}

TEST_P(ResidueBatches, ArithmeticMatchesNmodVec)
{
    const PrimeSet set(std::vector<limb_t>{~limb_t(0), (limb_t(1) << 62) - 57, 4, 1000003});
    const std::size_t n = 1037, k = set.size();
    std::vector<std::vector<ulong>> x(k, std::vector<ulong>(n)), y = x;
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t e = 0; e < n; ++e) {
            x[i][e] = n_randtest(state_) % set.moduli()[i];
            y[i][e] = e % 5 == 0 ? set.moduli()[i] - 1 : n_randtest(state_) % set.moduli()[i];
        }
    const ResidueBatch a = ResidueBatch::upload(set, pointers(x).data(), n, where());
    const ResidueBatch b = ResidueBatch::upload(set, pointers(y).data(), n, where());
    std::vector<limb_t> c(k);
    for (std::size_t i = 0; i < k; ++i) c[i] = set.moduli()[i] - 1 - i;
    ResidueBatch r(set, 0, where());
    for (int op = 0; op < 6; ++op) {
        std::vector<std::vector<ulong>> expected = y;
        for (std::size_t i = 0; i < k; ++i) {
            nmod_t mod;
            nmod_init(&mod, set.moduli()[i]);
            ulong* out = expected[i].data();
            const ulong *u = x[i].data(), *v = y[i].data();
            switch (op) {
            case 0: _nmod_vec_add(out, u, v, slong(n), mod); break;
            case 1: _nmod_vec_sub(out, u, v, slong(n), mod); break;
            case 2: for (std::size_t e = 0; e < n; ++e) out[e] = nmod_mul(u[e], v[e], mod); break;
            case 3: _nmod_vec_neg(out, u, slong(n), mod); break;
            case 4: _nmod_vec_scalar_mul_nmod(out, u, slong(n), c[i], mod); break;
            case 5: _nmod_vec_scalar_addmul_nmod(out, u, slong(n), c[i], mod); break;
            }
        }
        switch (op) {
        case 0: add(r, a, b); break;
        case 1: sub(r, a, b); break;
        case 2: mul(r, a, b); break;
        case 3: neg(r, a); break;
        case 4: scalar_mul(r, a, c); break;
        case 5:
            r = ResidueBatch::upload(set, pointers(y).data(), n, where());
            scalar_addmul(r, a, c);
            break;
        }
        EXPECT_EQ(download(r), expected) << "operation " << op;
    }
    // In place: r == a.
    ResidueBatch s = ResidueBatch::upload(set, pointers(x).data(), n, where());
    add(s, s, b);
    add(r, a, b);
    EXPECT_EQ(download(s), download(r));
}

TEST_P(ResidueBatches, MismatchesAndSmallProductsAreErrors)
{
    const PrimeSet set = PrimeSet::generated(2), other = PrimeSet::generated(3);
    ResidueBatch a(set, 10, where()), b(other, 10, where()), c(set, 11, where()), r(set, 0, where());
    EXPECT_THROW(add(r, a, b), Error);
    EXPECT_THROW(sub(r, a, c), Error);
    const std::vector<limb_t> big{set.moduli()[0], 0};
    EXPECT_THROW(scalar_mul(r, a, big), Error);
    EXPECT_THROW(scalar_mul(r, a, std::vector<limb_t>{1}), Error);
    // P of 124 bits: signed values up to 2^122 fit, 2^123 does not.
    DeviceBatch x(where(), 1, 1);
    FmpzTemp bound;
    fmpz_one(bound.get());
    fmpz_mul_2exp(bound.get(), bound.get(), 122);
    crt_checked(x, a, true, bound.get());
    EXPECT_EQ(x.count(), 10u);
    fmpz_mul_2exp(bound.get(), bound.get(), 1);
    DeviceBatch untouched(where(), 3, 1);
    EXPECT_THROW(crt_checked(untouched, a, true, bound.get()), Error);
    EXPECT_EQ(untouched.count(), 3u);
    crt_checked(untouched, a, false, bound.get());
}

// Each operation records the backend it ran on, as every other operation of zgpu does: its
// batches' (the host's where the result is empty).
TEST_P(ResidueBatches, OperationsRecordTheirBackend)
{
    const PrimeSet set = PrimeSet::generated(3);
    const std::vector<std::vector<ulong>> x(3, std::vector<ulong>(4, 2));
    const ResidueBatch a = ResidueBatch::upload(set, pointers(x).data(), 4, where());
    ResidueBatch r(set, 0, where());
    std::vector<ulong> det(3);
    const std::vector<limb_t> c(3, 1);
    const std::vector<std::function<void()>> operations = {
        [&] { add(r, a, a); },
        [&] { sub(r, a, a); },
        [&] { mul(r, a, a); },
        [&] { neg(r, a); },
        [&] { scalar_mul(r, a, c); },
        [&] { poly_mul(r, a, a); },
        [&] { mat_mul(r, a, a, 2, 2, 2); },
        [&] { mat_det(det, a, 2); },
    };
    for (std::size_t i = 0; i < operations.size(); ++i) {
        set_last_backend(Backend::none);
        operations[i]();
        EXPECT_EQ(last_backend(), where()) << "operation " << i;
    }
    set_last_backend(Backend::none);
    mat_det(det, ResidueBatch(set, 0, where()), 0);
    EXPECT_EQ(last_backend(), Backend::cpu) << "the empty matrix";
    DeviceBatch values(where(), 0, 1);
    set_last_backend(Backend::none);
    crt(values, a, true);
    EXPECT_EQ(last_backend(), where()) << "crt";
    set_last_backend(Backend::none);
    reduce(r, values, set);
    EXPECT_EQ(last_backend(), where()) << "reduce";
}

INSTANTIATE_TEST_SUITE_P(Backends, ResidueBatches, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
