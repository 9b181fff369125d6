// The GPU runtime: device selection, the stream, reused staging buffers, checked CUDA calls.
// Only built with the GPU backend; only plugin/gpu/ includes it.
#pragma once

#include <cstddef>
#include <mutex>
#include <string_view>

#include <cuda_runtime_api.h>


namespace zgpu::gpu {

// Throws zgpu::Error naming `operation` and carrying CUDA's message unless status is success.
void check(cudaError_t status, std::string_view operation);

// Makes `device` current for the calling thread while it lives, then restores the caller's own
// current device: zgpu never changes which device its caller's CUDA code runs on.
class DeviceGuard {
public:
    explicit DeviceGuard(int device);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int previous_ = -1;
};

// Device memory that frees itself.
class DeviceMemory {
public:
    DeviceMemory() = default;
    explicit DeviceMemory(std::size_t bytes);
    DeviceMemory(DeviceMemory&& other) noexcept;
    DeviceMemory& operator=(DeviceMemory&& other) noexcept;
    ~DeviceMemory();
    std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

// The process-wide runtime. One host thread at a time uses the stream and the buffers, and
// only while it holds a Lease.
class Runtime {
public:
    // Selects the device (ZGPU_DEVICE, default 0) on first use; throws zgpu::Error without one.
    static Runtime& get();

    // The runtime for one operation: its lock, and its device current on the calling thread.
    class Lease {
    public:
        explicit Lease(Runtime& runtime) : held_(runtime.mutex_), device_(runtime.device_) {}

    private:
        std::unique_lock<std::mutex> held_;
        DeviceGuard device_;
    };

    cudaStream_t stream() const { return stream_; }
    // Streams for uploads and downloads, so that they overlap each other and the kernels of
    // `stream`.
    cudaStream_t upload_stream() const { return upload_stream_; }
    cudaStream_t download_stream() const { return download_stream_; }
    int device() const { return device_; }

    // Page-locked host memory of at least `bytes`, reused across calls (contents not kept).
    std::byte* staging(std::size_t bytes);
    // Page-locked host memory for the few words an operation reads back from the device (a
    // division's summary, a check's first failing index), apart from the staging memory: the
    // pipeline's chunks are there while such operations run inside it.
    static constexpr std::size_t kReadbackBytes = 64;
    template <class T>
    T* readback()
    {
        static_assert(sizeof(T) <= kReadbackBytes && alignof(T) <= 16);
        return reinterpret_cast<T*>(readback_);
    }
    // Device memory of at least `bytes`, reused across calls (contents not kept): scratch holds
    // the operands and results of host operations, workspace the working data of kernels.
    std::byte* scratch(std::size_t bytes);
    std::byte* workspace(std::size_t bytes);

    void synchronize(std::string_view operation);

    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

private:
    Runtime();
    ~Runtime();

    std::mutex mutex_;
    int device_ = 0;
    cudaStream_t stream_ = nullptr, upload_stream_ = nullptr, download_stream_ = nullptr;
    std::byte* staging_ = nullptr;
    std::size_t staging_size_ = 0;
    std::byte* readback_ = nullptr;
    DeviceMemory scratch_, workspace_;
};

}  // namespace zgpu::gpu
