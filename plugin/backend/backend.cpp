#include "zgpu/backend.hpp"

#include <string>

#include <flint/flint.h>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

thread_local Backend last = Backend::none;

// The pool's threads call FLINT (conversions, the CPU backend), which keeps memory per thread:
// each frees it before it ends, so that leak checkers find none. Registered here because every
// zgpu call passes through this file.
const bool flint_memory_freed_on_worker_exit = (on_worker_exit(flint_cleanup), true);

}  // namespace

std::string_view backend_name(Backend backend)
{
    switch (backend) {
    case Backend::cpu: return "cpu";
    case Backend::gpu: return "gpu";
    case Backend::none: break;
    }
    return "none";
}

Backend requested_backend()
{
    const std::string_view name = settings::backend();
    if (name == "cpu") return Backend::cpu;
    if (name == "gpu") {
        if (!gpu_available()) throw Error("ZGPU_BACKEND=gpu, but " + std::string(gpu_unavailable_reason()));
        return Backend::gpu;
    }
    return gpu_available() ? Backend::gpu : Backend::cpu;
}

bool backend_forced()
{
    return settings::backend() != "auto";
}

Backend last_backend() { return last; }
void set_last_backend(Backend backend) { last = backend; }

}  // namespace zgpu
