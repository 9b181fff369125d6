// zgpu_mpi_fmpz_poly_mul, zgpu_mpi_fmpz_mat_mul, zgpu_mpi_fmpz_mat_solve, zgpu_mpi_fmpz_mat_inv and
// zgpu_mpi_fmpz_vec_multi_CRT_ui on every rank of MPI_COMM_WORLD against FLINT on each rank (the
// cases are listed at check_poly_products, check_mat_products, check_solutions and
// check_vector_crts): the input on the root or on all ranks, the result
// on the root or on all, the first and the last rank as root, outputs that alias inputs; then
// the errors, -1 on every rank with nothing written. Run under mpiexec with any number of ranks.
#include <gmp.h>

#include <bit>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>

#include "flint_random.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_parts.hpp"
#include "tests/mpi/mpi_check.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/residue_matrix.hpp"
#include "zgpu/zgpu_modular.h"
#include "zgpu/zgpu_mpi.h"

namespace {

using mpi_check::expect;
using mpi_check::rank;
using mpi_check::ranks;

// What an output holds before a call, and must keep where no result is written to it.
const char* const kUntouched = "123456789";

// Every way of calling `call(input, result, root)`: `written()` checked on the ranks that get
// the result, `untouched()` elsewhere; `reset()` before each call.
void check_every_way(const std::string& name, const std::function<int(int input, int result, int root)>& call,
                     const std::function<void()>& reset, const std::function<bool()>& written, const std::function<bool()>& untouched)
{
    for (const int input : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
        for (const int result : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
            for (const int root : {0, ranks - 1}) {
                reset();
                const int status = call(input, result, root);
                const std::string what = name + ", input " + std::to_string(input) + ", result " + std::to_string(result) +
                                         ", root " + std::to_string(root);
                expect(status == 0, what + ": " + zgpu_last_error());
                if (result == ZGPU_MPI_ON_ALL || rank == root) {
                    expect(written(), what + ": not FLINT's result");
                } else {
                    expect(untouched(), what + ": the result written off the root");
                }
            }
}

bool gets_input(int input, int root) { return input == ZGPU_MPI_ON_ALL || rank == root; }

void check_poly_mul(const fmpz_poly_t a, const fmpz_poly_t b, const std::string& name)
{
    fmpz_poly_t expected, res, untouched;
    fmpz_poly_init(expected);
    fmpz_poly_init(res);
    fmpz_poly_init(untouched);
    fmpz_poly_mul(expected, a, b);
    fmpz_poly_set_str(untouched, "3  1 2 3");
    check_every_way(
        "poly_mul, " + name,
        [&](int input, int result, int root) {
            const bool here = gets_input(input, root);
            return zgpu_mpi_fmpz_poly_mul(res, here ? a : nullptr, here ? b : nullptr, input, result, root, MPI_COMM_WORLD);
        },
        [&] { fmpz_poly_set(res, untouched); }, [&] { return fmpz_poly_equal(res, expected) != 0; },
        [&] { return fmpz_poly_equal(res, untouched) != 0; });
    fmpz_poly_clear(expected);
    fmpz_poly_clear(res);
    fmpz_poly_clear(untouched);
}

// Products of polynomials: a zero one, constants, lengths where one is much the shorter, sizes
// up to thousands of bits, coefficients all 2^b - 1 with alternating signs (the bound's tightest
// case); res aliasing a, and a square by aliasing; then the errors.
void check_poly_products(flint_rand_t state)
{
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    fmpz_poly_randtest(a, state, 5, 40);
    check_poly_mul(a, b, "b zero");
    struct Lengths {
        slong a, b;
        flint_bitcnt_t bits;
    };
    for (const Lengths l : {Lengths{1, 1, 10}, Lengths{1, 6, 200}, Lengths{5, 1, 64}, Lengths{9, 5, 100}, Lengths{30, 25, 64},
                            Lengths{40, 12, 500}, Lengths{100, 100, 2000}, Lengths{300, 7, 64}}) {
        fmpz_poly_randtest_not_zero(a, state, l.a, l.bits);
        fmpz_poly_randtest_not_zero(b, state, l.b, l.bits);
        check_poly_mul(a, b, "lengths " + std::to_string(a->length) + " and " + std::to_string(b->length) + ", " + std::to_string(l.bits) + " bits");
    }
    for (fmpz_poly_struct* f : {a, b}) {
        fmpz_poly_zero(f);
        for (slong i = 0; i < 64; ++i) {
            fmpz_t c;
            fmpz_init(c);
            fmpz_one(c);
            fmpz_mul_2exp(c, c, 300);
            fmpz_sub_ui(c, c, 1);
            if (f == b && i % 2 == 1) fmpz_neg(c, c);
            fmpz_poly_set_coeff_fmpz(f, i, c);
            fmpz_clear(c);
        }
    }
    check_poly_mul(a, b, "64 coefficients +-(2^300 - 1)");

    fmpz_poly_randtest_not_zero(a, state, 20, 90);
    fmpz_poly_randtest_not_zero(b, state, 13, 90);
    fmpz_poly_t expected;
    fmpz_poly_init(expected);
    fmpz_poly_mul(expected, a, b);
    int status = zgpu_mpi_fmpz_poly_mul(a, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && fmpz_poly_equal(a, expected), "poly_mul, res aliasing a");
    fmpz_poly_mul(expected, b, b);
    status = zgpu_mpi_fmpz_poly_mul(b, b, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && fmpz_poly_equal(b, expected), "poly_mul, a square, res aliasing both");

    fmpz_poly_set(expected, a);
    setenv("ZGPU_MPI_TEST_FAIL_RANK", std::to_string(ranks - 1).c_str(), 1);
    status = zgpu_mpi_fmpz_poly_mul(a, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    unsetenv("ZGPU_MPI_TEST_FAIL_RANK");
    mpi_check::expect_failure(status, "poly_mul, a rank's part failing", "failed on purpose (ZGPU_MPI_TEST_FAIL_RANK) (on rank " + std::to_string(ranks - 1));
    expect(fmpz_poly_equal(a, expected), "poly_mul, a rank's part failing: res (aliasing a) written");
    status = zgpu_mpi_fmpz_poly_mul(a, rank == 0 ? a : nullptr, nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "poly_mul, b NULL on the root", "b is NULL (on rank 0");
    expect(fmpz_poly_equal(a, expected), "poly_mul, b NULL on the root: res written");
    fmpz_poly_clear(expected);
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
}

void check_mat_mul(const fmpz_mat_t a, const fmpz_mat_t b, const std::string& name)
{
    fmpz_mat_t expected, c, untouched;
    fmpz_mat_init(expected, a->r, b->c);
    fmpz_mat_init(c, a->r, b->c);
    fmpz_mat_init(untouched, a->r, b->c);
    fmpz_mat_mul(expected, a, b);
    for (slong i = 0; i < a->r; ++i)
        for (slong j = 0; j < b->c; ++j) fmpz_set_str(fmpz_mat_entry(untouched, i, j), kUntouched, 10);
    check_every_way(
        "mat_mul, " + name,
        [&](int input, int result, int root) {
            const bool here = gets_input(input, root);
            return zgpu_mpi_fmpz_mat_mul(c, here ? a : nullptr, here ? b : nullptr, input, result, root, MPI_COMM_WORLD);
        },
        [&] { fmpz_mat_set(c, untouched); }, [&] { return fmpz_mat_equal(c, expected) != 0; },
        [&] { return fmpz_mat_equal(c, untouched) != 0; });
    fmpz_mat_clear(expected);
    fmpz_mat_clear(c);
    fmpz_mat_clear(untouched);
}

// Matrix products: empty shapes, an empty inner dimension, 1 x 1, thin and wide shapes, a zero
// operand, entries all 2^500 - 1 with signs (the bound's tightest case), a window; c aliasing a;
// then the errors.
void check_mat_products(flint_rand_t state)
{
    struct Shape {
        slong rows, inner, cols;
        flint_bitcnt_t bits;
    };
    for (const Shape s : {Shape{0, 3, 2, 10}, Shape{2, 0, 3, 10}, Shape{3, 2, 0, 10}, Shape{1, 1, 1, 3}, Shape{1, 1, 1, 1000},
                          Shape{3, 5, 2, 64}, Shape{17, 9, 13, 300}, Shape{1, 40, 1, 100}, Shape{8, 8, 8, 2000}, Shape{33, 1, 20, 64}}) {
        fmpz_mat_t a, b;
        fmpz_mat_init(a, s.rows, s.inner);
        fmpz_mat_init(b, s.inner, s.cols);
        fmpz_mat_randtest(a, state, s.bits);
        fmpz_mat_randtest(b, state, s.bits);
        check_mat_mul(a, b,
                      std::to_string(s.rows) + " x " + std::to_string(s.inner) + " times " + std::to_string(s.inner) + " x " +
                          std::to_string(s.cols) + ", " + std::to_string(s.bits) + " bits");
        fmpz_mat_zero(a);
        if (s.rows > 0 && s.cols > 0 && s.inner > 0) check_mat_mul(a, b, "a zero " + std::to_string(s.rows) + " x " + std::to_string(s.inner));
        fmpz_mat_clear(a);
        fmpz_mat_clear(b);
    }
    fmpz_mat_t a, b, window, expected;
    fmpz_mat_init(a, 12, 12);
    fmpz_mat_init(b, 12, 12);
    fmpz_mat_init(expected, 12, 12);
    for (slong i = 0; i < 12; ++i)
        for (slong j = 0; j < 12; ++j) {
            for (fmpz_mat_struct* m : {a, b}) {
                fmpz* e = fmpz_mat_entry(m, i, j);
                fmpz_one(e);
                fmpz_mul_2exp(e, e, 500);
                fmpz_sub_ui(e, e, 1);
            }
            if ((i + j) % 2 == 1) fmpz_neg(fmpz_mat_entry(b, i, j), fmpz_mat_entry(b, i, j));
        }
    check_mat_mul(a, b, "12 x 12, entries +-(2^500 - 1)");
    fmpz_mat_randtest(a, state, 90);
    fmpz_mat_window_init(window, a, 2, 1, 9, 11);
    fmpz_mat_randtest(b, state, 70);
    fmpz_mat_t thin;
    fmpz_mat_window_init(thin, b, 0, 3, 10, 8);
    check_mat_mul(window, thin, "a 7 x 10 window times a 10 x 5 one");
    fmpz_mat_window_clear(thin);
    fmpz_mat_window_clear(window);

    fmpz_mat_mul(expected, a, b);
    int status = zgpu_mpi_fmpz_mat_mul(a, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && fmpz_mat_equal(a, expected), "mat_mul, c aliasing a");

    fmpz_mat_set(expected, a);
    fmpz_mat_t wide;
    fmpz_mat_init(wide, 12, 13);
    status = zgpu_mpi_fmpz_mat_mul(a, rank == 0 ? a : nullptr, rank == 0 ? wide : nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL, 0,
                                   MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "mat_mul, c of the wrong shape", "c is 12 x 12, not 12 x 13");
    expect(fmpz_mat_equal(a, expected), "mat_mul, c of the wrong shape: c written");
    status = zgpu_mpi_fmpz_mat_mul(a, rank == 0 ? wide : nullptr, rank == 0 ? a : nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL, 0,
                                   MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "mat_mul, a's columns not b's rows", "a is 12 x 13 and b 12 x 12: a's columns must be b's rows");
    expect(fmpz_mat_equal(a, expected), "mat_mul, a's columns not b's rows: c written");
    fmpz_mat_clear(wide);
    fmpz_mat_clear(a);
    fmpz_mat_clear(b);
    fmpz_mat_clear(expected);
}

// a x = den b, or where b is NULL x / den = a^-1 (zgpu_mpi_fmpz_mat_inv). A singular system
// gives 0, den = 0 and x untouched, whoever decides it.
void check_solve(const fmpz_mat_t a, const fmpz_mat_struct* b, const std::string& name)
{
    const slong cols = b ? b->c : a->c;
    fmpz_mat_t expected, x, untouched;
    fmpz_mat_init(expected, a->r, cols);
    fmpz_mat_init(x, a->r, cols);
    fmpz_mat_init(untouched, a->r, cols);
    fmpz_t expected_den, den;
    fmpz_init(expected_den);
    fmpz_init(den);
    const int solvable = b ? fmpz_mat_solve(expected, expected_den, a, b) : fmpz_mat_inv(expected, expected_den, a);
    for (slong i = 0; i < a->r; ++i)
        for (slong j = 0; j < cols; ++j) fmpz_set_str(fmpz_mat_entry(untouched, i, j), kUntouched, 10);
    int answer = 7;
    check_every_way(
        (b ? "solve, " : "inv, ") + name,
        [&](int input, int result, int root) {
            const bool here = gets_input(input, root);
            if (!b) return zgpu_mpi_fmpz_mat_inv(&answer, x, den, here ? a : nullptr, input, result, root, MPI_COMM_WORLD);
            return zgpu_mpi_fmpz_mat_solve(&answer, x, den, here ? a : nullptr, here ? b : nullptr, input, result, root, MPI_COMM_WORLD);
        },
        [&] {
            fmpz_mat_set(x, untouched);
            fmpz_set_str(den, kUntouched, 10);
            answer = 7;
        },
        [&] {
            if (!solvable) return answer == 0 && fmpz_is_zero(den) && fmpz_mat_equal(x, untouched);
            return answer == 1 && fmpz_equal(den, expected_den) && fmpz_mat_equal(x, expected);
        },
        [&] { return answer == 7 && fmpz_cmp_ui(den, 123456789) == 0 && fmpz_mat_equal(x, untouched); });
    fmpz_clear(expected_den);
    fmpz_clear(den);
    fmpz_mat_clear(expected);
    fmpz_mat_clear(x);
    fmpz_mat_clear(untouched);
}

// Solutions and inverses: empty, up to 15 rows (FLINT's answer on the root), beyond (the
// determinant and Cramer's numerators over the ranks) with one and several columns, no columns,
// singular matrices (a row the sum of two, a zero row), large entries; x aliasing b and b
// aliasing a; then the errors.
void check_solutions(flint_rand_t state)
{
    struct Shape {
        slong n, cols;
        flint_bitcnt_t bits;
    };
    for (const Shape s : {Shape{0, 0, 10}, Shape{3, 2, 50}, Shape{15, 1, 64}, Shape{16, 1, 64}, Shape{20, 3, 100}, Shape{24, 2, 300},
                          Shape{20, 0, 64}, Shape{17, 1, 2000}}) {
        fmpz_mat_t a, b;
        fmpz_mat_init(a, s.n, s.n);
        fmpz_mat_init(b, s.n, s.cols);
        fmpz_mat_randtest(a, state, s.bits);
        fmpz_mat_randtest(b, state, s.bits);
        const std::string size = std::to_string(s.n) + " x " + std::to_string(s.n) + " by " + std::to_string(s.cols) + ", " + std::to_string(s.bits) + " bits";
        check_solve(a, b, size);
        if (s.cols == 1) check_solve(a, nullptr, std::to_string(s.n) + " x " + std::to_string(s.n) + ", " + std::to_string(s.bits) + " bits");
        if (s.n >= 3) {
            for (slong j = 0; j < s.n; ++j) fmpz_add(fmpz_mat_entry(a, s.n - 1, j), fmpz_mat_entry(a, 0, j), fmpz_mat_entry(a, 1, j));
            check_solve(a, b, size + ", singular");
            check_solve(a, nullptr, std::to_string(s.n) + " x " + std::to_string(s.n) + ", singular");
            for (slong j = 0; j < s.n; ++j) fmpz_zero(fmpz_mat_entry(a, 1, j));
            check_solve(a, b, size + ", a zero row");
        }
        fmpz_mat_clear(a);
        fmpz_mat_clear(b);
    }
    fmpz_mat_t a, b, expected, wide;
    fmpz_mat_init(a, 18, 18);
    fmpz_mat_init(b, 18, 2);
    fmpz_mat_init(expected, 18, 2);
    fmpz_mat_init(wide, 18, 3);
    fmpz_mat_randtest(a, state, 80);
    fmpz_mat_randtest(b, state, 80);
    fmpz_t den, expected_den;
    fmpz_init(den);
    fmpz_init(expected_den);
    int nonsingular = 0;
    const int solvable = fmpz_mat_solve(expected, expected_den, a, b);
    int status = zgpu_mpi_fmpz_mat_solve(&nonsingular, b, den, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && nonsingular == solvable && fmpz_mat_equal(b, expected) && fmpz_equal(den, expected_den), "solve, x aliasing b");

    fmpz_mat_t inverse, a_copy;
    fmpz_mat_init(inverse, 18, 18);
    fmpz_mat_init_set(a_copy, a);
    const int invertible = fmpz_mat_inv(inverse, expected_den, a);
    status = zgpu_mpi_fmpz_mat_inv(&nonsingular, a_copy, den, a_copy, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && nonsingular == invertible && fmpz_mat_equal(a_copy, inverse) && fmpz_equal(den, expected_den),
           "inv, b aliasing a");
    status = zgpu_mpi_fmpz_mat_inv(&nonsingular, wide, den, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "inv, b of the wrong shape", "b is 18 x 3, not 18 x 18");
    fmpz_mat_clear(inverse);
    fmpz_mat_clear(a_copy);

    fmpz_mat_set(expected, b);
    status = zgpu_mpi_fmpz_mat_solve(&nonsingular, wide, den, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "solve, x of the wrong shape", "x is 18 x 3, not 18 x 2");
    fmpz_mat_t short_b;
    fmpz_mat_init(short_b, 17, 3);
    status = zgpu_mpi_fmpz_mat_solve(&nonsingular, wide, den, a, short_b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "solve, b of other rows", "b has 17 rows and a 18: they must be equal");
    setenv("ZGPU_MPI_TEST_FAIL_RANK", std::to_string(ranks - 1).c_str(), 1);
    status = zgpu_mpi_fmpz_mat_solve(&nonsingular, b, den, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    unsetenv("ZGPU_MPI_TEST_FAIL_RANK");
    mpi_check::expect_failure(status, "solve, a rank's part failing", "failed on purpose (ZGPU_MPI_TEST_FAIL_RANK) (on rank " + std::to_string(ranks - 1));
    expect(fmpz_mat_equal(b, expected), "solve, the errors: x (aliasing b) written");
    fmpz_clear(den);
    fmpz_clear(expected_den);
    fmpz_mat_clear(short_b);
    fmpz_mat_clear(a);
    fmpz_mat_clear(b);
    fmpz_mat_clear(expected);
    fmpz_mat_clear(wide);
}

// The residues of x[0 .. len) modulo each modulus of `set`, residues[i][e] (one array a modulus).
std::vector<std::vector<ulong>> residues_of(const fmpz* x, slong len, const zgpu_prime_set_t set)
{
    const slong k = zgpu_prime_set_size(set);
    const ulong* moduli = zgpu_prime_set_moduli(set);
    std::vector<std::vector<ulong>> residues(static_cast<std::size_t>(k), std::vector<ulong>(static_cast<std::size_t>(len)));
    for (slong i = 0; i < k; ++i)
        for (slong e = 0; e < len; ++e) residues[std::size_t(i)][std::size_t(e)] = fmpz_fdiv_ui(x + e, moduli[i]);
    return residues;
}

std::vector<const ulong*> pointers(const std::vector<std::vector<ulong>>& residues)
{
    std::vector<const ulong*> p;
    for (const auto& r : residues) p.push_back(r.data());
    return p;
}

// The vector CRT: each rank's own set (rank r: `per_rank` moduli from the r per_rank-th of the
// generated primes; rank 0's empty where `first_empty`), values spread over the whole product
// and at its ends, both ranges, every result and root; then the errors.
void check_vector_crt(slong len, slong per_rank, bool first_empty, flint_rand_t state)
{
    zgpu_prime_set_t all, mine;
    zgpu_prime_set_init_ntt_primes(all, per_rank * ranks);
    const ulong* moduli = zgpu_prime_set_moduli(all);
    const slong from = first_empty && rank == 0 ? 0 : per_rank * rank, count = first_empty && rank == 0 ? 0 : per_rank;
    zgpu_prime_set_init(mine, moduli + from, count);
    fmpz_t product, half;
    fmpz_init(product);
    fmpz_init(half);
    fmpz_one(product);
    for (slong i = first_empty ? per_rank : 0; i < per_rank * ranks; ++i) fmpz_mul_ui(product, product, moduli[i]);
    fmpz_fdiv_q_2exp(half, product, 1);
    fmpz* x = _fmpz_vec_init(len);
    fmpz* out = _fmpz_vec_init(len);
    for (const int sign : {0, 1}) {
        for (slong e = 0; e < len; ++e) {  // P is odd: [-half, half] is the symmetric range
            fmpz_randm(x + e, state, product);
            if (sign) fmpz_sub(x + e, x + e, half);
        }
        // The ends of the range: P - 1 and 0; or, P odd, (P - 1) / 2 and its negation.
        if (len > 1) fmpz_sub_ui(x + 1, sign ? half : product, sign ? 0 : 1);
        if (len > 2) sign ? fmpz_neg(x + 2, half) : fmpz_zero(x + 2);
        const auto residues = residues_of(x, len, mine);
        const auto rows = pointers(residues);
        const std::string name = "vec_multi_CRT_ui, len " + std::to_string(len) + ", " + std::to_string(per_rank) + " moduli a rank" +
                                 (first_empty ? " (rank 0 none)" : "") + ", sign " + std::to_string(sign);
        for (const int result : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
            for (const int root : {0, ranks - 1}) {
                for (slong e = 0; e < len; ++e) fmpz_set_str(out + e, kUntouched, 10);
                const int status = zgpu_mpi_fmpz_vec_multi_CRT_ui(out, rows.data(), len, mine, sign, result, root, MPI_COMM_WORLD);
                const std::string what = name + ", result " + std::to_string(result) + ", root " + std::to_string(root);
                expect(status == 0, what + ": " + zgpu_last_error());
                bool same = true, untouched = true;
                for (slong e = 0; e < len; ++e) {
                    same = same && fmpz_equal(out + e, x + e);
                    untouched = untouched && fmpz_cmp_ui(out + e, 123456789) == 0;
                }
                if (result == ZGPU_MPI_ON_ALL || rank == root) {
                    expect(same, what + ": not the values");
                } else {
                    expect(untouched, what + ": the result written off the root");
                }
            }
    }
    _fmpz_vec_clear(x, len);
    _fmpz_vec_clear(out, len);
    fmpz_clear(product);
    fmpz_clear(half);
    zgpu_prime_set_clear(mine);
    zgpu_prime_set_clear(all);
}

void check_vector_crts(flint_rand_t state)
{
    check_vector_crt(0, 3, false, state);
    check_vector_crt(1, 1, false, state);
    check_vector_crt(5, 4, false, state);
    check_vector_crt(1000, 7, false, state);
    if (ranks > 1) check_vector_crt(200, 5, true, state);

    // Errors: sets that share moduli (every rank the same set), lengths that differ, no set.
    zgpu_prime_set_t set;
    zgpu_prime_set_init_ntt_primes(set, 4);
    std::vector<ulong> zeros(10, 0);
    const std::vector<const ulong*> rows(4, zeros.data());
    fmpz* out = _fmpz_vec_init(10);
    if (ranks > 1) {
        int status = zgpu_mpi_fmpz_vec_multi_CRT_ui(out, rows.data(), 10, set, 1, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
        mpi_check::expect_failure(status, "vec_multi_CRT_ui, the same set on every rank", "are not coprime");
        status = zgpu_mpi_fmpz_vec_multi_CRT_ui(out, rows.data(), 10 - rank % 2, set, 1, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
        mpi_check::expect_failure(status, "vec_multi_CRT_ui, lengths that differ", "the ranks passed different roots, inputs, results or lengths");
    }
    zgpu_prime_set_t none;
    none->set = nullptr;
    const int status = zgpu_mpi_fmpz_vec_multi_CRT_ui(out, rows.data(), 10, rank == 0 ? none : set, 1, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    mpi_check::expect_failure(status, "vec_multi_CRT_ui, no set on rank 0", "the prime set is NULL or was not initialised (on rank 0");
    bool untouched = true;
    for (slong e = 0; e < 10; ++e) untouched = untouched && fmpz_is_zero(out + e);
    expect(untouched, "vec_multi_CRT_ui, the errors: vec written");
    _fmpz_vec_clear(out, 10);
    zgpu_prime_set_clear(set);
}

// Values larger than a batch holds (kMaxLimbs limbs, 2^22 bits) through the CRT tree and to
// every rank: rank r's modulus the r-th of 2^N - 1, 2^N, 2^N + 1, 2^N + 3 (pairwise coprime:
// each pair's gcd divides 4 or 3 and neither is even or divisible by 3 both), N = 2^21 + 1000, so
// that two ranks' product passes 2^22 bits; the values v and -v for a random v below the product.
void check_values_beyond_a_batch(flint_rand_t state)
{
    if (ranks > 4) return;
    const auto modulus_of = [](fmpz_t m, int r) {
        const long offsets[4] = {-1, 0, 1, 3};
        fmpz_one(m);
        fmpz_mul_2exp(m, m, (flint_bitcnt_t(1) << 21) + 1000);
        offsets[r] < 0 ? fmpz_sub_ui(m, m, 1) : fmpz_add_ui(m, m, ulong(offsets[r]));
    };
    fmpz_t product, modulus;
    fmpz_init(product);
    fmpz_init(modulus);
    fmpz_one(product);
    for (int r = 0; r < ranks; ++r) {
        modulus_of(modulus, r);
        fmpz_mul(product, product, modulus);
    }
    modulus_of(modulus, rank);
    fmpz* v = _fmpz_vec_init(2);
    fmpz* mine = _fmpz_vec_init(2);
    fmpz_randm(v, state, product);
    fmpz_sub(v + 1, product, v);  // -v mod P
    for (int e = 0; e < 2; ++e) fmpz_mod(mine + e, v + e, modulus);
    zgpu::mpi::crt_tree(mine, 2, modulus, 0, MPI_COMM_WORLD);
    zgpu::mpi::broadcast_values(mine, 2, 0, MPI_COMM_WORLD);
    zgpu::mpi::broadcast_fmpz(modulus, 0, MPI_COMM_WORLD);
    expect(fmpz_equal(modulus, product) && fmpz_equal(mine, v) && fmpz_equal(mine + 1, v + 1),
           "values of " + std::to_string(fmpz_bits(product)) + " bits through the CRT tree and to every rank");
    _fmpz_vec_clear(v, 2);
    _fmpz_vec_clear(mine, 2);
    fmpz_clear(product);
    fmpz_clear(modulus);
}

// A rank's part in groups of primes (as a share beyond kMaxGroupPrimes takes it), forced here by
// groups of at most 3 of 10 primes: a matrix product modulo their product, against FLINT's; and
// a group that declines makes the whole decline.
void check_prime_groups(flint_rand_t state)
{
    const zgpu::PrimeSet primes = zgpu::PrimeSet::generated(10);
    fmpz_mat_t a, b, c;
    fmpz_mat_init(a, 4, 5);
    fmpz_mat_init(b, 5, 3);
    fmpz_mat_init(c, 4, 3);
    fmpz_mat_randtest(a, state, 400);
    fmpz_mat_randtest(b, state, 400);
    fmpz_mat_mul(c, a, b);
    const zgpu::LimbBatch x = zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(a, 0, 0), 20, "a");
    const zgpu::LimbBatch y = zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(b, 0, 0), 15, "b");
    zgpu::FmpzVecTemp values(12);
    std::uint64_t primes_done = 0;
    zgpu::mpi::part_on_host(
        values.data(), 12, primes, x, y,
        [](const zgpu::ResidueBatch& u, const zgpu::ResidueBatch& v) {
            zgpu::ResidueBatch product(u.prime_set(), 0, zgpu::Backend::cpu);
            zgpu::mat_mul(product, u, v, 4, 5, 3);
            return product;
        },
        [&](std::uint64_t done) { primes_done += done; }, 3);
    bool same = primes_done == 10;
    fmpz_t expected;
    fmpz_init(expected);
    for (slong e = 0; e < 12; ++e) {
        fmpz_mod(expected, fmpz_mat_entry(c, e / 3, e % 3), primes.product());
        same = same && fmpz_equal(values.data() + e, expected);
    }
    expect(same, "a part in groups of 3 of 10 primes: not FLINT's product modulo theirs");
    int groups = 0;
    const bool served = zgpu::mpi::in_prime_groups(
        values.data(), 12, primes, 3, [&](const zgpu::PrimeSet&, fmpz*) { return ++groups < 2; }, {});
    expect(!served && groups == 2, "a group that declines: the groups went on");
    fmpz_clear(expected);
    fmpz_mat_clear(a);
    fmpz_mat_clear(b);
    fmpz_mat_clear(c);
}

}  // namespace

int main(int argc, char** argv)
{
    mpi_check::start(&argc, &argv);
    flint_rand_t state;  // the same seed on every rank: the same inputs
    random_init(state);
    check_poly_products(state);
    check_mat_products(state);
    check_solutions(state);
    check_vector_crts(state);
    check_values_beyond_a_batch(state);
    check_prime_groups(state);
    random_clear(state);
    return mpi_check::finish();
}
