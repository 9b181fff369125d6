// poly_mul on residue batches against FLINT's products modulo each modulus, on each backend:
// lengths 0 to 1000 (2^20 times 1 on the GPU), aliasing, operands that do not match, and a
// chain of products and sums over Z reconstructed once.
#include <string>
#include <utility>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/nmod.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_values.hpp"
#include "residue_fixture.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/error.hpp"
#include "zgpu/residue_poly.hpp"

namespace zgpu::testing {
namespace {

class ResiduePolys : public OnBackendWithResidues {
protected:
    // FLINT's a * b modulo each modulus, of la + lb - 1 coefficients (none where either is empty).
    static Residues flint_products(const PrimeSet& set, const Residues& a, const Residues& b)
    {
        Residues r(set.size());
        for (std::size_t i = 0; i < set.size(); ++i) {
            const std::size_t la = a[i].size(), lb = b[i].size();
            if (!la || !lb) continue;
            r[i].resize(la + lb - 1);
            nmod_t mod;
            nmod_init(&mod, set.moduli()[i]);
            if (la >= lb) _nmod_poly_mul(r[i].data(), a[i].data(), slong(la), b[i].data(), slong(lb), mod);
            else _nmod_poly_mul(r[i].data(), b[i].data(), slong(lb), a[i].data(), slong(la), mod);
        }
        return r;
    }

