#include "zgpu/backend.hpp"

#include <cstdlib>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu {
namespace {

thread_local Backend last = Backend::cpu;

std::string requested_name()
{
    const char* value = std::getenv("ZGPU_BACKEND");
    return value ? value : "auto";
}

}  // namespace

std::string_view backend_name(Backend backend)
{
    return backend == Backend::gpu ? "gpu" : "cpu";
}

Backend requested_backend()
{
    const std::string name = requested_name();
    if (name == "cpu") return Backend::cpu;
    if (name == "gpu") {
        if (!gpu_available()) throw Error("ZGPU_BACKEND=gpu, but " + std::string(gpu_unavailable_reason()));
        return Backend::gpu;
    }
    if (name == "auto" || name.empty()) return gpu_available() ? Backend::gpu : Backend::cpu;
    throw Error("ZGPU_BACKEND='" + name + "' is not one of cpu, gpu, auto");
}

bool backend_forced()
{
    const std::string name = requested_name();
    return name == "cpu" || name == "gpu";
}

Backend last_backend() { return last; }
void set_last_backend(Backend backend) { last = backend; }

}  // namespace zgpu
