// kernels::multi_crt on the GPU against FLINT's fmpz_multi_CRT_ui, unsigned and signed: the
// edges of the range (0, +-1, +-(P-1)/2, P/2 and one beyond, P - 1), random values, composite
// moduli, 2 and 2^64 - 1, k = 1 to 4097 (the tensor cores' kernel up to 4096, the words' above),
// moduli counts and product lengths at the tensor kernel's stage and tile edges; and round trips
// multi_mod -> multi_crt, with more values than one chunk.
#include <gtest/gtest.h>

#include <flint/ulong_extras.h>

#include "backend_param.hpp"
#include "batch_checks.hpp"
#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "modular_reference.hpp"
#include "device_modular.hpp"
#include "zgpu/mpz_adapter.hpp"

namespace zgpu::testing {
namespace {

// The edges of the range, then random values below P (some short), `count` in all.
void make_values(MpzArray& x, mpz_srcptr p, IntegerSource& source)
{
    mpz_t r;
    mpz_init(r);
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i < kEdges) set_edge(x[i], p, i);
        else {
            source.set_random(r, std::uint32_t(mpz_size(p)) + 1);
            mpz_fdiv_r(x[i], r, p);
        }
    }
    mpz_clear(r);
}

// The CRT of x's residues against FLINT's, unsigned and signed; out_stride above P's limbs
// (garbage there first: the kernel must write zeros).
void check_multi_crt_of(const std::vector<limb_t>& moduli, const MpzArray& x, std::uint32_t extra_stride)
{
    const kernels::ModularTables tables = kernels::make_modular_tables(moduli);
    const DeviceTables device_tables(tables);
    const std::size_t count = x.size();
    const std::string context = std::to_string(moduli.size()) + " moduli, " + std::to_string(count) + " values";
    Comb comb(moduli);
    std::vector<std::vector<limb_t>> residues(moduli.size(), std::vector<limb_t>(count));
    for (std::size_t e = 0; e < count; ++e) {
        const std::vector<limb_t> r = comb.mod(x[e]);
        for (std::size_t i = 0; i < moduli.size(); ++i) residues[i][e] = r[i];
    }
    const DeviceResidues device_residues(residues);
    for (const bool sign : {false, true}) {
        MpzArray expected(count);
        for (std::size_t e = 0; e < count; ++e) {
            std::vector<limb_t> r(moduli.size());
            for (std::size_t i = 0; i < moduli.size(); ++i) r[i] = residues[i][e];
            comb.crt(expected[e], r, sign);
        }
        const DeviceLimbBatch out(count, tables.product_limbs + extra_stride, ~limb_t(0));
        kernels::multi_crt(device_residues.view(), device_tables.view(), sign, out.view(), nullptr);
        expect_batch_equals(out.download(), expected, context + (sign ? ", signed" : ", unsigned"));
    }
}

// The edges of the range and random values, `count` in all.
void check_multi_crt(const std::vector<limb_t>& moduli, std::size_t count, std::uint32_t extra_stride, IntegerSource& source)
{
    mpz_t p;
    mpz_init(p);
    product_of(p, moduli);
    MpzArray x(count);
    make_values(x, p, source);
    mpz_clear(p);
    check_multi_crt_of(moduli, x, extra_stride);
}

// Values in FLINT's symmetric range through multi_mod and back through the signed CRT, on the device.
void check_round_trip(const std::vector<limb_t>& moduli, std::size_t count, std::uint32_t max_limbs, IntegerSource& source)
{
    const kernels::ModularTables tables = kernels::make_modular_tables(moduli);
    const DeviceTables device_tables(tables);
    mpz_t p, half;
    mpz_inits(p, half, nullptr);
    product_of(p, moduli);
    mpz_fdiv_q_2exp(half, p, 1);  // FLINT's symmetric range: -P < 2x <= P, so P/2 (P even) stays positive
    MpzArray x(count);
    for (std::size_t e = 0; e < count; ++e) {
        if (e < 3) set_edge(x[e], p, 3 + e % 2);  // +-(P-1)/2
        else source.set_random(x[e], max_limbs);
        mpz_fdiv_r(x[e], x[e], p);  // into the symmetric range
        if (mpz_cmp(x[e], half) > 0) mpz_sub(x[e], x[e], p);
    }
    const DeviceLimbBatch values(adapters::pack_mpz_array(x.data(), count));
    const DeviceResidues residues(count, moduli.size(), 0);
    kernels::multi_mod(values.view(), device_tables.view(), residues.view(), nullptr);
    const DeviceLimbBatch out(count, size_class(tables.product_limbs), 7);
    kernels::multi_crt(residues.view(), device_tables.view(), true, out.view(), nullptr);
    expect_batch_equals(out.download(), x, std::to_string(moduli.size()) + " moduli, round trip of " + std::to_string(count) + " values");
    mpz_clears(p, half, nullptr);
}

