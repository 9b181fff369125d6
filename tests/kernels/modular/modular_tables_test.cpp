// The tables of a set of moduli (kernels/modular/modular_tables.hpp) against GMP, their
// validation, and FLINT's comb (the GPU tests' reference) against GMP on the same sets.
#include <chrono>
#include <random>

#include <gmp.h>
#include <gtest/gtest.h>

#include "kernels/modular/modular_tables.hpp"
#include "modular_reference.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

using kernels::kPowerBlock;
using kernels::kPowerBlocks;
using kernels::make_modular_tables;
using kernels::make_reduction_tables;
using kernels::ModularTables;

void set_limbs(mpz_ptr x, const limb_t* limbs, std::size_t n)
{
    mpz_import(x, n, -1, sizeof(limb_t), 0, 0, limbs);
}

// Every table of `moduli` against GMP: P, its limbs and bits, M_i, c_i, powers (the first and
// last of each block of powers, and some between, for large k).
void expect_tables_match(const std::vector<limb_t>& moduli, const ModularTables& t)
{
    const std::size_t k = moduli.size();
    ASSERT_EQ(t.count, k);
    mpz_t p, m, x, e;
    mpz_inits(p, m, x, e, nullptr);
    product_of(p, moduli);
    ASSERT_EQ(t.product_limbs, mpz_size(p));
    ASSERT_EQ(t.product_bits, mpz_sizeinbase(p, 2));
    set_limbs(x, t.product.data(), t.product.size());
    ASSERT_EQ(mpz_cmp(x, p), 0);
    ASSERT_EQ(t.cofactors.size(), k * t.product_limbs);
    const std::size_t step = k > 100 ? 97 : 1;
    for (std::size_t i = 0; i < k; i += step) {
        const limb_t n = moduli[i];
        ASSERT_EQ(t.moduli[i].n, n);
        mpz_divexact_ui(m, p, n);
        set_limbs(x, t.cofactors.data() + i * t.product_limbs, t.product_limbs);
        ASSERT_EQ(mpz_cmp(x, m), 0) << "M_" << i;
        mpz_set_ui(x, n);
        ASSERT_NE(mpz_invert(e, m, x), 0);
        ASSERT_EQ(t.crt_inverses[i], mpz_get_ui(e)) << "c_" << i;
        for (const std::uint32_t c : {0u, 1u, 2u, 17u, kPowerBlock - 1}) {
            mpz_ui_pow_ui(e, 2, 64 * c);
            ASSERT_EQ(t.powers[c * k + i], mpz_fdiv_ui(e, n)) << "B^" << c << " mod moduli[" << i << "]";
        }
        for (const std::uint32_t b : {0u, 1u, 2u, kPowerBlocks - 1}) {
            mpz_ui_pow_ui(e, 2, 64 * kPowerBlock * b);
            ASSERT_EQ(t.block_powers[b * k + i], mpz_fdiv_ui(e, n)) << "B^(R " << b << ") mod moduli[" << i << "]";
        }
    }
    mpz_clears(p, m, x, e, nullptr);
}

// The CRT's inverses for any modulus, even ones and words near 2^64 included.
TEST(ModularTables, InverseOfAnyModulusMatchesGmp)
{
    mpz_t x, n, e;
    mpz_inits(x, n, e, nullptr);
    std::mt19937_64 rng(3);
    const auto expect_inverse = [&](limb_t value, limb_t modulus) {
        mpz_set_ui(x, value);
        mpz_set_ui(n, modulus);
        if (!mpz_invert(e, x, n)) return;
        ASSERT_EQ(kernels::inverse_mod_coprime(value, modulus), mpz_get_ui(e)) << value << " mod " << modulus;
    };
    for (const limb_t modulus : {limb_t(2), limb_t(3), limb_t(256), limb_t(1) << 63, kPrime64, kOnes, kOnes - 1})
        for (const limb_t value : {limb_t(1), modulus - 1, modulus / 2 + 1, modulus / 3})
            expect_inverse(value % modulus, modulus);
    for (int r = 0; r < 100000; ++r) {
        const limb_t modulus = std::max<limb_t>(2, rng() >> (r % 64));
        expect_inverse(rng() % modulus, modulus);
    }
    mpz_clears(x, n, e, nullptr);
}

