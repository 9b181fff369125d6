#include "plugin/host_ops/dispatch.hpp"

#include "base/parallel.hpp"
#include "plugin/gpu/result_strides.hpp"

namespace zgpu {

Backend choose(bool gpu_pays)
{
    const Backend requested = requested_backend();
    if (backend_forced() || requested == Backend::cpu) return requested;
    return gpu_pays ? Backend::gpu : Backend::cpu;
}

void run_on(Backend backend, const std::function<Backend()>& on_gpu, const std::function<void()>& on_cpu)
{
    // Either backend calls parallel_for several times in a row (checks, computation, results):
    // the pool polls between them instead of sleeping, for this call only.
    const KeepWorkersAwake awake;
    if (backend == Backend::gpu) return set_last_backend(on_gpu());
    // Before it runs: a computation that fails (an inexact checked division) still names the
    // backend that ran it, as on the GPU, where that is found after on_gpu() returned.
    set_last_backend(Backend::cpu);
    on_cpu();
}

std::uint32_t product_stride(const HostOperand& a, const HostOperand& b)
{
    return gpu::product_stride(a.max_limbs, b.max_limbs);
}

bool product_fits_batch(const HostOperand& a, const HostOperand& b)
{
    return a.too_large.empty() && b.too_large.empty() && product_stride(a, b) <= kMaxLimbs;
}

HostShape shape_of(const HostOperand& a, const HostOperand& b, std::size_t count, std::size_t b_count)
{
    return {a.max_limbs, b.max_limbs, b_count == 1 || &a == &b, count};
}

}  // namespace zgpu
