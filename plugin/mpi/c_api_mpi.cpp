// The MPI layer's C entry points (zgpu_mpi.h): the C++ call with its errors as -1 and
// zgpu_last_error's message.
#include <string>

#include "plugin/flint/c_report.hpp"
#include "zgpu/error.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/zgpu_mpi.h"

namespace {

zgpu::mpi::Where where(int value, const char* argument)
{
    if (value == ZGPU_MPI_ON_ROOT) return zgpu::mpi::Where::root;
    if (value == ZGPU_MPI_ON_ALL) return zgpu::mpi::Where::all;
    throw zgpu::Error(std::string("mpi_fmpz_mat_det: ") + argument + " is " + std::to_string(value) +
                      ", not ZGPU_MPI_ON_ROOT or ZGPU_MPI_ON_ALL");
}

}  // namespace

int zgpu_mpi_fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, int input, int result, int root, MPI_Comm comm)
{
    return zgpu::report(__func__, [&] {
        zgpu::mpi::fmpz_mat_det(det, a, where(input, "input"), where(result, "result"), root, comm);
    });
}
