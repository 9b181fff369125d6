// zgpu_fmpz_vec_multi_mod_ui / _multi_CRT_ui and their fmpz_poly and fmpz_mat forms against
// FLINT's fmpz_multi_mod_ui and fmpz_multi_CRT_ui, on each backend.
#include <string>
#include <vector>

#include <gmp.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

// A C prime set that clears itself.
struct CSet {
    zgpu_prime_set_t set;
    CSet(const std::vector<ulong>& moduli) { EXPECT_EQ(zgpu_prime_set_init(set, moduli.data(), slong(moduli.size())), 0) << zgpu_last_error(); }
    explicit CSet(slong k) { EXPECT_EQ(zgpu_prime_set_init_ntt_primes(set, k), 0) << zgpu_last_error(); }
    ~CSet() { zgpu_prime_set_clear(set); }
    slong k() const { return zgpu_prime_set_size(set); }
    std::vector<ulong> moduli() const { return {zgpu_prime_set_moduli(set), zgpu_prime_set_moduli(set) + k()}; }
};

// Residue arrays, one a modulus.
struct Residues {
    Residues(slong k, slong n) : words(std::size_t(k), std::vector<ulong>(std::size_t(n), ~ulong(0)))
    {
        for (auto& w : words) rows.push_back(w.data());
    }
    std::vector<std::vector<ulong>> words;
    std::vector<ulong*> rows;
    ulong* const* out() { return rows.data(); }
    const ulong* const* in() const { return const_cast<const ulong* const*>(rows.data()); }
};

// FLINT's reference, element by element, with its own comb.
struct Flint {
    explicit Flint(const std::vector<ulong>& moduli) : moduli(moduli)
    {
        fmpz_comb_init(comb, this->moduli.data(), slong(moduli.size()));
        fmpz_comb_temp_init(temp, comb);
    }
    ~Flint()
    {
        fmpz_comb_temp_clear(temp);
        fmpz_comb_clear(comb);
    }
    Residues mod(const fmpz* x, slong n)
    {
        Residues r(slong(moduli.size()), n);
        std::vector<ulong> one(moduli.size());
        for (slong e = 0; e < n; ++e) {
            fmpz_multi_mod_ui(one.data(), x + e, comb, temp);
            for (std::size_t i = 0; i < moduli.size(); ++i) r.words[i][std::size_t(e)] = one[i];
        }
        return r;
    }
    void crt(fmpz* x, const Residues& r, slong n, int sign)
    {
        std::vector<ulong> one(moduli.size());
        for (slong e = 0; e < n; ++e) {
            for (std::size_t i = 0; i < moduli.size(); ++i) one[i] = r.words[i][std::size_t(e)];
            fmpz_multi_CRT_ui(x + e, one.data(), comb, temp, sign);
        }
    }
    std::vector<ulong> moduli;
    fmpz_comb_t comb;
    fmpz_comb_temp_t temp;
};

class ModularEntryPoints : public OnBackendWithFlint {
protected:
    // Reduction and both CRTs of x against FLINT; returns the product's bits.
    void check(const CSet& set, const fmpz* x, slong n, const std::string& what)
    {
        Flint flint(set.moduli());
        Residues ours(set.k(), n);
        ASSERT_EQ(zgpu_fmpz_vec_multi_mod_ui(ours.out(), x, n, set.set), 0) << zgpu_last_error();
        EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");
        const Residues theirs = flint.mod(x, n);
        ASSERT_EQ(ours.words, theirs.words) << what << ": residues";
        for (const int sign : {0, 1}) {
            Vec back(n), expected(n);
            ASSERT_EQ(zgpu_fmpz_vec_multi_CRT_ui(back.v, ours.in(), n, set.set, sign), 0) << zgpu_last_error();
            flint.crt(expected.v, theirs, n, sign);
            EXPECT_TRUE(_fmpz_vec_equal(back.v, expected.v, n)) << what << ": CRT, sign " << sign;
        }
    }
};

TEST_P(ModularEntryPoints, VectorsMatchFlint)
{
    for (const slong k : {slong(1), slong(2), slong(5), slong(70), slong(300)}) {
        const CSet set(k);
        for (const slong n : {slong(0), slong(1), slong(31), slong(1000)}) {
            for (const flint_bitcnt_t bits : {flint_bitcnt_t(1), flint_bitcnt_t(64), flint_bitcnt_t(200), flint_bitcnt_t(4096),
                                              flint_bitcnt_t(zgpu_prime_set_bits(set.set) - 1)}) {
                Vec x(n);
                random_vec(x, bits);
                check(set, x.v, n, std::to_string(n) + " values of " + std::to_string(bits) + " bits modulo " +
                                       std::to_string(k) + " primes");
            }
        }
    }
}

