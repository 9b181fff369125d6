// The memory of DeviceBatches on the GPU: made on the first device in use, copied and filled on
// its stream.
#include <string>

#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, const char* operation)
{
    if (bytes == 0) return;
    const ResidentLease resident({kind == cudaMemcpyHostToDevice ? dst : src});
    Runtime& runtime = resident.runtime();
    check(cudaMemcpyAsync(dst, src, bytes, kind, runtime.stream()), operation);
    runtime.synchronize(operation);
}

}  // namespace

void* allocate(std::size_t bytes)
{
    const DeviceGuard on(Runtime::get().device());
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes for a DeviceBatch");
    return p;
}

void release(void* storage) noexcept
{
    // A destructor cannot report errors: the memory is gone either way.
    // On the device that holds it, which need not be the first one in use any more.
    cudaPointerAttributes attributes{};
    try {
        check(cudaPointerGetAttributes(&attributes, storage), "finding the device of freed memory");
        const DeviceGuard on(attributes.device);
        cudaFree(storage);
    } catch (const Error&) {
        cudaFree(storage);
    }
}

void copy_to_device(void* device, const void* host, std::size_t bytes)
{
    copy(device, host, bytes, cudaMemcpyHostToDevice, "uploading a DeviceBatch");
}

void copy_to_host(void* host, const void* device, std::size_t bytes)
{
    copy(host, device, bytes, cudaMemcpyDeviceToHost, "downloading a DeviceBatch");
}

void fill_zero(void* device, std::size_t bytes)
{
    if (bytes == 0) return;
    const ResidentLease resident({device});
    Runtime& runtime = resident.runtime();
    check(cudaMemsetAsync(device, 0, bytes, runtime.stream()), "zeroing a DeviceBatch");
    runtime.synchronize("zeroing a DeviceBatch");
}

void synchronize()
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    runtime.synchronize("work queued on the GPU");
}

}  // namespace zgpu::gpu
