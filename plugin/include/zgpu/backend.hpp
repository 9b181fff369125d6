// Which backend runs an operation, and how the choice is made.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace zgpu {

// none: no backend ran (before any call, or after a call refused for its arguments).
enum class Backend { cpu, gpu, none };

std::string_view backend_name(Backend backend);

// True when this build has the GPU backend and a usable CUDA device is present.
bool gpu_available();
// Why gpu_available() is false: no device, or a build without CUDA.
std::string_view gpu_unavailable_reason();

// The CUDA devices the GPU backend uses, in order. Operations on host data split their chunks
// over all of them; device-resident objects (DeviceBatch, ResidueBatch) live on the first, and
// operations on them run there. Chosen on first use from ZGPU_DEVICES (a comma-separated list
// such as "0,1"), else ZGPU_DEVICE (one device), else every visible device. Throws
// zgpu::Error without a GPU.
std::vector<int> gpu_devices();
// Replaces that list for the rest of the process. A device may be listed more than once: each
// entry has its own streams and memory, so that the splitting can be tried on one GPU. Objects
// made on the first device before a change that moves it stay where they are, and operations
// on them then fail with an error naming both devices. Throws zgpu::Error, changing nothing,
// for an empty list, a device that does not exist, or no GPU.
void set_gpu_devices(std::span<const int> devices);

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
