// The determinant of an integer matrix split over MPI ranks (zgpu_mpi.h), checked on the root
// against one process's zgpu_fmpz_mat_det, with both times. The root makes the matrix (n x n
// entries of exactly `bits` bits with random signs, from a seed); the ranks get it by broadcast.
//   mpirun -np K mpi_fmpz_mat_det_example [n] [bits] [seed]   (defaults: 200 x 200 of 64 bits, seed 1)
#include <cstdio>
#include <cstdlib>
#include <string>

#include <mpi.h>

#include <flint/fmpz_mat.h>

#include "example_support.hpp"
#include "mpi_example_support.hpp"
#include "zgpu/zgpu_matrix.h"
#include "zgpu/zgpu_mpi.h"

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const slong n = argc > 1 ? std::atol(argv[1]) : 200;
    const long bits = argc > 2 ? std::atol(argv[2]) : 64;
    const unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
    if (n < 0 || bits < 1) {
        if (rank == 0) std::fprintf(stderr, "usage: mpirun -np K %s [n >= 0] [bits >= 1] [seed]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    fmpz_mat_t a;
    fmpz_mat_init(a, rank == 0 ? n : 0, rank == 0 ? n : 0);
    if (rank == 0) {
        flint_rand_t state;
        example::random_init(state);
        example::random_seed(state, seed);
        fmpz_mat_randbits(a, state, flint_bitcnt_t(bits));
        example::random_clear(state);
    }
    const std::string what = std::to_string(n) + " x " + std::to_string(n) + ", " + std::to_string(bits) + " bits, det";
    const int status = example::compare_split(
        what.c_str(),
        [&](fmpz_t det) {
            return zgpu_mpi_fmpz_mat_det(det, rank == 0 ? a : nullptr, ZGPU_MPI_ON_ROOT, ZGPU_MPI_ON_ROOT, 0, MPI_COMM_WORLD);
        },
        [&](fmpz_t det) { return zgpu_fmpz_mat_det(det, a); });
    fmpz_mat_clear(a);
    MPI_Finalize();
    return status;
}
