// kernels::multi_mod on the GPU against FLINT's fmpz_multi_mod_ui: every kind of moduli set,
// sizes from 1 limb to kMaxLimbs, signs, zero, +-1, all-ones limbs, mixed sizes in one batch,
// counts that are no multiple of a tile, k = 1 to 4096.
#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "modular_reference.hpp"
#include "device_modular.hpp"
#include "zgpu/mpz_adapter.hpp"

namespace zgpu::testing {
namespace {

// Values of at most `limbs` limbs: zero, +-1, all-ones of both signs, full and shorter random
// ones of both signs, single high bits.
void make_values(MpzArray& x, std::uint32_t limbs, IntegerSource& source)
{
    for (std::size_t i = 0; i < x.size(); ++i) {
        switch (i % 9) {
        case 0: mpz_set_ui(x[i], 0); break;
        case 1: mpz_set_ui(x[i], 1); break;
        case 2: mpz_set_si(x[i], -1); break;
        case 3: source.set(x[i], limbs, Shape::all_ones, false); break;
        case 4: source.set(x[i], limbs, Shape::all_ones, true); break;
        case 5: source.set(x[i], limbs, Shape::power, i % 2); break;
        case 6: source.set_random(x[i], limbs); break;
        default: source.set(x[i], limbs, Shape::random, i % 2); break;
        }
    }
}

void check_multi_mod(const std::vector<limb_t>& moduli, std::uint32_t limbs, std::size_t count, IntegerSource& source)
{
    const std::string context = std::to_string(moduli.size()) + " moduli, " + std::to_string(limbs) + " limbs, " + std::to_string(count) + " values";
    const kernels::ModularTables tables = kernels::make_modular_tables(moduli);
    const DeviceTables device_tables(tables);
    MpzArray x(count);
    make_values(x, limbs, source);
    const DeviceLimbBatch values(adapters::pack_mpz_array(x.data(), count));
    const limb_t fill = 0x5a5a5a5a5a5a5a5aull;
    const DeviceResidues residues(count, moduli.size(), fill);
    kernels::multi_mod(values.view(), device_tables.view(), residues.view(), nullptr);
    const std::vector<limb_t> got = residues.download();

    Comb comb(moduli);
    std::size_t bad = 0;
    std::string first;
    for (std::size_t e = 0; e < count; ++e) {
        const std::vector<limb_t> expected = comb.mod(x[e]);
        for (std::size_t i = 0; i < moduli.size(); ++i)
            if (got[i * residues.stride() + e] != expected[i] && bad++ == 0)
                first = "value " + std::to_string(e) + " mod moduli[" + std::to_string(i) + "] = " + std::to_string(moduli[i]) + ": " +
                        std::to_string(got[i * residues.stride() + e]) + ", expected " + std::to_string(expected[i]);
    }
    EXPECT_EQ(bad, 0u) << context << "; first: " << first;
    for (std::size_t i = 0; i < moduli.size(); ++i)
        for (std::size_t e = count; e < residues.stride(); ++e) ASSERT_EQ(got[i * residues.stride() + e], fill) << context << ": padding written";
}

class MultiMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(MultiMod, MatchesFlintOnEverySetAndSize)
{
    IntegerSource source(11);
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        for (const std::uint32_t limbs : {1u, 2u, 3u, 4u, 5u, 8u, 9u, 16u, 17u, 31u, 64u, 255u, 256u, 257u, 600u})
            check_multi_mod(set.moduli, limbs, 67, source);
        check_multi_mod(set.moduli, 20, 1, source);
        check_multi_mod(set.moduli, 12, 1000, source);
    }
}

TEST_F(MultiMod, LongestElements)
{
    IntegerSource source(12);
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        check_multi_mod(set.moduli, kMaxLimbs, 3, source);
        check_multi_mod(set.moduli, kMaxLimbs - 1, 2, source);
    }
}

TEST_F(MultiMod, FourThousandNinetySixModuli)
{
    IntegerSource source(13);
    const std::vector<limb_t> moduli = kernels::ntt_primes(4096);
    for (const std::uint32_t limbs : {1u, 7u, 64u, 300u}) check_multi_mod(moduli, limbs, 37, source);
    check_multi_mod(moduli, kMaxLimbs, 2, source);
}

}  // namespace
}  // namespace zgpu::testing
