// CUDA failures seen by the kernels' launchers, raised as zgpu::Error with CUDA's message.
// Host code only.
#pragma once

#include <string>
#include <string_view>

#include <cuda_runtime_api.h>

#include "zgpu/error.hpp"

namespace zgpu::kernels {

// Throws zgpu::Error "what: CUDA's message" unless status is success.
inline void check(cudaError_t status, std::string_view what)
{
    if (status != cudaSuccess) throw Error(std::string(what) + ": " + cudaGetErrorString(status));
}

// Right after a launch on the calling thread: throws as check does if the launch failed.
inline void check_launch(std::string_view what) { check(cudaGetLastError(), what); }

// Loads a kernel into the current context now. CUDA loads each kernel at its first launch
// (lazy loading, its default), which a process's first call would otherwise wait for.
inline void load_kernel(const void* kernel, std::string_view what)
{
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, kernel), what);
}

}  // namespace zgpu::kernels
