// What ZGPU_TIMING reports of a GPU call: host time on a steady clock, and the device time of
// its phases (uploads, products, CRT, downloads) from CUDA events around each stretch of a phase
// on its stream, summed when read. The events are off, and free, unless ZGPU_TIMING is set.
// Only plugin/gpu/ includes it.
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "base/settings.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

using Clock = std::chrono::steady_clock;

inline double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

class PhaseTimes {
public:
    explicit PhaseTimes(int phases) : on_(settings::timing()), stretches_(phases) {}
    ~PhaseTimes()
    {
        for (auto& phase : stretches_)
            for (auto& [from, to] : phase) {
                if (from) cudaEventDestroy(from);
                if (to) cudaEventDestroy(to);
            }
    }
    PhaseTimes(const PhaseTimes&) = delete;
    PhaseTimes& operator=(const PhaseTimes&) = delete;

    bool on() const { return on_; }
    // A stretch of `phase` starts, or ends, at this point of `stream`.
    void begin(int phase, cudaStream_t stream)
    {
        if (!on_) return;
        auto& [from, to] = stretches_[phase].emplace_back(nullptr, nullptr);
        check(cudaEventCreate(&from), "creating timing events");
        check(cudaEventCreate(&to), "creating timing events");
        check(cudaEventRecord(from, stream), "recording a timing event");
    }
    void end(int phase, cudaStream_t stream)
    {
        if (on_) check(cudaEventRecord(stretches_[phase].back().second, stream), "recording a timing event");
    }
    // The phase's stretches added up, once they have run.
    float milliseconds(int phase) const
    {
        float total = 0;
        for (const auto& [from, to] : stretches_[phase]) {
            float ms = 0;
            check(cudaEventSynchronize(to), "reading timing events");
            check(cudaEventElapsedTime(&ms, from, to), "reading timing events");
            total += ms;
        }
        return total;
    }

private:
    bool on_;
    std::vector<std::vector<std::pair<cudaEvent_t, cudaEvent_t>>> stretches_;
};

}  // namespace zgpu::gpu
