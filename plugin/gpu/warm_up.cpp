// The GPU's start ahead of the first call (gpu_backend.hpp): the driver, the context, the
// streams, and the pinned staging that a large result's CRT copies down through (pinning tens of
// MB takes tens of milliseconds).
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

void warm_up()
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    runtime.make_current();
    // The two slots of a CRT of full chunks, and the operands' upload beside them.
    runtime.staging(3 * kCrtChunkBytes);
    runtime.synchronize("starting the GPU");
}

}  // namespace zgpu::gpu
