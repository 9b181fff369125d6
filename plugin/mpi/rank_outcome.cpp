#include "plugin/mpi/rank_outcome.hpp"

#include <exception>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::mpi {

RankOf rank_of(MPI_Comm comm)
{
    RankOf r{};
    MPI_Comm_rank(comm, &r.rank);
    MPI_Comm_size(comm, &r.size);
    return r;
}

void on_every_rank(MPI_Comm comm, const std::function<void()>& part)
{
    const RankOf me = rank_of(comm);
    std::string message;
    bool failed = false;
    try {
        part();
    } catch (const std::exception& e) {
        failed = true;
        message = e.what();
    } catch (...) {
        failed = true;
        message = "unknown error";
    }
    // The lowest failed rank, or size where none failed; then that rank's message to all.
    int mine = failed ? me.rank : me.size, first = me.size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == me.size) return;
    int length = int(message.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    message.resize(std::size_t(length));
    MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
    throw Error(message + " (on rank " + std::to_string(first) + " of " + std::to_string(me.size) + ")");
}

}  // namespace zgpu::mpi
