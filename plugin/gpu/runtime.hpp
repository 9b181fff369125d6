// The GPU runtime: the devices in use, each one's streams and reused buffers, checked CUDA calls.
// Only built with the GPU backend; only plugin/gpu/ includes it.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include <cuda_runtime_api.h>


namespace zgpu::gpu {

// Throws zgpu::Error naming `operation` and carrying CUDA's message unless status is success.
void check(cudaError_t status, std::string_view operation);

// Makes `device` current for the calling thread while it lives, then restores the caller's own
// current device, even where the scope made other devices current: zgpu never changes which
// device its caller's CUDA code runs on.
class DeviceGuard {
public:
    explicit DeviceGuard(int device);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int previous_ = 0;
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

// A runtime per device in use: its streams, staging and device memory, and the caches of tables
// that kernels read (ntt_tables, a prime set's tables). One host thread at a time uses a
// runtime, and only while it holds a Lease on it. Runtimes live until the process ends, so
// pointers to them stay valid when the devices in use change.
class Runtime {
public:
    // The first runtime in use: device-resident objects live on its device, and operations on
    // them run there. Chooses the devices (gpu_devices() in zgpu/backend.hpp) on first use;
    // throws zgpu::Error without a GPU.
    static Runtime& get();
    // The runtimes that operations on host data split their chunks over, in order: one an entry
    // of the device list (a device listed twice has two).
    static std::vector<Runtime*> in_use();
    // Replaces the device list; throws zgpu::Error, changing nothing, for an empty list or a
    // device that does not exist.
    static void use_devices(std::span<const int> devices);

    // The runtime for one operation: its lock, and its device current on the calling thread.
    class Lease {
    public:
        explicit Lease(Runtime& runtime) : held_(runtime.mutex_), device_(runtime.device_) {}

    private:
        std::unique_lock<std::mutex> held_;
        DeviceGuard device_;
    };

    // The locks of several runtimes, taken in the order the runtimes were made (so that two
    // threads cannot each hold one the other waits for), and the caller's current device put
    // back at the end. The caller makes each runtime's device current before using it.
    class Leases {
    public:
        explicit Leases(std::span<Runtime* const> runtimes);

    private:
        DeviceGuard device_;
        std::vector<std::unique_lock<std::mutex>> held_;
    };

    // Makes this runtime's device current on the calling thread.
    void make_current() const;

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
    static constexpr std::size_t kReadbackBytes = 128;
    template <class T>
    T* readback()
    {
        static_assert(sizeof(T) <= kReadbackBytes && alignof(T) <= 16);
        return reinterpret_cast<T*>(readback_);
    }
    // Device memory of at least `bytes`, reused across calls (contents not kept): scratch holds
    // the operands and results of host operations, workspace the working data of kernels.
    std::byte* scratch(std::size_t bytes);
    // The most scratch could hold now: what it holds and what the device has free. Call with a
    // Lease held.
    std::size_t scratch_available() const;
    // The device memory one call plans to take: a share of scratch_available(), at most
    // ZGPU_GPU_MEMORY_LIMIT. Call with a Lease held.
    std::size_t call_budget() const;
    std::byte* workspace(std::size_t bytes);

    void synchronize(std::string_view operation);

    // Data kept on this runtime's device for the rest of the process, one object of each type
    // T (tables that kernels read, or a cache of them): made by make(), with the device current,
    // on first use. The caller holds a Lease.
    template <class T, class Make>
    T& kept(const Make& make)
    {
        std::shared_ptr<void>& slot = kept_[std::type_index(typeid(T))];
        if (!slot) slot = std::make_shared<T>(make());
        return *static_cast<T*>(slot.get());
    }

    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    // Only the list of runtimes (runtime.cpp) makes them.
    class Key {
        Key() = default;
        friend struct Runtimes;
    };
    Runtime(int device, std::size_t order, Key);
    ~Runtime();

private:
    friend struct Runtimes;

    std::mutex mutex_;
    int device_ = 0;
    std::size_t order_ = 0;  // of making: the order Leases locks in
    cudaStream_t stream_ = nullptr, upload_stream_ = nullptr, download_stream_ = nullptr;
    std::byte* staging_ = nullptr;
    std::size_t staging_size_ = 0;
    std::byte* readback_ = nullptr;
    DeviceMemory scratch_, workspace_;
    std::map<std::type_index, std::shared_ptr<void>> kept_;
};

// The first runtime's lease for an operation on device-resident data (DeviceBatch, residue
// batches), once each pointer given is found on its device: a change of the devices in use may
// have moved the first device away from data made before it. Throws zgpu::Error naming both
// devices otherwise. Null pointers (empty views) are skipped.
class ResidentLease {
public:
    explicit ResidentLease(std::initializer_list<const void*> resident);
    Runtime& runtime() const { return runtime_; }

private:
    Runtime& runtime_;
    Runtime::Lease lease_;
};

}  // namespace zgpu::gpu
