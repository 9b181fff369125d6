#include "host_dispatch.hpp"

#include "zgpu/backend.hpp"

#ifdef ZGPU_WITH_CUDA
#include "gpu_add_sub_host.hpp"
#endif

namespace zgpu {
namespace {

// Add/sub of host data: packing, PCIe both ways and unpacking cost more than the CPU's own
// addition at every size measured (128 bits to 2^19 bits, H200 host with 16 threads, see
// bench/results/), so the automatic choice is the CPU; ZGPU_BACKEND=gpu forces the GPU.
Backend choose_for_host_add_sub()
{
    const Backend requested = requested_backend();  // rejects unknown ZGPU_BACKEND values
    return backend_forced() ? requested : Backend::cpu;
}

}  // namespace

void add_sub_host(const std::function<HostOperand()>& make_a, const std::function<HostOperand()>& make_b,
                  std::size_t count, bool subtract, const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    const Backend backend = choose_for_host_add_sub();
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) gpu::add_sub(make_a(), make_b(), count, subtract, on_gpu_result);
    else
#endif
        on_cpu();
    set_last_backend(backend);
}

}  // namespace zgpu
