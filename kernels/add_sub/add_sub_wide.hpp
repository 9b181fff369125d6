// Add/sub of instances too long for one block: several blocks an instance.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/common/limb_access.cuh"

namespace zgpu::kernels {

// Same contract as add_sub (add_sub.hpp). Keeps a device workspace between calls: callers
// serialise their calls (the plugin holds the GPU runtime's lock).
void add_sub_wide(const AddSubArgs& args, cudaStream_t stream);

}  // namespace zgpu::kernels
