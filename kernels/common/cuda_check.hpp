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

}  // namespace zgpu::kernels
