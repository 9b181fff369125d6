#include "plugin/gpu/modular/crt_to_host.hpp"

#include <algorithm>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

constexpr std::size_t kMinCrtChunk = 8192;

}  // namespace

BatchPlace BatchPlace::reserve(UploadLayout& layout, std::size_t count, std::uint32_t stride)
{
    const std::size_t limbs = layout.reserve(count * stride * sizeof(limb_t));
    return {limbs, layout.reserve(count * sizeof(std::int32_t)), count, stride};
}

BatchView BatchPlace::in(std::byte* base) const
{
    return {reinterpret_cast<limb_t*>(base + limbs), reinterpret_cast<std::int32_t*>(base + sizes), count, stride};
}

BatchPlace operand_place(UploadLayout& layout, const HostOperand& x, std::size_t count)
{
    return BatchPlace::reserve(layout, count, size_class(std::uint32_t(std::max<std::uint64_t>(x.max_limbs, 1))));
}

void pack(const HostOperand& x, BatchView out)
{
    parallel_for(out.count, adapters::min_parallel_elements(out.stride), [&](std::size_t begin, std::size_t end) {
        x.pack(begin, {out.element(begin), out.sizes + begin, end - begin, out.stride});
    });
}

CrtToHost::CrtToHost(UploadLayout& device_layout, std::size_t count, const ModularTables& tables)
    : tables_(tables), count_(count), stride_(size_class(crt_limbs(tables)))
{
    chunk_ = std::min(count, std::max(kMinCrtChunk, kCrtChunkBytes / (stride_ * sizeof(limb_t))));
    out_place_ = BatchPlace::reserve(device_layout, count, stride_);
    slot_place_ = BatchPlace::reserve(slot_layout_, chunk_, stride_);
}

Clock::duration CrtToHost::run(kernels::ConstResidueView c, Runtime& runtime, std::byte* device, std::byte* staging,
                               const HostResult& result, PhaseTimes& times, int crt, int download) const
{
    const cudaStream_t stream = runtime.stream();
    const BatchView out = out_place_.in(device);
    const auto slot_at = [&](std::size_t first) { return slot_place_.in(staging + (first / chunk_ % 2) * slot_layout_.bytes()); };
    Event ready[2];
    Clock::duration unpacking{};
    const auto enqueue = [&](std::size_t first) {
        const std::size_t count = std::min(chunk_, count_ - first);
        const kernels::ConstResidueView part{c.data + first, count, c.primes, c.prime_stride};
        const BatchView values{out.element(first), out.sizes + first, count, stride_};
        times.begin(crt, stream);
        kernels::multi_crt(part, tables_.view(runtime), true, values, stream);
        times.end(crt, stream);
        times.begin(download, stream);
        const BatchView slot = slot_at(first);
        check(cudaMemcpyAsync(slot.limbs, values.limbs, count * stride_ * sizeof(limb_t), cudaMemcpyDeviceToHost, stream),
              "downloading products");
        check(cudaMemcpyAsync(slot.sizes, values.sizes, count * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream),
              "downloading products");
        times.end(download, stream);
        ready[first / chunk_ % 2].record(stream);
    };
    enqueue(0);
    for (std::size_t first = 0; first < count_; first += chunk_) {
        if (first + chunk_ < count_) enqueue(first + chunk_);
        ready[first / chunk_ % 2].wait();
        const Clock::time_point unpack_start = Clock::now();
        BatchView slot = slot_at(first);
        slot.count = std::min(chunk_, count_ - first);
        result(first, slot);
        unpacking += Clock::now() - unpack_start;
    }
    return unpacking;
}

}  // namespace zgpu::gpu
