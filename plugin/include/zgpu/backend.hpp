// Which backend runs an operation, and how the choice is made.
#pragma once

#include <string_view>

namespace zgpu {

// none: no backend ran (before any call, or after a call refused for its arguments).
enum class Backend { cpu, gpu, none };

std::string_view backend_name(Backend backend);

// True when this build has the GPU backend and a usable CUDA device is present.
bool gpu_available();
// Why gpu_available() is false: no device, or a build without CUDA.
std::string_view gpu_unavailable_reason();

// The backend the environment asks for: ZGPU_BACKEND=cpu, gpu or auto (the default).
// Throws zgpu::Error for ZGPU_BACKEND=gpu on a machine or build without a GPU, or for an
// unknown value. With auto, the GPU is used where present.
Backend requested_backend();

// Whether ZGPU_BACKEND names a backend (cpu or gpu) rather than leaving the choice to zgpu.
bool backend_forced();

// The backend that ran the last zgpu call on this thread; the C entry points reset it to none
// when they start, so a refused C call leaves none.
Backend last_backend();
void set_last_backend(Backend backend);

}  // namespace zgpu
