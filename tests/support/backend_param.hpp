// Runs a test suite once per backend; the GPU run is skipped, with the reason, without a GPU.
#pragma once

#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "zgpu/backend.hpp"

namespace zgpu {
// Test names and failure messages show "cpu" or "gpu".
inline void PrintTo(Backend backend, std::ostream* os) { *os << backend_name(backend); }
}  // namespace zgpu

namespace zgpu::testing {

inline std::string backend_param_name(const ::testing::TestParamInfo<Backend>& info)
{
    return std::string(backend_name(info.param));
}

// Call first in SetUp(): skips the GPU instance where there is no GPU.
#ifdef ZGPU_WITH_CUDA
#define ZGPU_SKIP_WITHOUT(backend) \
    if ((backend) == ::zgpu::Backend::gpu && !::zgpu::gpu_available()) GTEST_SKIP() << "no CUDA device on this machine"
#else
#define ZGPU_SKIP_WITHOUT(backend) \
    if ((backend) == ::zgpu::Backend::gpu) GTEST_SKIP() << "zgpu was built without CUDA (no nvcc found)"
#endif

// The number of random cases: full on the GPU, a sixteenth on the CPU so CI stays short.
inline std::size_t scaled(std::size_t full, Backend backend) { return backend == Backend::gpu ? full : full / 16; }

}  // namespace zgpu::testing
