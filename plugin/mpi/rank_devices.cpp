#include "plugin/mpi/rank_devices.hpp"

#include <mutex>
#include <vector>

#include "base/settings.hpp"
#include "plugin/mpi/shares.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::mpi {

void share_devices(MPI_Comm comm)
{
    MPI_Comm machine;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine);
    int local_rank = 0, local_ranks = 1;
    MPI_Comm_rank(machine, &local_rank);
    MPI_Comm_size(machine, &local_ranks);
    MPI_Comm_free(&machine);
    if (!gpu_available() || !settings::devices().empty()) return;
    static std::once_flag once;
    std::call_once(once, [&] {
        const std::vector<int> all = gpu_devices();
        std::vector<int> mine;
        for (const int d : device_share(local_rank, local_ranks, int(all.size()))) mine.push_back(all[std::size_t(d)]);
        set_gpu_devices(mine);
    });
}

}  // namespace zgpu::mpi
