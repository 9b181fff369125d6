// A count of finished parts (primes, matrices) that a kernel raises as it goes and the host reads
// while it waits for the stream, for progress lines. Only plugin/gpu/ includes it.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include <cuda_runtime_api.h>

namespace zgpu::gpu {

// Told how many more parts are done, each time some are.
using PartsDone = std::function<void(std::uint64_t parts)>;

class PartsCounter {
public:
    // Without `done` the counter is off: no memory, a null pointer for the kernel, and wait()
    // only synchronises.
    explicit PartsCounter(const PartsDone& done);
    ~PartsCounter();
    PartsCounter(const PartsCounter&) = delete;
    PartsCounter& operator=(const PartsCounter&) = delete;

    // What the kernel raises: pinned host memory, which the device reaches through unified
    // addressing (its atomics are atomic among the device's threads; the host reads it, and may
    // raise it itself once the stream has drained).
    unsigned long long* device_count() const { return count_; }
    // Waits for `stream` (errors named by `what`), telling `done` of each rise of the count: polls
    // every 0.1 ms at first, doubling up to every 20 ms.
    void wait(cudaStream_t stream, std::string_view what) const;

private:
    PartsDone done_;
    unsigned long long* count_ = nullptr;
};

}  // namespace zgpu::gpu
