// CUDA events that order zgpu's streams and let the host wait for them, and a guard that
// drains the streams on every exit. Only plugin/gpu/ includes it.
#pragma once

#include <cuda_runtime_api.h>

#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class Event {
public:
    Event() { check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "creating a CUDA event"); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record(cudaStream_t stream) { check(cudaEventRecord(event_, stream), "recording a CUDA event"); }
    void wait() const { check(cudaEventSynchronize(event_), "waiting for the GPU"); }
    void wait_on(cudaStream_t stream) const { check(cudaStreamWaitEvent(stream, event_, 0), "ordering the streams"); }

private:
    cudaEvent_t event_ = nullptr;
};

// Waits for the streams on every exit, so that no transfer still reads or writes the staging
// memory when the next call packs into it (errors are reported by the calls themselves).
class DrainOnExit {
public:
    DrainOnExit(cudaStream_t a, cudaStream_t b, cudaStream_t c) : streams_{a, b, c} {}
    ~DrainOnExit()
    {
        for (cudaStream_t s : streams_) cudaStreamSynchronize(s);
    }
    // Not copied: a copy's end would wait for the streams too early.
    DrainOnExit(const DrainOnExit&) = delete;
    DrainOnExit& operator=(const DrainOnExit&) = delete;

private:
    cudaStream_t streams_[3];
};

}  // namespace zgpu::gpu
