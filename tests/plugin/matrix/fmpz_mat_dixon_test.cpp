// The host's part of Dixon's lifting, without a GPU: the digits of a system's exact solution
// modulo p^k (made here with FLINT) give FLINT's x and den back through solution_from_digits,
// and the lcm of the first denominators through first_denominators_lcm; entries whose
// denominators the first two lack are reconstructed themselves; bounds the solution exceeds fail.
#include <string>
#include <vector>

#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include <flint/fmpz_mat.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "flint_values.hpp"
#include "plugin/matrix/fmpz_mat_dixon.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::testing {
namespace {

// The solution q's entries modulo p^steps, as the lifting leaves them: digit s of entry e at
// digits[s count + e].
matrix::DixonSolution digits_of(const fmpq_mat_t q, limb_t p, std::size_t steps)
{
    const std::size_t n = std::size_t(q->r), cols = std::size_t(q->c), count = n * cols;
    matrix::DixonSolution solution{p, steps, n, cols, std::vector<limb_t>(steps * count)};
    FmpzValue m, value;
    solution.modulus(m.v);
    for (std::size_t e = 0; e < count; ++e) {
        const fmpq* x = fmpq_mat_entry(q, slong(e / cols), slong(e % cols));
        EXPECT_TRUE(fmpz_invmod(value.v, fmpq_denref(x), m.v));
        fmpz_mul(value.v, value.v, fmpq_numref(x));
        fmpz_mod(value.v, value.v, m.v);
        for (std::size_t s = 0; s < steps; ++s) solution.digits[s * count + e] = fmpz_fdiv_ui(value.v, p), fmpz_fdiv_q_ui(value.v, value.v, p);
    }
    return solution;
}

class DixonHost : public ::testing::Test {
protected:
    void SetUp() override { random_init(state_); }
    void TearDown() override { random_clear(state_); }

    // solution_from_digits on a x = b must give FLINT's lcm form of the exact solution.
    void expect_flints(const fmpz_mat_t a, const fmpz_mat_t b, const std::string& what)
    {
        fmpq_mat_t q;
        fmpq_mat_init(q, b->r, b->c);
        ASSERT_TRUE(fmpq_mat_solve_fmpz_mat(q, a, b)) << what;
        FmpzMat expected(b->r, b->c);
        FmpzValue expected_den, den;
        fmpq_mat_get_fmpz_mat_matwise(expected.m, expected_den.v, q);
        const matrix::SolveBounds bounds = matrix::solve_bounds(a, b);
        const matrix::DixonSolution solution =
            digits_of(q, prime_, matrix::dixon_steps(bounds.numerator_bits + 2 * bounds.denominator_bits + 1));
        FmpzMat ours(b->r, b->c);
        ASSERT_TRUE(matrix::solution_from_digits(solution, bounds, fmpz_mat_entry(ours.m, 0, 0), den.v)) << what;
        EXPECT_TRUE(fmpz_equal(den.v, expected_den.v)) << what;
        EXPECT_TRUE(fmpz_mat_equal(ours.m, expected.m)) << what;
        fmpq_mat_clear(q);
    }

    flint_rand_t state_;
    const limb_t prime_ = PrimeSet::generated(1).moduli()[0];
};

TEST_F(DixonHost, SolutionsFromDigitsMatchFlint)
{
    for (const slong n : {1, 2, 6, 17})
        for (const slong cols : {1, 3})
            for (const flint_bitcnt_t bits : {1, 20, 100}) {
                FmpzMat a(n, n), b(n, cols);
                do fmpz_mat_randtest(a.m, state_, bits);
                while (fmpz_mat_rank(a.m) < n);
                fmpz_mat_randtest(b.m, state_, bits);
                expect_flints(a.m, b.m, std::to_string(n) + " x " + std::to_string(n) + " by " + std::to_string(cols) + ", " +
                                            std::to_string(bits) + " bits");
            }
}

// x = (1, 1, 1/7, 1/11, 1/77): the first two entries give d = 1, the others fail the check and
// are reconstructed, and den is 77.
TEST_F(DixonHost, EntriesTheFirstDenominatorsLackAreReconstructed)
{
    FmpzMat a(5, 5), b(5, 1);
    fmpz_mat_one(a.m);
    fmpz_set_ui(fmpz_mat_entry(a.m, 2, 2), 7);
    fmpz_set_ui(fmpz_mat_entry(a.m, 3, 3), 11);
    fmpz_set_ui(fmpz_mat_entry(a.m, 4, 4), 77);
    for (slong i = 0; i < 5; ++i) fmpz_one(fmpz_mat_entry(b.m, i, 0));
    expect_flints(a.m, b.m, "diag(1, 1, 7, 11, 77)");
    fmpq_mat_t q;
    fmpq_mat_init(q, 5, 1);
    ASSERT_TRUE(fmpq_mat_solve_fmpz_mat(q, a.m, b.m));
    const matrix::SolveBounds bounds = matrix::solve_bounds(a.m, b.m);
    const matrix::DixonSolution solution = digits_of(q, prime_, matrix::dixon_steps(bounds.numerator_bits + bounds.denominator_bits + 1));
    FmpzValue d;
    ASSERT_TRUE(solution.first_denominators_lcm(d.v, 4, bounds.numerator_bits, bounds.denominator_bits));
    EXPECT_EQ(fmpz_get_ui(d.v), 77u);
    // Bounds the solution exceeds: 1 / 77 has no fraction with a denominator below 2^4.
    EXPECT_TRUE(solution.first_denominators_lcm(d.v, 4, 4, 4));
    EXPECT_FALSE(solution.first_denominators_lcm(d.v, 5, 4, 4));
    fmpq_mat_clear(q);
}

}  // namespace
}  // namespace zgpu::testing
