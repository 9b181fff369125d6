// The devices in use: the list (ZGPU_DEVICES, ZGPU_DEVICE, every device, or set_gpu_devices),
// a runtime for each entry, peer access between the listed devices, and the check that
// device-resident data is on the first device. Only built with the GPU backend.
#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/settings.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {

namespace {

// Lets `from` copy to and from `to` directly (NVLink or PCIe peer to peer) where the two can.
// Best effort: copies between devices work without it, through host memory, so a refusal (too
// many peers, a virtual machine) is no error; the error it leaves behind is cleared, lest a
// later launch's check report it.
void enable_peer_access(int from, int to)
{
    int can = 0;
    if (cudaDeviceCanAccessPeer(&can, from, to) != cudaSuccess || !can) {
        cudaGetLastError();
        return;
    }
    const DeviceGuard on(from);
    if (cudaDeviceEnablePeerAccess(to, 0) != cudaSuccess) cudaGetLastError();
}

// ZGPU_DEVICES ("0,1": a comma-separated list), else ZGPU_DEVICE (one device), else every device.
std::vector<int> devices_from_environment()
{
    if (!gpu_available()) throw Error("no CUDA device is available for the GPU backend");
    std::vector<int> devices = settings::devices();
    if (!devices.empty()) return devices;
    int count = 0;
    check(cudaGetDeviceCount(&count), "counting CUDA devices");
    for (int d = 0; d < count; ++d) devices.push_back(d);
    return devices;
}

}  // namespace

// Every runtime made, and those in use.
struct Runtimes {
    std::mutex mutex;
    std::vector<std::unique_ptr<Runtime>> made;  // never shrinks: leases may outlive a change of devices
    std::vector<Runtime*> in_use;
    std::set<std::pair<int, int>> peers;  // pairs of devices whose peer access was asked for
    // Whether a list has ever started with another device than the first list did: until then
    // all device-resident data is on the first device, and ResidentLease need not look.
    std::atomic<bool> first_device_moved = false;

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
        for (const int from : devices)
            for (const int to : devices)
                if (from != to && peers.insert({from, to}).second) enable_peer_access(from, to);
        std::vector<Runtime*> runtimes;
        for (std::size_t i = 0; i < devices.size(); ++i)
            runtimes.push_back(&of(devices[i], int(std::count(devices.begin(), devices.begin() + i, devices[i]))));
        if (!in_use.empty() && runtimes.front()->device_ != in_use.front()->device_) first_device_moved = true;
        in_use = std::move(runtimes);
    }

    // The runtimes in use, chosen from the environment on first use; the caller holds `mutex`.
    const std::vector<Runtime*>& chosen()
    {
        if (in_use.empty()) use(devices_from_environment());
        return in_use;
    }

    static Runtimes& get()
    {
        static Runtimes runtimes;
        return runtimes;
    }
};


std::vector<Runtime*> Runtime::in_use()
{
    auto& runtimes = Runtimes::get();
    const std::lock_guard lock(runtimes.mutex);
    return runtimes.chosen();
}

Runtime& Runtime::get()
{
    auto& runtimes = Runtimes::get();
    const std::lock_guard lock(runtimes.mutex);
    return *runtimes.chosen().front();
}

void Runtime::use_devices(std::span<const int> devices)
{
    if (!gpu_available()) throw Error("no CUDA device is available for the GPU backend");
    auto& runtimes = Runtimes::get();
    const std::lock_guard lock(runtimes.mutex);
    runtimes.use(devices);
}

ResidentLease::ResidentLease(std::initializer_list<const void*> resident) : runtime_(Runtime::get()), lease_(runtime_)
{
    if (!Runtimes::get().first_device_moved) return;
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

}  // namespace zgpu::gpu

namespace zgpu {

std::vector<int> gpu_devices()
{
    std::vector<int> devices;
    for (const gpu::Runtime* runtime : gpu::Runtime::in_use()) devices.push_back(runtime->device());
    return devices;
}

void set_gpu_devices(std::span<const int> devices) { gpu::Runtime::use_devices(devices); }

}  // namespace zgpu
