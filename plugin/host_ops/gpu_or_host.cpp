#include "plugin/host_ops/gpu_or_host.hpp"

#include <cstdio>
#include <exception>

namespace zgpu {

Backend gpu_or_host(const std::function<void()>& gpu, const std::function<void()>& host, const char* what,
                    const std::function<bool()>& written)
{
    try {
        gpu();
        return Backend::gpu;
    } catch (const std::exception& e) {  // zgpu::Error, and the host out of memory while writing
        if (!written() && backend_forced()) throw;
        std::fprintf(stderr, "zgpu: the GPU failed on %s (%s); the host computes it\n", what, e.what());
    }
    host();
    return Backend::cpu;
}

}  // namespace zgpu
