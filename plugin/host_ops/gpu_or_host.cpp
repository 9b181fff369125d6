#include "plugin/host_ops/gpu_or_host.hpp"

#include <cstdio>
#include <exception>

#include "plugin/host_ops/dispatch.hpp"

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

std::optional<Backend> gpu_unless_it_stands_aside(const std::function<bool()>& gpu, const std::function<void()>& host,
                                                  const char* what)
{
    bool computed = false;
    Backend ran = Backend::gpu;
    run_on(
        Backend::gpu,
        [&] {
            return ran = gpu_or_host([&] { computed = gpu(); },
                                     [&] {
                                         host();
                                         computed = true;
                                     },
                                     what);
        },
        {});
    if (!computed) return std::nullopt;
    return ran;
}

}  // namespace zgpu
