// What ZGPU_TIMING's report on stderr says of a call: how many chunks the GPU's pipeline cut it
// into, for tests that need many chunks (ZGPU_GPU_MEMORY_LIMIT set small), and other counts.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace zgpu::testing {

// The largest number that follows `marker` anywhere in ZGPU_TIMING's log (0 if none does).
inline std::size_t most_after(const std::string& log, const std::string& marker)
{
    std::size_t most = 0;
    for (std::size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1))
        most = std::max<std::size_t>(most, std::strtoull(log.c_str() + at + marker.size(), nullptr, 10));
    return most;
}

// Runs call() with stderr captured; returns the most chunks a pipeline run reported (ZGPU_TIMING
// must be set).
template <class Call>
std::size_t chunks_of(Call call)
{
    ::testing::internal::CaptureStderr();
    call();
    return most_after(::testing::internal::GetCapturedStderr(), "elements on the GPU in ");
}

}  // namespace zgpu::testing
