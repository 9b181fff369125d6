#include "plugin/gpu/parts_counter.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {
namespace {

// Polls start soon, so that a short call is not held up, and slow down to a line's worth of
// time: often enough for a line a tenth of a call of a second, rarely enough to cost nothing.
constexpr auto kFirstPoll = std::chrono::microseconds(100), kLongestPoll = std::chrono::microseconds(20000);

}  // namespace

PartsCounter::PartsCounter(const PartsDone& done) : done_(done)
{
    if (!done_) return;
    void* memory = nullptr;
    check(cudaHostAlloc(&memory, sizeof *count_, cudaHostAllocMapped), "allocating a progress counter");
    count_ = static_cast<unsigned long long*>(memory);
    *count_ = 0;
}

PartsCounter::~PartsCounter()
{
    if (count_) cudaFreeHost(count_);
}

void PartsCounter::wait(cudaStream_t stream, std::string_view what) const
{
    std::uint64_t told = 0;
    const auto tell = [&] {
        const std::uint64_t now = *static_cast<volatile unsigned long long*>(count_);
        if (now > told) done_(now - told), told = now;
    };
    if (count_) {
        cudaError_t status;
        for (auto poll = kFirstPoll; (status = cudaStreamQuery(stream)) == cudaErrorNotReady; poll = std::min(2 * poll, kLongestPoll)) {
            tell();
            std::this_thread::sleep_for(poll);
        }
        check(status, what);
        tell();
    }
    check(cudaStreamSynchronize(stream), what);
}

}  // namespace zgpu::gpu
