// zgpu_mpi_fmpz_mat_det and zgpu_mpi_fmpz_poly_resultant on every rank of MPI_COMM_WORLD
// against FLINT's fmpz_mat_det and fmpz_poly_resultant on each rank (the cases are listed at
// check_determinants and check_resultants); the input on the root or on all ranks, the result on
// the root or on all, the first and the last rank as root. Errors: a rank's part made to fail
// (ZGPU_MPI_TEST_FAIL_RANK), a root's bad argument, a root that is no rank: -1 on every rank
// with the same message, and nothing written. Run under mpiexec with any number of ranks; exits
// 1 on every rank where a check failed on any. With --hang-one-rank (two ranks or more), the
// last rank's part never ends, and the others must end the job within ZGPU_MPI_TIMEOUT.
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>

#include "flint_random.hpp"
#include "tests/mpi/mpi_check.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_mpi.h"

namespace {

using mpi_check::expect;
using mpi_check::rank;
using mpi_check::ranks;

// The value an output must keep where no result is written.
const char* const kUntouched = "123456789";

// One split call: out, input, result, root; returns the C status.
using SplitCall = std::function<int(fmpz_t out, int input, int result, int root)>;

// Every way of calling: the value checked on the ranks that get it, untouched elsewhere.
void check_every_way(const fmpz_t expected, const std::string& name, const SplitCall& call)
{
    fmpz_t out;
    fmpz_init(out);
    for (const int input : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
        for (const int result : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
            for (const int root : {0, ranks - 1}) {
                fmpz_set_str(out, kUntouched, 10);
                const int status = call(out, input, result, root);
                const std::string what = name + ", input " + std::to_string(input) + ", result " + std::to_string(result) +
                                         ", root " + std::to_string(root);
                expect(status == 0, what + ": " + zgpu_last_error());
                if (result == ZGPU_MPI_ON_ALL || rank == root) {
                    expect(fmpz_equal(out, expected), what + ": not FLINT's value");
                } else {
                    expect(fmpz_cmp_ui(out, 123456789) == 0, what + ": the result written off the root");
                }
            }
    fmpz_clear(out);
}

void check_det(const fmpz_mat_t a, const std::string& name)
{
    fmpz_t expected;
    fmpz_init(expected);
    fmpz_mat_det(expected, a);
    check_every_way(expected, "det, " + name, [&](fmpz_t det, int input, int result, int root) {
        const bool gets_a = input == ZGPU_MPI_ON_ALL || rank == root;
        return zgpu_mpi_fmpz_mat_det(det, gets_a ? a : nullptr, input, result, root, MPI_COMM_WORLD);
    });
    fmpz_clear(expected);
}

void check_resultant(const fmpz_poly_t a, const fmpz_poly_t b, const std::string& name)
{
    fmpz_t expected;
    fmpz_init(expected);
    fmpz_poly_resultant(expected, a, b);
    check_every_way(expected, "resultant, " + name, [&](fmpz_t res, int input, int result, int root) {
        const bool gets_ab = input == ZGPU_MPI_ON_ALL || rank == root;
        return zgpu_mpi_fmpz_poly_resultant(res, gets_ab ? a : nullptr, gets_ab ? b : nullptr, input, result, root,
                                            MPI_COMM_WORLD);
    });
    fmpz_clear(expected);
}

// A call every rank makes that must fail on every rank with a message containing `part`.
void check_failure(const std::string& what, const std::string& part, const std::function<int(fmpz_t out)>& call)
{
    fmpz_t out;
    fmpz_init(out);
    fmpz_set_str(out, kUntouched, 10);
    mpi_check::expect_failure(call(out), what, part);
    expect(fmpz_cmp_ui(out, 123456789) == 0, what + ": the result written");
    fmpz_clear(out);
}

// Determinants: empty, 1 x 1 (fewer primes than ranks), random, singular, with a zero row,
// entries at their largest, a window; then the errors.
void check_determinants(flint_rand_t state)
{
    struct Shape {
        slong n;
        flint_bitcnt_t bits;
    };
    for (const Shape s : {Shape{0, 1}, Shape{1, 3}, Shape{1, 1000}, Shape{2, 64}, Shape{7, 100}, Shape{20, 64}, Shape{25, 300},
                          Shape{10, 2000}}) {
        fmpz_mat_t a;
        fmpz_mat_init(a, s.n, s.n);
        fmpz_mat_randtest(a, state, s.bits);
        check_det(a, std::to_string(s.n) + " x " + std::to_string(s.n) + ", " + std::to_string(s.bits) + " bits");
        fmpz_mat_clear(a);
    }
    fmpz_mat_t a, window;
    fmpz_mat_init(a, 16, 16);
    // Singular: the last row the sum of the first two. Then a zero row. Then every entry at its
    // largest, signs alternating (a determinant near Hadamard's bound).
    fmpz_mat_randtest(a, state, 200);
    for (slong j = 0; j < 16; ++j) fmpz_add(fmpz_mat_entry(a, 15, j), fmpz_mat_entry(a, 0, j), fmpz_mat_entry(a, 1, j));
    check_det(a, "16 x 16, singular");
    for (slong j = 0; j < 16; ++j) fmpz_zero(fmpz_mat_entry(a, 7, j));
    check_det(a, "16 x 16, a zero row");
    for (slong i = 0; i < 16; ++i)
        for (slong j = 0; j < 16; ++j) {
            fmpz* e = fmpz_mat_entry(a, i, j);
            fmpz_one(e);
            fmpz_mul_2exp(e, e, 500);
            fmpz_sub_ui(e, e, 1);
            if ((i * j + i) % 3 == 1) fmpz_neg(e, e);
        }
    check_det(a, "16 x 16, entries 2^500 - 1");
    fmpz_mat_randtest(a, state, 90);
    fmpz_mat_window_init(window, a, 3, 2, 13, 12);
    check_det(window, "a 10 x 10 window");
    fmpz_mat_window_clear(window);

    // Errors, alike on every rank; a's entries all of 90 bits, so that no row is zero and every
    // rank with primes computes its part.
    fmpz_mat_randbits(a, state, 90);
    setenv("ZGPU_MPI_TEST_FAIL_RANK", std::to_string(ranks - 1).c_str(), 1);
    check_failure("det, a rank's part failing", "failed on purpose (ZGPU_MPI_TEST_FAIL_RANK) (on rank " + std::to_string(ranks - 1),
                  [&](fmpz_t det) { return zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD); });
    unsetenv("ZGPU_MPI_TEST_FAIL_RANK");
    fmpz_mat_t wide;
    fmpz_mat_init(wide, 3, 4);
    check_failure("det, a root's matrix not square", "a is 3 x 4, not square (on rank 0", [&](fmpz_t det) {
        return zgpu_mpi_fmpz_mat_det(det, rank == 0 ? wide : nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    });
    check_failure("det, a root that is no rank", "root " + std::to_string(ranks) + " is not a rank", [&](fmpz_t det) {
        return zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, ranks, MPI_COMM_WORLD);
    });
    setenv("ZGPU_MPI_TIMEOUT", "0", 1);
    check_failure("det, a bad ZGPU_MPI_TIMEOUT", "ZGPU_MPI_TIMEOUT='0': expected a positive number of seconds", [&](fmpz_t det) {
        return zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    });
    unsetenv("ZGPU_MPI_TIMEOUT");
    if (ranks > 1)
        check_failure("det, ranks passing different roots", "the ranks passed different roots, inputs, results or lengths", [&](fmpz_t det) {
            return zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, rank % 2, MPI_COMM_WORLD);
        });
    fmpz_mat_clear(wide);
    fmpz_mat_clear(a);
}

// Calls over two communicators of the same size that share rank 0 ({0, 1}, then {0, 2}), in
// turn: each call's shares are its root's, whatever the other communicator's calls taught rank 0.
void check_communicators_of_one_size(flint_rand_t state)
{
    if (ranks < 3) return;
    MPI_Comm first, second;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &first);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank == 2 ? 0 : MPI_UNDEFINED, rank, &second);
    fmpz_mat_t a;
    fmpz_mat_init(a, 30, 30);
    fmpz_t expected, det;
    fmpz_init(expected);
    fmpz_init(det);
    for (int round = 0; round < 4; ++round) {
        fmpz_mat_randtest(a, state, 200);
        fmpz_mat_det(expected, a);
        for (MPI_Comm comm : {first, second}) {
            if (comm == MPI_COMM_NULL) continue;
            const int status = zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 1, comm);
            expect(status == 0 && fmpz_equal(det, expected),
                   "det over two communicators of one size, round " + std::to_string(round) + ": " + zgpu_last_error());
        }
    }
    fmpz_clear(expected);
    fmpz_clear(det);
    fmpz_mat_clear(a);
    for (MPI_Comm* comm : {&first, &second})
        if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

