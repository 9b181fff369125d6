#include "plugin/gpu/runtime.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

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
    if (previous_ == device) previous_ = -1;
    else check(cudaSetDevice(device), "selecting CUDA device " + std::to_string(device));
}

DeviceGuard::~DeviceGuard()
{
    if (previous_ >= 0) cudaSetDevice(previous_);  // back to the caller's device
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

// Every runtime made, and those in use.
struct Runtimes {
    std::mutex mutex;
    std::vector<std::unique_ptr<Runtime>> made;  // never shrinks: leases may outlive a change of devices
    std::vector<Runtime*> in_use;

    // The runtime of the `ordinal`-th entry for `device` in a device list, made on first use.
    Runtime& of(int device, int ordinal)
    {
        for (const auto& runtime : made)
            if (runtime->device_ == device && ordinal-- == 0) return *runtime;
        made.push_back(std::make_unique<Runtime>(device, made.size(), Runtime::Key()));
        return *made.back();
    }

    void use(std::span<const int> devices)
    {
        if (devices.empty()) throw Error("the list of GPU devices is empty");
        int count = 0;
        check(cudaGetDeviceCount(&count), "counting CUDA devices");
        for (const int device : devices)
            if (device < 0 || device >= count)
                throw Error("GPU device " + std::to_string(device) + " does not exist: the devices are 0 to " +
                            std::to_string(count - 1));
        std::vector<Runtime*> runtimes;
        for (std::size_t i = 0; i < devices.size(); ++i)
            runtimes.push_back(&of(devices[i], int(std::count(devices.begin(), devices.begin() + i, devices[i]))));
        in_use = std::move(runtimes);
    }

    static Runtimes& get()
    {
        static Runtimes runtimes;
        return runtimes;
    }
};

namespace {

// ZGPU_DEVICES ("0,1": a comma-separated list), else ZGPU_DEVICE (one device), else every device.
std::vector<int> devices_from_environment()
{
    if (!gpu_available()) throw Error("no CUDA device is available for the GPU backend");
    std::vector<int> devices;
    const char* list = std::getenv("ZGPU_DEVICES");
    const char* one = std::getenv("ZGPU_DEVICE");
    const std::string text = list && *list ? list : one && *one ? one : "";
    if (text.empty()) {
        int count = 0;
        check(cudaGetDeviceCount(&count), "counting CUDA devices");
        for (int d = 0; d < count; ++d) devices.push_back(d);
        return devices;
    }
    const char* name = list && *list ? "ZGPU_DEVICES" : "ZGPU_DEVICE";
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string entry = text.substr(at, comma - at);
        char* end = nullptr;
        const long device = std::strtol(entry.c_str(), &end, 10);
        if (entry.empty() || !std::isdigit(static_cast<unsigned char>(entry[0])) || *end != '\0' || device > 1 << 20)
            throw Error(std::string(name) + "=" + text + ": expected device numbers separated by commas");
        devices.push_back(int(device));
        at = comma + 1;
    }
    if (std::string_view(name) == "ZGPU_DEVICE" && devices.size() != 1)
        throw Error("ZGPU_DEVICE=" + text + ": expected one device number (ZGPU_DEVICES takes a list)");
    return devices;
}

}  // namespace

std::vector<Runtime*> Runtime::in_use()
{
    auto& runtimes = Runtimes::get();
    const std::lock_guard lock(runtimes.mutex);
    if (runtimes.in_use.empty()) runtimes.use(devices_from_environment());
    return runtimes.in_use;
}

Runtime& Runtime::get() { return *in_use().front(); }

void Runtime::use_devices(std::span<const int> devices)
{
    if (!gpu_available()) throw Error("no CUDA device is available for the GPU backend");
    auto& runtimes = Runtimes::get();
    const std::lock_guard lock(runtimes.mutex);
    runtimes.use(devices);
}

Runtime::Leases::Leases(std::span<Runtime* const> runtimes) : device_(runtimes.front()->device_)
{
    std::vector<Runtime*> by_order(runtimes.begin(), runtimes.end());
    std::sort(by_order.begin(), by_order.end(), [](const Runtime* a, const Runtime* b) { return a->order_ < b->order_; });
    for (Runtime* runtime : by_order) held_.emplace_back(runtime->mutex_);
}

ResidentLease::ResidentLease(std::initializer_list<const void*> resident) : runtime_(Runtime::get()), lease_(runtime_)
{
    for (const void* pointer : resident) {
        if (!pointer) continue;
        cudaPointerAttributes attributes{};
        check(cudaPointerGetAttributes(&attributes, pointer), "finding the device of device-resident data");
        if (attributes.type == cudaMemoryTypeDevice && attributes.device != runtime_.device())
            throw Error("device-resident data on CUDA device " + std::to_string(attributes.device) +
                        " used while zgpu's first device is " + std::to_string(runtime_.device()) +
                        ": data stays on the device it was made on; make it again, or list that device first");
    }
}

void Runtime::make_current() const { check(cudaSetDevice(device_), "selecting CUDA device " + std::to_string(device_)); }

Runtime::Runtime(int device, std::size_t order, Key) : device_(device), order_(order)
{
    const DeviceGuard on(device_);
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating the zgpu stream");
    check(cudaStreamCreateWithFlags(&upload_stream_, cudaStreamNonBlocking), "creating the zgpu upload stream");
    check(cudaStreamCreateWithFlags(&download_stream_, cudaStreamNonBlocking), "creating the zgpu download stream");
    // Temporaries of one operation (kernels/common/temporary.hpp) come from the stream-ordered
    // pool; it keeps up to 1 GiB between operations instead of returning it at every
    // synchronization.
    void* readback = nullptr;
    check(cudaMallocHost(&readback, kReadbackBytes), "allocating pinned memory for results read back");
    readback_ = static_cast<std::byte*>(readback);
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, device_), "getting the device's memory pool");
    std::uint64_t keep = std::uint64_t(1) << 30;
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
        check(cudaMallocHost(&p, size), "allocating " + std::to_string(size) + " bytes of pinned staging memory");
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

std::vector<int> gpu_devices()
{
    std::vector<int> devices;
    for (const gpu::Runtime* runtime : gpu::Runtime::in_use()) devices.push_back(runtime->device());
    return devices;
}

void set_gpu_devices(std::span<const int> devices) { gpu::Runtime::use_devices(devices); }

}  // namespace zgpu
