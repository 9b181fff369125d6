#include "zgpu/batch_ops.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "cpu_add_sub.hpp"
#include "zgpu/error.hpp"
#ifdef ZGPU_WITH_CUDA
#include "../kernels/add_sub.hpp"
#include "gpu_runtime.hpp"
#endif

namespace zgpu {
namespace {

void add_sub(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, bool subtract)
{
    const std::string name = subtract ? "sub" : "add";
    if (a.count() != b.count())
        throw Error(name + ": a has " + std::to_string(a.count()) + " elements, b has " + std::to_string(b.count()));
    if (a.backend() != b.backend())
        throw Error(name + ": a is on the " + std::string(backend_name(a.backend())) + " backend, b on the " +
                    std::string(backend_name(b.backend())));
    const std::uint32_t bound = std::max(a.stride(), b.stride()) + 1;
    if (bound > kMaxLimbs)
        throw Error(name + ": the result's stride would exceed the supported " + std::to_string(kMaxLimbs) +
                    " limbs (a and b have strides " + std::to_string(a.stride()) + " and " +
                    std::to_string(b.stride()) + ")");
    // A result of the right shape that is neither operand is written in place: chains of
    // operations then allocate nothing. Otherwise the result goes to new storage.
    const bool reuse = &r != &a && &r != &b && r.backend() == a.backend() && r.count() == a.count() &&
                       r.stride() == size_class(bound);
    std::optional<DeviceBatch> fresh;
    if (!reuse) fresh.emplace(a.backend(), a.count(), size_class(bound), DeviceBatch::Uninitialized{});
    DeviceBatch& out = reuse ? r : *fresh;
#ifdef ZGPU_WITH_CUDA
    if (a.backend() == Backend::gpu) {
        auto& runtime = gpu::Runtime::get();
        const gpu::Runtime::Lease lease(runtime);
        kernels::add_sub(a.view(), b.view(), out.view(), subtract, runtime.stream());
    } else
#endif
        cpu::add_sub(a.view(), b.view(), out.view(), subtract);
    if (fresh) r = std::move(*fresh);
    set_last_backend(a.backend());
}

}  // namespace

void add(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { add_sub(r, a, b, false); }
void sub(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { add_sub(r, a, b, true); }

void synchronize(Backend backend)
{
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        auto& runtime = gpu::Runtime::get();
        const gpu::Runtime::Lease lease(runtime);
        runtime.synchronize("work queued on the GPU");
    }
#endif
    (void)backend;
}

}  // namespace zgpu
