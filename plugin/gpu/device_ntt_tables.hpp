// The NTT's twiddle tables on a runtime's device (layout: kernels/ntt/ntt_tables.hpp), computed
// and uploaded on first use and kept for the life of the process. Only built with the GPU backend.
#pragma once

#include "kernels/ntt/ntt_tables.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// The caller holds a Lease of `runtime`, which also guards the first use.
const kernels::NttTables& ntt_tables(Runtime& runtime);

}  // namespace zgpu::gpu
