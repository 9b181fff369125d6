#include "plugin/gpu/runtime.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "base/settings.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {

void check(cudaError_t status, std::string_view operation)
{
    if (status != cudaSuccess)
        throw Error(std::string(operation) + " failed: " + cudaGetErrorString(status) + " (" +
                    cudaGetErrorName(status) + ")");
}

DeviceGuard::DeviceGuard(int device)
{
    check(cudaGetDevice(&previous_), "querying the current CUDA device");
    if (previous_ != device) check(cudaSetDevice(device), "selecting CUDA device " + std::to_string(device));
}

DeviceGuard::~DeviceGuard()
{
    // Back to the caller's device, whatever the guarded scope made current in between (the
    // pipeline and the split products move from device to device).
    int now = -1;
    if (cudaGetDevice(&now) != cudaSuccess || now != previous_) cudaSetDevice(previous_);
}

DeviceMemory::DeviceMemory(std::size_t bytes) : size_(bytes)
{
    if (bytes == 0) return;
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes");
    data_ = static_cast<std::byte*>(p);
}

DeviceMemory::DeviceMemory(DeviceMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
{
}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept
{
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
}

DeviceMemory::~DeviceMemory()
{
    if (data_) cudaFree(data_);
}

Runtime::Leases::Leases(std::span<Runtime* const> runtimes) : device_(runtimes.front()->device_)
{
    std::vector<Runtime*> by_order(runtimes.begin(), runtimes.end());
    std::sort(by_order.begin(), by_order.end(), [](const Runtime* a, const Runtime* b) { return a->order_ < b->order_; });
    for (Runtime* runtime : by_order) held_.emplace_back(runtime->mutex_);
}

void Runtime::make_current() const { check(cudaSetDevice(device_), "selecting CUDA device " + std::to_string(device_)); }

Runtime::Runtime(int device, std::size_t order, Key) : device_(device), order_(order)
{
    const DeviceGuard on(device_);
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating the zgpu stream");
    check(cudaStreamCreateWithFlags(&upload_stream_, cudaStreamNonBlocking), "creating the zgpu upload stream");
    check(cudaStreamCreateWithFlags(&download_stream_, cudaStreamNonBlocking), "creating the zgpu download stream");
    // Temporaries of one operation (kernels/common/temporary.hpp) come from the stream-ordered
    // pool; it keeps some between operations instead of returning them at every
    // synchronization, where the next operation would map them again (about a millisecond for
    // the 0.45 GB that a 2048 x 2048 product mod p on the tensor cores takes): a sixteenth of the
    // device's memory, from 1 to 4 GiB, the most a product's pass takes (2 GiB) with room.
    void* readback = nullptr;
    check(cudaMallocHost(&readback, kReadbackBytes), "allocating pinned memory for results read back");
    readback_ = static_cast<std::byte*>(readback);
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, device_), "getting the device's memory pool");
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "reading the device's memory size");
    std::uint64_t keep = std::clamp<std::uint64_t>(total / 16, std::uint64_t(1) << 30, std::uint64_t(1) << 32);
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "setting the memory pool's threshold");
}

Runtime::~Runtime()
{
    // At process exit the driver may already be shutting down: errors are ignored here.
    if (staging_) cudaFreeHost(staging_);
    if (readback_) cudaFreeHost(readback_);
    if (download_stream_) cudaStreamDestroy(download_stream_);
    if (upload_stream_) cudaStreamDestroy(upload_stream_);
    if (stream_) cudaStreamDestroy(stream_);
}

std::byte* Runtime::staging(std::size_t bytes)
{
    if (bytes > staging_size_) {
        // Grow geometrically, but by at most 1 GiB beyond the request: pinned memory is scarce.
        const std::size_t size = std::max(bytes, std::min(2 * staging_size_, bytes + (std::size_t(1) << 30)));
        staging_size_ = 0;
        if (staging_) check(cudaFreeHost(std::exchange(staging_, nullptr)), "freeing pinned staging memory");
        void* p = nullptr;
        // Portable: a polynomial product uploads one staging buffer to every device in use.
        check(cudaHostAlloc(&p, size, cudaHostAllocPortable),
              "allocating " + std::to_string(size) + " bytes of pinned staging memory");
        staging_ = static_cast<std::byte*>(p);
        staging_size_ = size;
    }
    return staging_;
}

namespace {

std::byte* at_least(DeviceMemory& memory, std::size_t bytes)
{
    if (bytes > memory.size()) {
        memory = DeviceMemory();  // free first: the old buffer's contents are not kept
        memory = DeviceMemory(bytes);
    }
    return memory.data();
}

}  // namespace

std::byte* Runtime::scratch(std::size_t bytes) { return at_least(scratch_, bytes); }
std::byte* Runtime::workspace(std::size_t bytes) { return at_least(workspace_, bytes); }

std::size_t Runtime::scratch_available() const
{
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "reading the device's free memory");
    return free + scratch_.size();
}

std::size_t Runtime::call_budget() const
{
    // The rest is for the kernels' own workspace and the prime sets' tables.
    constexpr double kFreeMemoryShare = 0.8;
    return std::min(settings::gpu_memory_limit(), std::size_t(kFreeMemoryShare * double(scratch_available())));
}

void Runtime::synchronize(std::string_view operation)
{
    check(cudaStreamSynchronize(stream_), operation);
}

}  // namespace zgpu::gpu

namespace zgpu {

// Whether a CUDA device can be used (driver present, at least one device). Cached.
bool gpu_available()
{
    static const bool present = [] {
        int count = 0;
        const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
        cudaGetLastError();  // a missing driver leaves a sticky error: clear it
        return ok;
    }();
    return present;
}

std::string_view gpu_unavailable_reason() { return "no CUDA device is available"; }

}  // namespace zgpu
