// Device memory for the intermediate results of one operation, taken from and given back to
// the stream-ordered pool: no allocation synchronizes the device, and the memory is free for
// reuse once the work queued before its release has run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

class StreamMemory {
public:
    StreamMemory() = default;
    StreamMemory(std::size_t bytes, cudaStream_t stream) : stream_(stream)
    {
        if (bytes > 0) check(cudaMallocAsync(&data_, bytes, stream), "allocating " + std::to_string(bytes) + " bytes of temporaries");
    }
    StreamMemory(StreamMemory&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), stream_(other.stream_) {}
    StreamMemory& operator=(StreamMemory&& other) noexcept
    {
        std::swap(data_, other.data_);
        std::swap(stream_, other.stream_);
        return *this;
    }
    ~StreamMemory()
    {
        if (data_) cudaFreeAsync(data_, stream_);
    }
    void* data() const { return data_; }

private:
    void* data_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

// A batch of that memory: limbs, then sizes.
class TemporaryBatch {
public:
    TemporaryBatch(std::size_t count, std::uint32_t stride, cudaStream_t stream)
        : memory_(count * (stride * sizeof(limb_t) + sizeof(std::int32_t)), stream), count_(count), stride_(stride) {}

    BatchView view() const
    {
        auto* limbs = static_cast<limb_t*>(memory_.data());
        return {limbs, reinterpret_cast<std::int32_t*>(limbs + count_ * stride_), count_, stride_};
    }

private:
    StreamMemory memory_;
    std::size_t count_;
    std::uint32_t stride_;
};

}  // namespace zgpu::kernels