class MultiCrt : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(MultiCrt, MatchesFlintOnEverySet)
{
    IntegerSource source(21);
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        check_multi_crt(set.moduli, 67, 0, source);
        check_multi_crt(set.moduli, 13, 5, source);  // the edges only
        check_multi_crt(set.moduli, 1000, 1, source);
    }
}

// 4096 moduli: the most the tensor kernel takes (its 32-bit sums hold 8 k products below 2^16).
TEST_F(MultiCrt, FourThousandNinetySixModuli)
{
    IntegerSource source(22);
    check_multi_crt(kernels::ntt_primes(4096), 37, 2, source);
}

TEST_F(MultiCrt, MoreModuliThanTheTensorKernelTakes)
{
    IntegerSource source(25);
    check_multi_crt(kernels::ntt_primes(4097), 37, 0, source);
}

// The k largest primes below 2^64: P has k limbs, so k sets the tensor kernel's tiles of 16
// limbs (limb k included) and its stages of 16 moduli in mma steps of 4.
std::vector<limb_t> largest_primes(std::size_t k)
{
    std::vector<limb_t> primes;
    for (limb_t n = kPrime64; primes.size() < k; n -= 2)
        if (n_is_prime(n)) primes.push_back(n);
    return primes;
}

TEST_F(MultiCrt, TileAndStageEdges)
{
    IntegerSource source(26);
    for (const std::size_t k : {4, 5, 14, 15, 16, 17, 31, 32, 33, 47, 48}) {
        SCOPED_TRACE(k);
        check_multi_crt(largest_primes(k), 131, 1, source);
    }
}

// Every y_i = n_i - 1 (x = -sum_j M_j mod P; and y_i = 1 for its negation) with the 4096 largest
// primes below 2^64: y's bytes all 255 but the top ones, the tensor kernel's 32-bit sums at about
// half their bound.
TEST_F(MultiCrt, LargestBytesOfY)
{
    const std::vector<limb_t> moduli = largest_primes(4096);
    mpz_t p, sum, cofactor;
    mpz_inits(p, sum, cofactor, nullptr);
    product_of(p, moduli);
    for (const limb_t n : moduli) {
        mpz_divexact_ui(cofactor, p, n);
        mpz_add(sum, sum, cofactor);
    }
    MpzArray x(2);
    mpz_neg(x[0], sum);
    mpz_mod(x[0], x[0], p);
    mpz_mod(x[1], sum, p);
    check_multi_crt_of(moduli, x, 0);
    mpz_clears(p, sum, cofactor, nullptr);
}

// Negative results whose lowest nonzero limb lies past crt_negate's first lanes and steps (4096
// moduli: P of about 3970 limbs, above crt_fix's 16).
TEST_F(MultiCrt, NegativeResultsWithZeroLowLimbs)
{
    const std::vector<limb_t> moduli = kernels::ntt_primes(4096);
    MpzArray x(6);
    const unsigned shifts[] = {0, 64 * 31, 64 * 128, 64 * 200, 64 * 200 + 5, 64 * 3000};
    for (std::size_t e = 0; e < 6; ++e) {
        mpz_set_ui(x[e], 1);
        mpz_mul_2exp(x[e], x[e], shifts[e]);
        mpz_neg(x[e], x[e]);
    }
    check_multi_crt_of(moduli, x, 1);
}

// The word kernel's last limb tiles 8, 16 and a padded 32 wide (P of 4100, 4108, 4116 limbs from
// primes near 2^64: 128 tiles of 32, then 4, 12, 20 limbs), and its chunks: 2^25 / 4100 rounded
// down to 128 is 8064 values, so 8100 take two.
TEST_F(MultiCrt, WordKernelTilesAndChunks)
{
    IntegerSource source(27);
    for (const std::size_t k : {4100, 4108, 4116}) {
        SCOPED_TRACE(k);
        check_multi_crt(largest_primes(k), 37, 1, source);
    }
    check_round_trip(largest_primes(4100), 8100, 6, source);
}

TEST_F(MultiCrt, RoundTrips)
{
    IntegerSource source(23);
    for (const ModuliSet& set : small_moduli_sets()) {
        SCOPED_TRACE(set.name);
        const std::uint32_t limbs = std::uint32_t(kernels::make_modular_tables(set.moduli).product_limbs);
        check_round_trip(set.moduli, 333, limbs, source);
    }
}

// 2^25 / 4096 = 8192 values a chunk: 8225 take two.
TEST_F(MultiCrt, RoundTripOverTwoChunks)
{
    IntegerSource source(24);
    check_round_trip(kernels::ntt_primes(4096), 8225, 6, source);
}

}  // namespace
}  // namespace zgpu::testing
