// zgpu_mpi_fmpz_mat_det on every rank of MPI_COMM_WORLD against FLINT's fmpz_mat_det on each
// rank: empty, 1 x 1 (fewer primes than ranks), random, singular, with a zero row, windows and
// entries at their largest; the input on the root or on all ranks, the result on the root or on
// all, the first and the last rank as root. Errors: a rank's part made to fail
// (ZGPU_MPI_TEST_FAIL_RANK), a root's bad matrix, a root that is no rank: -1 on every rank with
// the same message, and nothing written. Run under mpiexec with any number of ranks; exits 1 on
// every rank where a check failed on any.
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz_mat.h>

#include "flint_random.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_mpi.h"

namespace {

int rank = 0, ranks = 1, failures = 0;

void expect(bool ok, const std::string& what)
{
    if (ok) return;
    ++failures;
    std::fprintf(stderr, "rank %d of %d: %s\n", rank, ranks, what.c_str());
}

// The value det must keep where no result is written.
const char* const kUntouched = "123456789";

struct Case {
    std::string name;
    fmpz_mat_t a;
};

// Every way of calling for one matrix: det checked on the ranks that get it, untouched elsewhere.
void check_every_way(const fmpz_mat_t a, const std::string& name)
{
    fmpz_t expected, det;
    fmpz_init(expected);
    fmpz_init(det);
    fmpz_mat_det(expected, a);
    for (const int input : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
        for (const int result : {ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ALL})
            for (const int root : {0, ranks - 1}) {
                fmpz_set_str(det, kUntouched, 10);
                const bool gets_a = input == ZGPU_MPI_ON_ALL || rank == root;
                const int status = zgpu_mpi_fmpz_mat_det(det, gets_a ? a : nullptr, input, result, root, MPI_COMM_WORLD);
                const std::string what = name + ", input " + std::to_string(input) + ", result " + std::to_string(result) +
                                         ", root " + std::to_string(root);
                expect(status == 0, what + ": " + zgpu_last_error());
                if (result == ZGPU_MPI_ON_ALL || rank == root) {
                    expect(fmpz_equal(det, expected), what + ": not FLINT's determinant");
                } else {
                    expect(fmpz_cmp_ui(det, 123456789) == 0, what + ": det written off the root");
                }
            }
    fmpz_clear(expected);
    fmpz_clear(det);
}

// A call every rank makes that must fail on every rank with a message containing `part`.
void check_failure(const std::string& what, const std::string& part, const fmpz_mat_t a, int input, int root)
{
    fmpz_t det;
    fmpz_init(det);
    fmpz_set_str(det, kUntouched, 10);
    const int status = zgpu_mpi_fmpz_mat_det(det, a, input, ZGPU_MPI_ON_ALL, root, MPI_COMM_WORLD);
    const std::string message = zgpu_last_error();
    expect(status == -1, what + ": did not fail");
    expect(message.find(part) != std::string::npos, what + ": the message '" + message + "' lacks '" + part + "'");
    expect(fmpz_cmp_ui(det, 123456789) == 0, what + ": det written");
    fmpz_clear(det);
}

}  // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    flint_rand_t state;  // the same seed on every rank: the same matrices
    random_init(state);

    struct Shape {
        slong n;
        flint_bitcnt_t bits;
    };
    for (const Shape s : {Shape{0, 1}, Shape{1, 3}, Shape{1, 1000}, Shape{2, 64}, Shape{7, 100}, Shape{20, 64}, Shape{25, 300},
                          Shape{10, 2000}}) {
        fmpz_mat_t a;
        fmpz_mat_init(a, s.n, s.n);
        fmpz_mat_randtest(a, state, s.bits);
        check_every_way(a, std::to_string(s.n) + " x " + std::to_string(s.n) + ", " + std::to_string(s.bits) + " bits");
        fmpz_mat_clear(a);
    }
    fmpz_mat_t a, window;
    fmpz_mat_init(a, 16, 16);
    // Singular: the last row the sum of the first two. Then a zero row. Then every entry at its
    // largest, signs alternating (a determinant near Hadamard's bound).
    fmpz_mat_randtest(a, state, 200);
    for (slong j = 0; j < 16; ++j) fmpz_add(fmpz_mat_entry(a, 15, j), fmpz_mat_entry(a, 0, j), fmpz_mat_entry(a, 1, j));
    check_every_way(a, "16 x 16, singular");
    for (slong j = 0; j < 16; ++j) fmpz_zero(fmpz_mat_entry(a, 7, j));
    check_every_way(a, "16 x 16, a zero row");
    for (slong i = 0; i < 16; ++i)
        for (slong j = 0; j < 16; ++j) {
            fmpz* e = fmpz_mat_entry(a, i, j);
            fmpz_one(e);
            fmpz_mul_2exp(e, e, 500);
            fmpz_sub_ui(e, e, 1);
            if ((i * j + i) % 3 == 1) fmpz_neg(e, e);
        }
    check_every_way(a, "16 x 16, entries 2^500 - 1");
    fmpz_mat_randtest(a, state, 90);
    fmpz_mat_window_init(window, a, 3, 2, 13, 12);
    check_every_way(window, "a 10 x 10 window");
    fmpz_mat_window_clear(window);

    // Errors, alike on every rank; a's entries all of 90 bits, so that no row is zero and every
    // rank with primes computes its part.
    fmpz_mat_randbits(a, state, 90);
    setenv("ZGPU_MPI_TEST_FAIL_RANK", std::to_string(ranks - 1).c_str(), 1);
    check_failure("a rank's part failing", "failed on purpose (ZGPU_MPI_TEST_FAIL_RANK) (on rank " + std::to_string(ranks - 1), a,
                  ZGPU_MPI_ON_ALL, 0);
    unsetenv("ZGPU_MPI_TEST_FAIL_RANK");
    fmpz_mat_t wide;
    fmpz_mat_init(wide, 3, 4);
    check_failure("a root's matrix not square", "a is 3 x 4, not square (on rank 0", rank == 0 ? wide : nullptr, ZGPU_MPI_ON_ROOT,
                  0);
    check_failure("a root that is no rank", "root " + std::to_string(ranks) + " is not a rank", a, ZGPU_MPI_ON_ALL, ranks);
    fmpz_mat_clear(wide);
    fmpz_mat_clear(a);
    random_clear(state);

    int all_failures = 0;
    MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%d ranks: %s\n", ranks, all_failures == 0 ? "every check passed" : "checks failed");
    MPI_Finalize();
    return all_failures == 0 ? 0 : 1;
}
