#include "host_operand.hpp"

#ifdef ZGPU_WITH_CUDA
#include "gpu_add_sub_host.hpp"
#endif

namespace zgpu {
namespace {

// Host data is sent to the GPU for add/sub only from this many operand limbs on; below it
// the conversions and PCIe transfers cost more than the CPU's own addition.
// Measured end to end by bench/bench_add_sub (see bench/results/).
constexpr std::size_t kGpuHostAddSubMinLimbs = std::size_t(1) << 62;

Backend choose(std::size_t operand_limbs)
{
    const Backend requested = requested_backend();
    if (backend_forced() || requested == Backend::cpu) return requested;
    return operand_limbs >= kGpuHostAddSubMinLimbs ? Backend::gpu : Backend::cpu;
}

}  // namespace

void add_sub_host(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract,
                  const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    const Backend backend = choose(count * (std::size_t(a.max_limbs) + b.max_limbs));
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) gpu::add_sub(a, b, count, subtract, on_gpu_result);
    else
#endif
        on_cpu();
    set_last_backend(backend);
}

}  // namespace zgpu
