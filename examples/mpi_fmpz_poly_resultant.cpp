// The resultant of two integer polynomials split over MPI ranks (zgpu_mpi.h), checked on the
// root against one process's zgpu_fmpz_poly_resultant, with both times. The root makes the
// polynomials (`length` coefficients each of exactly `bits` bits with random signs, from a
// seed); the ranks get them by broadcast.
//   mpirun -np K mpi_fmpz_poly_resultant_example [length] [bits] [seed]   (defaults: 500, 64 bits, seed 1)
#include <cstdio>
#include <cstdlib>
#include <string>

#include <mpi.h>

#include <flint/fmpz_poly.h>

#include "example_support.hpp"
#include "mpi_example_support.hpp"
#include "zgpu/zgpu_mpi.h"
#include "zgpu/zgpu_poly.h"

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const slong length = argc > 1 ? std::atol(argv[1]) : 500;
    const long bits = argc > 2 ? std::atol(argv[2]) : 64;
    const unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
    if (length < 1 || bits < 1) {
        if (rank == 0) std::fprintf(stderr, "usage: mpirun -np K %s [length >= 1] [bits >= 1] [seed]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    if (rank == 0) {
        flint_rand_t state;
        example::random_init(state);
        example::random_seed(state, seed);
        for (fmpz_poly_struct* f : {a, b}) {
            fmpz_poly_fit_length(f, length);
            for (slong i = 0; i < length; ++i) {
                fmpz_randbits(f->coeffs + i, state, flint_bitcnt_t(bits));
                if (fmpz_is_zero(f->coeffs + i)) fmpz_one(f->coeffs + i);
            }
            _fmpz_poly_set_length(f, length);
        }
        example::random_clear(state);
    }
    const std::string what = "lengths " + std::to_string(length) + ", " + std::to_string(bits) + " bits, resultant";
    const int status = example::compare_split(
        what.c_str(),
        [&](fmpz_t res) {
            return zgpu_mpi_fmpz_poly_resultant(res, rank == 0 ? a : nullptr, rank == 0 ? b : nullptr, ZGPU_MPI_ON_ROOT,
                                                ZGPU_MPI_ON_ROOT, 0, MPI_COMM_WORLD);
        },
        [&](fmpz_t res) { return zgpu_fmpz_poly_resultant(res, a, b); });
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
    MPI_Finalize();
    return status;
}