    std::vector<PrimeSet> sets() const
    {
        std::vector<PrimeSet> s = {PrimeSet::generated(1), PrimeSet::generated(3)};
        if (GetParam() == Backend::cpu) {  // the GPU takes NTT primes only
            const limb_t moduli[] = {2, 3, ~limb_t(0) - 58};
            s.emplace_back(moduli);
        }
        return s;
    }
};

TEST_P(ResiduePolys, ProductsMatchFlintModuloEachModulus)
{
    const std::size_t lengths[] = {0, 1, 2, 17, 256, 1000};
    for (const PrimeSet& set : sets())
        for (const std::size_t la : lengths)
            for (const std::size_t lb : lengths) {
                const Residues a = random_residues(set, la), b = random_residues(set, lb);
                const ResidueBatch ra = upload(set, a), rb = upload(set, b);
                ResidueBatch r(set, 5, GetParam());
                poly_mul(r, ra, rb);
                const std::string what = std::to_string(la) + " x " + std::to_string(lb) + " modulo " +
                                         std::to_string(set.size()) + " moduli";
                EXPECT_EQ(r.count(), la && lb ? la + lb - 1 : 0) << what;
                EXPECT_EQ(r.backend(), GetParam());
                EXPECT_EQ(download(r), flint_products(set, a, b)) << what;
            }
}

TEST_P(ResiduePolys, ResultMayBeAnOperand)
{
    const PrimeSet set = PrimeSet::generated(2);
    const Residues a = random_residues(set, 40), b = random_residues(set, 25);
    ResidueBatch ra = upload(set, a), rb = upload(set, b);
    poly_mul(ra, ra, rb);  // r == a
    EXPECT_EQ(download(ra), flint_products(set, a, b));
    ra = upload(set, a);
    poly_mul(rb, ra, rb);  // r == b
    EXPECT_EQ(download(rb), flint_products(set, a, b));
    poly_mul(ra, ra, ra);  // all one: a square
    EXPECT_EQ(download(ra), flint_products(set, a, a));
}

TEST_P(ResiduePolys, UnbalancedLengths)
{
    const std::size_t longest = GetParam() == Backend::gpu ? std::size_t(1) << 20 : std::size_t(1) << 14;
    const PrimeSet set = PrimeSet::generated(2);
    const Residues a = random_residues(set, longest), b = random_residues(set, 1);
    ResidueBatch r(set, 0, GetParam());
    poly_mul(r, upload(set, a), upload(set, b));
    EXPECT_EQ(download(r), flint_products(set, a, b));
    poly_mul(r, upload(set, b), upload(set, a));
    EXPECT_EQ(download(r), flint_products(set, b, a));
}

// The device-resident chain the residues are for: a b + c d - a over Z from one reduction of
// each operand, products and sums on the residues, and one CRT, against FLINT's fmpz_poly.
TEST_P(ResiduePolys, AChainOfProductsAndSumsReconstructsOnce)
{
    const slong la = 300, lb = 501, lc = 700, ld = 101;  // la + lb = lc + ld
    const flint_bitcnt_t bits = 200;
    FmpzPoly a, b, c, d, ab, cd, expected;
    for (auto& [p, len] : {std::pair{&a, la}, std::pair{&b, lb}, std::pair{&c, lc}, std::pair{&d, ld}}) {
        fmpz_poly_randtest(p->p, state_, len, bits);
        fmpz_poly_set_coeff_si(p->p, len - 1, -1);  // the length as given
    }
    fmpz_poly_mul(ab.p, a.p, b.p);
    fmpz_poly_mul(cd.p, c.p, d.p);
    fmpz_poly_add(expected.p, ab.p, cd.p);
    fmpz_poly_sub(expected.p, expected.p, a.p);
    // |each coefficient| <= 2 min(la, lb) 2^(2 bits) + 2^bits < 2^(2 bits + 11): the set's
    // symmetric range holds it.
    const PrimeSet set = PrimeSet::for_bits(2 * bits + 11, true);
    const auto residues = [&](const fmpz_poly_struct* p, std::size_t count) {
        // p's coefficients read in place (shallow copies), zeros beyond its length.
        std::vector<fmpz> padded(count);
        for (std::size_t i = 0; i < std::size_t(p->length); ++i) padded[i] = p->coeffs[i];
        const DeviceBatch x = DeviceBatch::upload(adapters::pack_fmpz_vec(padded.data(), count).view(), GetParam());
        ResidueBatch r(set, 0, GetParam());
        reduce(r, x, set);
        return r;
    };
    const std::size_t n = std::size_t(la + lb - 1);
    const ResidueBatch ra = residues(a.p, std::size_t(la)), rb = residues(b.p, std::size_t(lb));
    const ResidueBatch rc = residues(c.p, std::size_t(lc)), rd = residues(d.p, std::size_t(ld));
    const ResidueBatch ra_long = residues(a.p, n);  // a with zeros on top, for the difference
    ResidueBatch rab(set, 0, GetParam()), rcd(set, 0, GetParam());
    poly_mul(rab, ra, rb);
    poly_mul(rcd, rc, rd);
    ASSERT_EQ(rab.count(), n);
    ASSERT_EQ(rcd.count(), n);
    add(rab, rab, rcd);
    sub(rab, rab, ra_long);
    DeviceBatch values;
    crt(values, rab, true);
    FmpzPoly ours;
    fmpz_poly_fit_length(ours.p, slong(n));
    adapters::unpack_fmpz_vec(values.download().view(), ours.p->coeffs);
    _fmpz_poly_set_length(ours.p, slong(n));
    _fmpz_poly_normalise(ours.p);
    EXPECT_TRUE(fmpz_poly_equal(ours.p, expected.p));
}

TEST_P(ResiduePolys, OperandsOfOtherModuliOrBackendsAreErrors)
{
    const PrimeSet two = PrimeSet::generated(2), three = PrimeSet::generated(3);
    const ResidueBatch a = upload(two, random_residues(two, 10)), c = upload(three, random_residues(three, 10));
    ResidueBatch r = upload(two, random_residues(two, 4));
    const Residues before = download(r);
    EXPECT_THROW(poly_mul(r, a, c), Error);
    EXPECT_EQ(download(r), before);
    if (GetParam() == Backend::gpu) {
        const ResidueBatch on_cpu(two, 10, Backend::cpu);
        EXPECT_THROW(poly_mul(r, a, on_cpu), Error);
        EXPECT_EQ(download(r), before);
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, ResiduePolys, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