// A random polynomial of exactly `length` coefficients of `bits` bits, the leading one times
// `lead_factor`.
void random_poly(fmpz_poly_t f, slong length, flint_bitcnt_t bits, const fmpz_t lead_factor, flint_rand_t state)
{
    fmpz_poly_randtest(f, state, length, bits);
    fmpz_t c;
    fmpz_init(c);
    fmpz_randtest_not_zero(c, state, bits);
    fmpz_mul(c, c, lead_factor);
    fmpz_poly_set_coeff_fmpz(f, length - 1, c);
    fmpz_clear(c);
}

// Resultants: a zero polynomial, constants, random lengths and sizes, leading coefficients that
// every prime of the call divides (so that each rank's reduced polynomials lose their degrees),
// a result aliasing a coefficient; then the errors.
void check_resultants(flint_rand_t state)
{
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    fmpz_t one;
    fmpz_init_set_ui(one, 1);
    random_poly(a, 5, 40, one, state);
    check_resultant(a, b, "b zero");
    struct Lengths {
        slong a, b;
        flint_bitcnt_t bits;
    };
    for (const Lengths l : {Lengths{1, 1, 10}, Lengths{1, 6, 200}, Lengths{4, 1, 64}, Lengths{2, 2, 3}, Lengths{9, 5, 100},
                            Lengths{30, 25, 64}, Lengths{12, 40, 500}}) {
        random_poly(a, l.a, l.bits, one, state);
        random_poly(b, l.b, l.bits, one, state);
        check_resultant(a, b, "lengths " + std::to_string(l.a) + " and " + std::to_string(l.b) + ", " + std::to_string(l.bits) + " bits");
    }
    // A leading coefficient that the first 64 primes zgpu takes divide: against a polynomial of
    // degree 1 the bound needs about 66 primes, so nearly every rank's reduced polynomial loses
    // its degree. Both divisible: the first half of the primes.
    const zgpu::PrimeSet first = zgpu::PrimeSet::generated(64);
    random_poly(a, 3, 20, first.product(), state);
    random_poly(b, 2, 20, one, state);
    check_resultant(a, b, "lc(a) divisible by the first 64 primes");
    check_resultant(b, a, "lc(b) divisible by the first 64 primes");
    random_poly(b, 2, 20, first.product(), state);
    check_resultant(a, b, "both leading coefficients divisible by the first 64 primes");

    random_poly(a, 6, 64, one, state);
    random_poly(b, 4, 64, one, state);
    fmpz_t expected;
    fmpz_init(expected);
    fmpz_poly_resultant(expected, a, b);
    const int status = zgpu_mpi_fmpz_poly_resultant(a->coeffs + 2, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    expect(status == 0 && fmpz_equal(a->coeffs + 2, expected), "resultant, res aliasing a coefficient of a");
    fmpz_clear(expected);

    setenv("ZGPU_MPI_TEST_FAIL_RANK", std::to_string(ranks - 1).c_str(), 1);
    check_failure("resultant, a rank's part failing",
                  "mpi_fmpz_poly_resultant: this rank's part failed on purpose (ZGPU_MPI_TEST_FAIL_RANK) (on rank " +
                      std::to_string(ranks - 1),
                  [&](fmpz_t res) { return zgpu_mpi_fmpz_poly_resultant(res, a, b, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD); });
    unsetenv("ZGPU_MPI_TEST_FAIL_RANK");
    check_failure("resultant, b NULL on the root", "b is NULL (on rank 0", [&](fmpz_t res) {
        return zgpu_mpi_fmpz_poly_resultant(res, rank == 0 ? a : nullptr, nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL, 0,
                                            MPI_COMM_WORLD);
    });
    check_failure("resultant, an unknown result place", "result is 7, not ZGPU_MPI_ON_ROOT or ZGPU_MPI_ON_ALL", [&](fmpz_t res) {
        return zgpu_mpi_fmpz_poly_resultant(res, a, b, ZGPU_MPI_ON_ALL, 7, 0, MPI_COMM_WORLD);
    });
    fmpz_clear(one);
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
}

}  // namespace

