// Which of a machine's GPUs each rank drives: unless ZGPU_DEVICES or ZGPU_DEVICE says, the ranks
// that share a machine share its GPUs out (device_share in shares.hpp), so that no two ranks
// drive one GPU while another idles.
#pragma once

#include <mpi.h>

namespace zgpu::mpi {

// At the first call on a rank that has a GPU and neither ZGPU_DEVICES nor ZGPU_DEVICE set: this
// process's GPUs (set_gpu_devices) by device_share, from its rank among the ranks of comm on its
// machine (MPI_COMM_TYPE_SHARED). Collective over comm.
void share_devices(MPI_Comm comm);

}  // namespace zgpu::mpi