TEST_P(ModularEntryPoints, ManyPrimesAndLongValues)
{
    const CSet many(4096);
    Vec x(5);
    random_vec(x, 4096 * 61);
    check(many, x.v, 5, "4096 primes");
    // Values of kMaxLimbs limbs, reduced (the CRT cannot return them with 4 moduli).
    const CSet four(4);
    Vec big(3);
    fmpz_one(big.v);
    fmpz_mul_2exp(big.v, big.v, 64 * 65536);
    fmpz_sub_ui(big.v, big.v, 1);  // all-ones limbs
    fmpz_neg(big.v + 1, big.v);
    fmpz_randbits(big.v + 2, state_, 64 * 65536);
    Residues ours(4, 3);
    ASSERT_EQ(zgpu_fmpz_vec_multi_mod_ui(ours.out(), big.v, 3, four.set), 0) << zgpu_last_error();
    EXPECT_EQ(ours.words, Flint(four.moduli()).mod(big.v, 3).words);
}

TEST_P(ModularEntryPoints, EdgesOfTheSymmetricRangeAndCallerModuli)
{
    // Composites, 2 and 2^64 - 1: P even.
    for (const auto& moduli : {std::vector<ulong>{2, ~ulong(0), 7 * 11, 13 * 13}, std::vector<ulong>{~ulong(0) - 2, 1000003},
                               std::vector<ulong>{3}}) {
        const CSet set(moduli);
        fmpz_t p, half;
        fmpz_init(p);
        fmpz_init(half);
        fmpz_one(p);
        for (const ulong m : moduli) fmpz_mul_ui(p, p, m);
        fmpz_fdiv_q_2exp(half, p, 1);
        Vec x(12);
        fmpz_set_si(x.v + 1, 1);
        fmpz_set_si(x.v + 2, -1);
        fmpz_sub_ui(x.v + 3, p, 1);
        fmpz_fdiv_q_2exp(x.v + 3, x.v + 3, 1);  // (P - 1) / 2
        fmpz_neg(x.v + 4, x.v + 3);
        fmpz_set(x.v + 5, half);                // P / 2
        fmpz_neg(x.v + 6, half);                // -P / 2: FLINT returns P / 2 for even P
        fmpz_add_ui(x.v + 7, x.v + 3, 1);       // one beyond
        fmpz_neg(x.v + 8, x.v + 7);
        fmpz_sub_ui(x.v + 9, p, 1);
        fmpz_set(x.v + 10, p);
        fmpz_mul_2exp(x.v + 11, p, 70);
        check(set, x.v, 12, "edges");

        // The checked CRT: |x| <= (P - 1) / 2 fits a signed result, one more does not.
        Residues r(set.k(), 12);
        ASSERT_EQ(zgpu_fmpz_vec_multi_mod_ui(r.out(), x.v, 12, set.set), 0);
        Vec out(12), before(12);
        _fmpz_vec_set(before.v, out.v, 12);
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui_checked(out.v, r.in(), 5, set.set, x.v + 3, 1), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(out.v, x.v, 5));
        _fmpz_vec_zero(out.v, 12);
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui_checked(out.v, r.in(), 5, set.set, x.v + 7, 1), -1);
        EXPECT_NE(std::string(zgpu_last_error()).find("too few moduli"), std::string::npos) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(out.v, before.v, 12));
        EXPECT_EQ(zgpu_prime_set_represents(set.set, x.v + 7, 1), 0);
        EXPECT_EQ(zgpu_prime_set_represents(set.set, x.v + 9, 0), 1);
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui_checked(out.v, r.in(), 5, set.set, x.v + 10, 0), -1);
        fmpz_clear(p);
        fmpz_clear(half);
    }
}

TEST_P(ModularEntryPoints, RoundTripsOfLargeVectors)
{
    // Several MiB of residues: more than one chunk of the GPU's pipeline.
    const CSet set(24);
    const slong n = slong(scaled(std::size_t(1) << 17, GetParam()));
    Vec x(n), back(n);
    random_vec(x, 1400);
    Residues r(set.k(), n);
    ASSERT_EQ(zgpu_fmpz_vec_multi_mod_ui(r.out(), x.v, n, set.set), 0) << zgpu_last_error();
    ASSERT_EQ(zgpu_fmpz_vec_multi_CRT_ui(back.v, r.in(), n, set.set, 1), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(back.v, x.v, n));
}

