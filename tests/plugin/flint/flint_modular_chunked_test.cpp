// Reduction and CRT of FLINT vectors on the GPU in many chunks: the device memory limit
// (ZGPU_GPU_MEMORY_LIMIT) far below the vectors' bytes, so that each call runs in more than four
// chunks (counted from ZGPU_TIMING's report), the CRT's minimum chunk of values included;
// against FLINT's comb, with a count that is no multiple of any chunk.
#include <cstdlib>
#include <vector>

#include <gmp.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "pipeline_chunks.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

class ChunkedModular : public ::testing::Test {
protected:
    void SetUp() override
    {
        ZGPU_SKIP_WITHOUT(Backend::gpu);
        setenv("ZGPU_BACKEND", "gpu", 1);
        setenv("ZGPU_GPU_MEMORY_LIMIT", "262144", 1);  // 256 KiB, against about 2 MiB a call
        setenv("ZGPU_TIMING", "1", 1);
    }
    void TearDown() override
    {
        unsetenv("ZGPU_BACKEND");
        unsetenv("ZGPU_GPU_MEMORY_LIMIT");
        unsetenv("ZGPU_TIMING");
    }
};

TEST_F(ChunkedModular, RoundTripMatchesFlint)
{
    constexpr slong kCount = 3001, kPrimes = 40;  // 3001: prime
    zgpu_prime_set_t set;
    ASSERT_EQ(zgpu_prime_set_init_ntt_primes(set, kPrimes), 0) << zgpu_last_error();
    const ulong* moduli = zgpu_prime_set_moduli(set);
    fmpz_comb_t comb;
    fmpz_comb_temp_t temp;
    fmpz_comb_init(comb, moduli, kPrimes);
    fmpz_comb_temp_init(temp, comb);

    flint_rand_t state;
    random_init(state);
    Vec x(kCount), back(kCount);
    _fmpz_vec_randtest(x.v, state, kCount, 2000);  // mixed sizes and signs, below P/2 (about 2^2480)
    std::vector<std::vector<ulong>> words(kPrimes, std::vector<ulong>(kCount));
    std::vector<ulong*> rows;
    for (auto& w : words) rows.push_back(w.data());

    EXPECT_GT(chunks_of([&] { ASSERT_EQ(zgpu_fmpz_vec_multi_mod_ui(rows.data(), x.v, kCount, set), 0) << zgpu_last_error(); }), 4u);
    EXPECT_STREQ(zgpu_last_backend(), "gpu");
    std::vector<ulong> one(kPrimes);
    for (slong e = 0; e < kCount; ++e) {
        fmpz_multi_mod_ui(one.data(), x.v + e, comb, temp);
        for (slong i = 0; i < kPrimes; ++i) ASSERT_EQ(words[i][e], one[i]) << "value " << e << ", modulus " << i;
    }
    EXPECT_GT(chunks_of([&] {
                  ASSERT_EQ(zgpu_fmpz_vec_multi_CRT_ui(back.v, rows.data(), kCount, set, 1), 0) << zgpu_last_error();
              }),
              4u);
    EXPECT_STREQ(zgpu_last_backend(), "gpu");
    EXPECT_TRUE(_fmpz_vec_equal(back.v, x.v, kCount));

    random_clear(state);
    fmpz_comb_temp_clear(temp);
    fmpz_comb_clear(comb);
    zgpu_prime_set_clear(set);
}

}  // namespace
}  // namespace zgpu::testing
