// The MPI layer's C entry points (zgpu_mpi.h): the C++ call with its errors as -1 and
// zgpu_last_error's message.
#include <string>

#include "plugin/flint/c_prime_set.hpp"
#include "plugin/flint/c_report.hpp"
#include "plugin/mpi/vec_crt_over_ranks.hpp"
#include "zgpu/error.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/zgpu_mpi.h"

namespace {

zgpu::mpi::Where where(int value, const char* function, const char* argument)
{
    if (value == ZGPU_MPI_ON_ROOT) return zgpu::mpi::Where::root;
    if (value == ZGPU_MPI_ON_ALL) return zgpu::mpi::Where::all;
    throw zgpu::Error(std::string(function) + ": " + argument + " is " + std::to_string(value) +
                      ", not ZGPU_MPI_ON_ROOT or ZGPU_MPI_ON_ALL");
}

}  // namespace

int zgpu_mpi_fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, int input, int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        zgpu::mpi::fmpz_mat_det(det, a, where(input, "mpi_fmpz_mat_det", "input"), where(result, "mpi_fmpz_mat_det", "result"),
                                root, comm);
    });
}

int zgpu_mpi_fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b, int input, int result, int root,
                                 MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const char* function = "mpi_fmpz_poly_resultant";
        zgpu::mpi::fmpz_poly_resultant(res, a, b, where(input, function, "input"), where(result, function, "result"), root, comm);
    });
}

int zgpu_mpi_fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, int input, int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const char* function = "mpi_fmpz_poly_mul";
        zgpu::mpi::fmpz_poly_mul(res, a, b, where(input, function, "input"), where(result, function, "result"), root, comm);
    });
}

int zgpu_mpi_fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b, int input, int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const char* function = "mpi_fmpz_mat_mul";
        zgpu::mpi::fmpz_mat_mul(c, a, b, where(input, function, "input"), where(result, function, "result"), root, comm);
    });
}

int zgpu_mpi_fmpz_mat_solve(int* nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b, int input, int result,
                            int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const char* function = "mpi_fmpz_mat_solve";
        zgpu::mpi::fmpz_mat_solve(nonsingular, x, den, a, b, where(input, function, "input"), where(result, function, "result"), root,
                                  comm);
    });
}

int zgpu_mpi_fmpz_mat_inv(int* invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a, int input, int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const char* function = "mpi_fmpz_mat_inv";
        zgpu::mpi::fmpz_mat_inv(invertible, b, den, a, where(input, function, "input"), where(result, function, "result"), root, comm);
    });
}

int zgpu_mpi_fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const zgpu_prime_set_t set, int sign,
                                   int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        const zgpu::PrimeSet* given = set && set->set ? &zgpu::prime_set(set) : nullptr;
        zgpu::mpi::vec_crt_over_ranks(vec, residues, len, given, sign != 0, where(result, "mpi_fmpz_vec_multi_CRT_ui", "result"), root,
                                      comm);
    });
}
