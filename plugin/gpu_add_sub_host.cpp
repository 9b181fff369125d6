#include "gpu_add_sub_host.hpp"

#include <algorithm>

#include "../kernels/add_sub.hpp"
#include "gpu_runtime.hpp"

namespace zgpu::gpu {
namespace {

// A batch region inside one staging allocation: limbs, then sizes, padded to 16 bytes.
struct Region {
    std::size_t offset, count;
    std::uint32_t stride;

    std::size_t bytes() const { return (count * (stride * sizeof(limb_t) + sizeof(std::int32_t)) + 15) / 16 * 16; }
    BatchView at(std::byte* base) const
    {
        auto* limbs = reinterpret_cast<limb_t*>(base + offset);
        return {limbs, reinterpret_cast<std::int32_t*>(limbs + count * stride), count, stride};
    }
};

}  // namespace

void add_sub(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract, const HostResult& result)
{
    if (count == 0) return result({nullptr, nullptr, 0, 1});
    const Region ra{0, count, size_class(a.max_limbs)};
    const Region rb{ra.bytes(), count, size_class(b.max_limbs)};
    const Region rr{ra.bytes() + rb.bytes(), count, size_class(std::max(a.max_limbs, b.max_limbs) + 1)};
    const std::size_t inputs = ra.bytes() + rb.bytes(), total = inputs + rr.bytes();

    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    std::byte* host = runtime.staging(total);
    std::byte* device = runtime.scratch(total);
    a.pack(ra.at(host));
    b.pack(rb.at(host));
    check(cudaMemcpyAsync(device, host, inputs, cudaMemcpyHostToDevice, runtime.stream()), "uploading add/sub operands");
    kernels::add_sub(ra.at(device), rb.at(device), rr.at(device), subtract, runtime.stream());
    check(cudaMemcpyAsync(host + inputs, device + inputs, rr.bytes(), cudaMemcpyDeviceToHost, runtime.stream()),
          "downloading add/sub results");
    runtime.synchronize("add/sub on the GPU");
    result(rr.at(host));
}

}  // namespace zgpu::gpu
