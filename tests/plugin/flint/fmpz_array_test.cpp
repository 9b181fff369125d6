// The FLINT faces' bits of an array and of a matrix (plugin/flint/fmpz_array.hpp's max_bits,
// fmpz_mat_entries.hpp's fmpz_mat_bits) against FLINT's _fmpz_vec_max_bits and fmpz_mat_max_bits:
// random sizes and signs, zeros, fewer values than start threads and many more, the early end
// where values of full limbs come first, last, or not at all; whole matrices and windows.
#include <gmp.h>

#include <cstdlib>
#include <string>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "adapters/host_operand.hpp"
#include "plugin/flint/fmpz_array.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::testing {
namespace {

std::uint64_t flint_bits(const Vec& x) { return x.n ? std::uint64_t(std::labs(_fmpz_vec_max_bits(x.v, x.n))) : 0; }

std::uint64_t largest_limbs(const Vec& x) { return host_operand(adapters::FmpzReader(x.v), std::size_t(x.n), "x").max_limbs; }

// x's bits, told its largest size and not.
void expect_bits(const Vec& x, const std::string& what)
{
    EXPECT_EQ(max_bits(x.v, std::size_t(x.n), largest_limbs(x)), flint_bits(x)) << what;
    EXPECT_EQ(max_bits(x.v, std::size_t(x.n)), flint_bits(x)) << what << ", size not told";
}

TEST(FmpzArrayBits, MatchFlintOnRandomZeroAndFullLimbValues)
{
    flint_rand_t state;
    random_init(state);
    for (const slong n : {slong(0), slong(1), slong(100), slong(5000), slong(70000)})
        for (const flint_bitcnt_t bits : {1, 63, 64, 65, 1000, 1024}) {
            Vec x(n);
            _fmpz_vec_randtest(x.v, state, n, bits);
            expect_bits(x, std::to_string(n) + " values of up to " + std::to_string(bits) + " bits");
            if (n == 0) continue;
            // One value of full limbs: first, last; then none of full limbs but one a bit short.
            for (const slong at : {slong(0), n - 1}) {
                Vec y(n);
                _fmpz_vec_set(y.v, x.v, n);
                fmpz_one(y.v + at);
                fmpz_mul_2exp(y.v + at, y.v + at, 64 * ((bits + 63) / 64));
                fmpz_sub_ui(y.v + at, y.v + at, 1);
                if (at) fmpz_neg(y.v + at, y.v + at);
                expect_bits(y, "a value of full limbs at " + std::to_string(at) + " of " + std::to_string(n));
                fmpz_tdiv_q_2exp(y.v + at, y.v + at, 1);
                expect_bits(y, "a value one bit short of full limbs at " + std::to_string(at) + " of " + std::to_string(n));
            }
        }
    Vec zeros(9000);
    expect_bits(zeros, "zeros");
    random_clear(state);
}

TEST(FmpzArrayBits, MatricesAndWindowsMatchFlint)
{
    flint_rand_t state;
    random_init(state);
    for (const flint_bitcnt_t bits : {1, 64, 300, 1024}) {
        fmpz_mat_t m, window;
        fmpz_mat_init(m, 90, 70);
        fmpz_mat_randtest(m, state, bits);
        EXPECT_TRUE(entries_contiguous(m));
        EXPECT_EQ(fmpz_mat_bits(m), std::uint64_t(std::labs(fmpz_mat_max_bits(m)))) << bits << " bits";
        fmpz_mat_window_init(window, m, 5, 3, 60, 40);
        EXPECT_FALSE(entries_contiguous(window));
        EXPECT_EQ(fmpz_mat_bits(window), std::uint64_t(std::labs(fmpz_mat_max_bits(window)))) << bits << " bits, a window";
        fmpz_mat_window_clear(window);
        fmpz_mat_clear(m);
    }
    fmpz_mat_t empty;
    fmpz_mat_init(empty, 0, 5);
    EXPECT_EQ(fmpz_mat_bits(empty), 0u);
    fmpz_mat_clear(empty);
    random_clear(state);
}

}  // namespace
}  // namespace zgpu::testing
