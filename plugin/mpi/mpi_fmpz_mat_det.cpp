// det(a) over the ranks of a communicator (zgpu_mpi.h): det_over_ranks.hpp says how.
#include <string>

#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/det_over_ranks.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "zgpu/mpi.hpp"

namespace zgpu::mpi {

void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm)
{
    const std::string function = "mpi_fmpz_mat_det";
    comm = begin_call(function, det, "det", input, result, root, comm);
    const DetInput in = input_on_every_rank<DetInput>(input, root, comm, [&] { return DetInput::read(function, a); });
    FmpzTemp value;
    det_over_ranks(value.get(), function, in, root, comm);
    deliver(det, value.get(), result, root, comm);
}

}  // namespace zgpu::mpi