TEST(ModularTables, MatchGmpOnEverySet)
{
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        expect_tables_match(set.moduli, make_modular_tables(set.moduli));
    }
}

TEST(ModularTables, FourThousandNinetySixPrimes)
{
    const std::vector<limb_t> moduli = kernels::ntt_primes(4096);
    const auto start = std::chrono::steady_clock::now();
    const ModularTables t = make_modular_tables(moduli);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0);
    EXPECT_EQ(t.product_limbs, 3968u);  // 4096 primes just below 2^62: P just below 2^253952
    expect_tables_match(moduli, t);
}

// The reduction's tables alone: the same moduli and powers as the whole tables', nothing of the
// CRT's, and the same errors for a modulus below 2.
TEST(ModularTables, ReductionTablesAreTheWholeTablesReductionPart)
{
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        const ModularTables whole = make_modular_tables(set.moduli), reduction = make_reduction_tables(set.moduli);
        EXPECT_EQ(reduction.count, whole.count);
        ASSERT_EQ(reduction.moduli.size(), whole.moduli.size());
        for (std::size_t i = 0; i < whole.count; ++i) EXPECT_EQ(reduction.moduli[i].n, whole.moduli[i].n);
        EXPECT_EQ(reduction.powers, whole.powers);
        EXPECT_EQ(reduction.block_powers, whole.block_powers);
        EXPECT_TRUE(reduction.crt_inverses.empty() && reduction.cofactors.empty() && reduction.product.empty());
        EXPECT_EQ(reduction.product_limbs, 0u);
    }
    EXPECT_THROW(make_reduction_tables(std::vector<limb_t>{5, 1}), Error);
    EXPECT_THROW(make_reduction_tables(std::vector<limb_t>{}), Error);
}

std::string error_of(const std::vector<limb_t>& moduli)
{
    try {
        make_modular_tables(moduli);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

TEST(ModularTables, BadSetsAreNamed)
{
    EXPECT_EQ(error_of({}), "zgpu: no moduli (k = 0)");
    EXPECT_EQ(error_of({5, 7, 11, 1}), "zgpu: moduli[3] = 1 is below 2");
    EXPECT_EQ(error_of({0}), "zgpu: moduli[0] = 0 is below 2");
    EXPECT_EQ(error_of({5, 14, 9, 11, 13, 21}), "zgpu: moduli[1] and moduli[5] share the factor 7");
    EXPECT_EQ(error_of({kOnes, 2, 3}), "zgpu: moduli[0] and moduli[2] share the factor 3");
    EXPECT_EQ(error_of({2, kPrime64, 3, kPrime64}), "zgpu: moduli[1] and moduli[3] are equal (18446744073709551557)");
    EXPECT_EQ(error_of({limb_t(1) << 63, 6}), "zgpu: moduli[0] and moduli[1] share the factor 2");
}

// The GPU tests compare with FLINT's comb: it must agree with GMP on these sets, composites
// and 2 included, and its signed CRT must be the symmetric range -P < 2x <= P.
TEST(ModularTables, FlintReferenceAgreesWithGmp)
{
    IntegerSource source(7);
    mpz_t p, x, y, z;
    mpz_inits(p, x, y, z, nullptr);
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        Comb comb(set.moduli);
        product_of(p, set.moduli);
        for (std::size_t c = 0; c < kEdges + 40; ++c) {
            if (c < kEdges) set_edge(x, p, c);
            else source.set_random(x, std::uint32_t(mpz_size(p)) + 1);
            const std::vector<limb_t> residues = comb.mod(x);
            for (std::size_t i = 0; i < set.moduli.size(); ++i) ASSERT_EQ(residues[i], mpz_fdiv_ui(x, set.moduli[i])) << c;
            comb.crt(y, residues, false);
            mpz_fdiv_r(z, x, p);
            ASSERT_EQ(mpz_cmp(y, z), 0) << "unsigned CRT, case " << c;
            comb.crt(y, residues, true);
            symmetric(z, x, p);
            ASSERT_EQ(mpz_cmp(y, z), 0) << "signed CRT, case " << (c < kEdges ? edge_names()[c] : std::to_string(c));
        }
    }
    mpz_clears(p, x, y, z, nullptr);
}

}  // namespace
}  // namespace zgpu::testing
