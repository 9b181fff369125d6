// The tables built on the device (kernels/modular/tables_on_device.hpp) against the host's
// builder, which modular_tables_test checks against GMP: every kind of set, k = 1 to 4096.
#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "device_modular.hpp"
#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/tables_on_device.hpp"
#include "modular_reference.hpp"

namespace zgpu::testing {
namespace {

// Builds the tables of `moduli` on the device, the CRT's where `crt`, and expects every word to
// equal the host's. The tables' arrays start filled with ones, to see an entry left unwritten.
void expect_device_tables_match(const std::vector<limb_t>& moduli, bool crt)
{
    const kernels::ModularTables host = kernels::make_modular_tables(moduli);
    const std::size_t k = moduli.size();
    const DeviceArray<kernels::Modulus> constants(host.moduli);
    const DeviceArray<limb_t> product(host.product);
    const std::vector<limb_t> ones(std::max(host.powers.size(), host.cofactors.size()), ~limb_t(0));
    const auto filled = [&](std::size_t n) { return std::vector<limb_t>(ones.begin(), ones.begin() + std::ptrdiff_t(n)); };
    const DeviceArray<limb_t> powers(filled(host.powers.size())), block_powers(filled(host.block_powers.size()));
    const DeviceArray<limb_t> inverses(filled(k)), cofactors(filled(host.cofactors.size()));
    const kernels::ModularTablesTarget target{k,
                                              constants.data(),
                                              product.data(),
                                              host.product_limbs,
                                              powers.data(),
                                              block_powers.data(),
                                              crt ? inverses.data() : nullptr,
                                              crt ? cofactors.data() : nullptr};
    kernels::fill_modular_tables(target, nullptr);
    EXPECT_EQ(powers.download(), host.powers);
    EXPECT_EQ(block_powers.download(), host.block_powers);
    if (!crt) {
        EXPECT_EQ(inverses.download(), filled(k)) << "the reduction's tables alone wrote the CRT's";
        return;
    }
    EXPECT_EQ(inverses.download(), host.crt_inverses);
    EXPECT_EQ(cofactors.download(), host.cofactors);
}

class TablesOnDevice : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(TablesOnDevice, MatchTheHostsOnEverySet)
{
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        expect_device_tables_match(set.moduli, true);
        expect_device_tables_match(set.moduli, false);
    }
    // Pairwise coprime composites around 2^8, where the CRT's inverses need the general
    // Euclidean algorithm (even moduli above 2).
    expect_device_tables_match({255, 256, 257, 253, 7 * 37}, true);
}

TEST_F(TablesOnDevice, ManyPrimes)
{
    for (const std::size_t k : {135u, 1000u, 4096u}) {
        SCOPED_TRACE(k);
        expect_device_tables_match(kernels::ntt_primes(k), true);
    }
}

}  // namespace
}  // namespace zgpu::testing