// A rank that never ends its part: the others end the job after ZGPU_MPI_TIMEOUT's 2 seconds,
// saying so; returning is a failure.
int hang_one_rank()
{
    setenv("ZGPU_MPI_TEST_HANG_RANK", std::to_string(ranks - 1).c_str(), 1);
    setenv("ZGPU_MPI_TIMEOUT", "2", 1);
    fmpz_mat_t a;
    fmpz_mat_init(a, 8, 8);
    for (slong i = 0; i < 8; ++i) fmpz_set_ui(fmpz_mat_entry(a, i, i), ulong(i + 2));
    fmpz_t det;
    fmpz_init(det);
    const int status = zgpu_mpi_fmpz_mat_det(det, a, ZGPU_MPI_ON_ALL, ZGPU_MPI_ON_ALL, 0, MPI_COMM_WORLD);
    std::printf("rank %d of %d: the call returned %d: the job should have ended\n", rank, ranks, status);
    fmpz_clear(det);
    fmpz_mat_clear(a);
    MPI_Finalize();
    return 1;
}

int main(int argc, char** argv)
{
    mpi_check::start(&argc, &argv);
    if (argc > 1 && std::string(argv[1]) == "--hang-one-rank") return hang_one_rank();
    flint_rand_t state;  // the same seed on every rank: the same inputs
    random_init(state);
    check_determinants(state);
    check_communicators_of_one_size(state);
    check_resultants(state);
    random_clear(state);
    return mpi_check::finish();
}
