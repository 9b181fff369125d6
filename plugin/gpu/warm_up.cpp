// The GPU's start ahead of the first call (gpu_backend.hpp): the driver, the context, the
// streams, the pinned staging that a large result's CRT copies down through (pinning tens of MB
// takes tens of milliseconds), and the stream-ordered pool that kernels' temporaries come from,
// grown once: growing it maps memory, and a first power of 1024 coefficients, whose every
// squaring asks for more, spent 11 of its 12 ms of device time doing so; and cuBLAS, which the
// matrix products mod n use.
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
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
    // As much as the longest NTT products take; the pool keeps at least 1 GiB (runtime.cpp), so
    // this stays mapped.
    void* reserve = nullptr;
    check(cudaMallocAsync(&reserve, kernels::kPolyMulWorkspaceBytes, runtime.stream()), "growing the memory pool");
    check(cudaFreeAsync(reserve, runtime.stream()), "growing the memory pool");
    start_tensor_products(runtime);
    runtime.synchronize("starting the GPU");
}

}  // namespace zgpu::gpu
