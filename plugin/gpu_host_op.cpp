#include "gpu_host_op.hpp"

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

void run(const HostOperand& a, std::size_t a_count, const HostOperand& b, std::size_t b_count,
         std::uint32_t result_stride, const Kernel& kernel, const HostResult& result)
{
    a.require_packable();
    b.require_packable();
    if (a_count == 0) return result({nullptr, nullptr, 0, result_stride});
    const Region ra{0, a_count, size_class(std::uint32_t(a.max_limbs))};
    const Region rb{ra.bytes(), b_count, size_class(std::uint32_t(b.max_limbs))};
    const Region rr{ra.bytes() + rb.bytes(), a_count, result_stride};
    const std::size_t inputs = ra.bytes() + rb.bytes(), total = inputs + rr.bytes();

    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    std::byte* host = runtime.staging(total);
    std::byte* device = runtime.scratch(total);
    a.pack(ra.at(host));
    b.pack(rb.at(host));
    check(cudaMemcpyAsync(device, host, inputs, cudaMemcpyHostToDevice, runtime.stream()), "uploading operands");
    kernel(ra.at(device), rb.at(device), rr.at(device), runtime.stream());
    check(cudaMemcpyAsync(host + inputs, device + inputs, rr.bytes(), cudaMemcpyDeviceToHost, runtime.stream()),
          "downloading results");
    runtime.synchronize("an operation on the GPU");
    result(rr.at(host));
}

}  // namespace zgpu::gpu
