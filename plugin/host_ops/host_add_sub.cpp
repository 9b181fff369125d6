// Addition and subtraction of host data.
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/result_strides.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/host_ops.hpp"

namespace zgpu {

// Packing, PCIe both ways and unpacking cost more than the CPU's own addition at every size
// measured (128 bits to 2^19 bits, H200 host with 16 threads, see bench/results/), so the
// automatic choice is the CPU; ZGPU_BACKEND=gpu forces the GPU.
void add_sub_host(const std::function<HostOperand()>& make_a, const std::function<HostOperand()>& make_b,
                  std::size_t count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    const auto on_gpu = [&] {
        const HostOperand a = make_a(), b = make_b();
        return gpu::host_add_sub(a, b, count, subtract, gpu::sum_stride(a.max_limbs, b.max_limbs), on_gpu_result,
                                 [&](std::size_t first) { on_cpu(first, count); });
    };
    run_on(choose(false), on_gpu, [&] { on_cpu(0, count); });
}

}  // namespace zgpu
