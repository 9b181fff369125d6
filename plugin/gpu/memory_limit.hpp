// ZGPU_GPU_MEMORY_LIMIT=<bytes>: the most device memory one call's buffers may take on a device,
// so that tests can run data larger than a device would allow, and programs can leave room for
// their own. The pipeline's chunks and the blocks of matrix products shrink to fit it.
#pragma once

#include <cstddef>

namespace zgpu::gpu {

// The limit, or SIZE_MAX where it is not set; zgpu::Error for a value that is not a positive
// number of bytes.
std::size_t device_memory_limit();

}  // namespace zgpu::gpu