TEST_P(ModularEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    const CSet set(std::vector<ulong>{5, 7, 9});
    Vec x(4), before(4);
    random_vec(x, 100);
    _fmpz_vec_set(before.v, x.v, 4);
    Residues r(3, 4);
    for (auto& w : r.words) w.assign(4, 1);
    r.words[2][3] = 9;
    EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui(x.v, r.in(), 4, set.set, 1), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("residues[2][3] = 9 is not below its modulus 9"), std::string::npos)
        << zgpu_last_error();
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_TRUE(_fmpz_vec_equal(x.v, before.v, 4));
    EXPECT_EQ(zgpu_fmpz_vec_multi_mod_ui(r.out(), x.v, -1, set.set), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("len is negative"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_multi_mod_ui(nullptr, x.v, 4, set.set), -1);
    EXPECT_EQ(r.words[0][0], 1u);

    zgpu_prime_set_t bad;
    const ulong zero[] = {3, 0}, repeated[] = {3, 5, 3}, shared[] = {6, 35, 10};
    EXPECT_EQ(zgpu_prime_set_init(bad, zero, -1), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("k is negative"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_prime_set_init(bad, zero, 2), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("zgpu_prime_set_init: prime set: moduli[1] = 0 is below 2"),
              std::string::npos)
        << zgpu_last_error();
    EXPECT_EQ(zgpu_prime_set_init(bad, repeated, 3), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("moduli[0] and moduli[2] are equal"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_prime_set_init(bad, shared, 3), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("moduli[0] and moduli[2] share the factor 2"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_prime_set_size(bad), 0);
    zgpu_prime_set_clear(bad);  // allowed after a failed init
    EXPECT_EQ(zgpu_fmpz_vec_multi_mod_ui(r.out(), x.v, 4, bad), -1);
    // Absurd sizes are errors, not a hang or a crash: 2^64 - 1 and 2^64 - 2 bits (whose prime
    // count overflowed), 2^37.
    for (const flint_bitcnt_t bits : {~flint_bitcnt_t(0), ~flint_bitcnt_t(0) - 1, flint_bitcnt_t(1) << 37}) {
        EXPECT_EQ(zgpu_prime_set_init_bits(bad, bits, 1), -1) << bits;
        EXPECT_NE(std::string(zgpu_last_error()).find("is more than the supported 2^30"), std::string::npos) << zgpu_last_error();
        EXPECT_EQ(zgpu_prime_set_size(bad), 0);
    }
    EXPECT_EQ(zgpu_prime_set_init_bits(bad, 1000, 1), 0);
    EXPECT_GE(zgpu_prime_set_bits(bad), 1002u);
    zgpu_prime_set_clear(bad);
}

// As FLINT 3's vector functions over no primes: the reduction writes nothing, the CRT gives
// zeros (P = 1), on the host whatever the backend; bounds above 0 are too large for P.
TEST_P(ModularEntryPoints, NoModuliGiveZeros)
{
    for (const bool generated : {false, true}) {
        const CSet set = generated ? CSet(0) : CSet(std::vector<ulong>{});
        EXPECT_EQ(set.k(), 0);
        Vec x(5);
        random_vec(x, 200);
        EXPECT_EQ(zgpu_fmpz_vec_multi_mod_ui(nullptr, x.v, 5, set.set), 0) << zgpu_last_error();
        EXPECT_STREQ(zgpu_last_backend(), "cpu");
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui(x.v, nullptr, 5, set.set, 1), 0) << zgpu_last_error();
        EXPECT_STREQ(zgpu_last_backend(), "cpu");
        EXPECT_TRUE(_fmpz_vec_is_zero(x.v, 5));
        random_vec(x, 200);
        fmpz_t bound;
        fmpz_init_set_ui(bound, 0);
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui_checked(x.v, nullptr, 5, set.set, bound, 0), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_is_zero(x.v, 5));
        fmpz_one(bound);
        EXPECT_EQ(zgpu_fmpz_vec_multi_CRT_ui_checked(x.v, nullptr, 5, set.set, bound, 0), -1);
        EXPECT_NE(std::string(zgpu_last_error()).find("too few moduli"), std::string::npos) << zgpu_last_error();
        fmpz_clear(bound);
    }
}

TEST_P(ModularEntryPoints, PolynomialsAndMatricesMatchFlint)
{
    const std::vector<ulong> moduli{n_nextprime(ulong(1) << 62, 1), 1000003, ~ulong(0), 1 << 20};
    const slong k = slong(moduli.size());
    fmpz_poly_t poly, back;
    fmpz_poly_init(poly);
    fmpz_poly_init(back);
    fmpz_poly_randtest(poly, state_, 40, 150);
    fmpz_poly_set_coeff_ui(poly, 40, 1 << 20);  // zero modulo 2^20: that residue is shorter
    std::vector<nmod_poly_t> res(moduli.size());
    for (slong i = 0; i < k; ++i) nmod_poly_init(res[i], moduli[i]);
    ASSERT_EQ(zgpu_fmpz_poly_multi_mod_ui(res.data(), k, poly), 0) << zgpu_last_error();
    for (slong i = 0; i < k; ++i) {
        nmod_poly_t expected;
        nmod_poly_init(expected, moduli[i]);
        fmpz_poly_get_nmod_poly(expected, poly);
        EXPECT_TRUE(nmod_poly_equal(res[i], expected)) << i;
        nmod_poly_clear(expected);
    }
    EXPECT_LT(res[3]->length, res[0]->length);
    ASSERT_EQ(zgpu_fmpz_poly_multi_CRT_ui(back, res.data(), k, 1), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(back, poly));
    EXPECT_EQ(zgpu_fmpz_poly_multi_CRT_ui(back, res.data(), 0, 1), -1);

    fmpz_mat_t mat, out, window;
    fmpz_mat_init(mat, 7, 9);
    fmpz_mat_init(out, 7, 9);
    fmpz_mat_randtest(mat, state_, 150);
    std::vector<nmod_mat_t> mres(moduli.size());
    for (slong i = 0; i < k; ++i) nmod_mat_init(mres[i], 7, 9, moduli[i]);
    ASSERT_EQ(zgpu_fmpz_mat_multi_mod_ui(mres.data(), k, mat), 0) << zgpu_last_error();
    std::vector<nmod_mat_t> expected(moduli.size());
    for (slong i = 0; i < k; ++i) nmod_mat_init(expected[i], 7, 9, moduli[i]);
    fmpz_mat_multi_mod_ui(expected.data(), k, mat);
    for (slong i = 0; i < k; ++i) EXPECT_TRUE(nmod_mat_equal(mres[i], expected[i])) << i;
    ASSERT_EQ(zgpu_fmpz_mat_multi_CRT_ui(out, mres.data(), k, 1), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_mat_equal(out, mat));
    // Windows: rows apart in memory.
    std::vector<nmod_mat_t> windows(moduli.size());
    for (slong i = 0; i < k; ++i) nmod_mat_window_init(windows[i], mres[i], 1, 2, 6, 7);
    fmpz_mat_window_init(window, out, 1, 2, 6, 7);
    fmpz_mat_zero(out);
    ASSERT_EQ(zgpu_fmpz_mat_multi_CRT_ui(window, windows.data(), k, 1), 0) << zgpu_last_error();
    for (slong r = 1; r < 6; ++r)
        for (slong c = 2; c < 7; ++c) EXPECT_TRUE(fmpz_equal(fmpz_mat_entry(out, r, c), fmpz_mat_entry(mat, r, c)));
    EXPECT_TRUE(fmpz_is_zero(fmpz_mat_entry(out, 0, 0)));
    // Shapes must agree.
    nmod_mat_t small;
    nmod_mat_init(small, 7, 8, moduli[0]);
    EXPECT_EQ(zgpu_fmpz_mat_multi_mod_ui(&small, 1, mat), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("residues[0] is 7 x 8, mat is 7 x 9"), std::string::npos) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_mat_multi_CRT_ui(mat, mres.data(), -1, 0), -1);
    nmod_mat_clear(small);
    fmpz_mat_window_clear(window);
    for (slong i = 0; i < k; ++i) {
        nmod_mat_window_clear(windows[i]);
        nmod_mat_clear(mres[i]);
        nmod_mat_clear(expected[i]);
        nmod_poly_clear(res[i]);
    }
    fmpz_mat_clear(mat);
    fmpz_mat_clear(out);
    fmpz_poly_clear(poly);
    fmpz_poly_clear(back);
}

INSTANTIATE_TEST_SUITE_P(Backends, ModularEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
