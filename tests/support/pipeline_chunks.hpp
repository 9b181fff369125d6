// How many chunks the GPU's pipeline cut a call into, from ZGPU_TIMING's report on stderr: for
// tests that need a call to run in many chunks (ZGPU_GPU_MEMORY_LIMIT set small).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace zgpu::testing {

// Runs call() with stderr captured; returns the most chunks a pipeline run reported (ZGPU_TIMING
// must be set).
template <class Call>
std::size_t chunks_of(Call call)
{
    ::testing::internal::CaptureStderr();
    call();
    const std::string log = ::testing::internal::GetCapturedStderr();
    std::size_t most = 0;
    const std::string marker = "elements on the GPU in ";
    for (std::size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1))
        most = std::max<std::size_t>(most, std::strtoull(log.c_str() + at + marker.size(), nullptr, 10));
    return most;
}

}  // namespace zgpu::testing
