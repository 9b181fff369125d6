#include "gpu_host_op.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "gpu_runtime.hpp"

namespace zgpu::gpu {
namespace {

// Operands a chunk: about this many bytes, so that packing the next chunk on the host overlaps
// the transfers and the kernel of this one, and device memory holds two chunks, not the batch.
constexpr std::size_t kChunkBytes = std::size_t(16) << 20;

std::size_t element_bytes(std::uint32_t stride) { return stride * sizeof(limb_t) + sizeof(std::int32_t); }

// A batch region inside one allocation: limbs, then sizes, padded to 16 bytes.
struct Region {
    std::size_t offset, count;
    std::uint32_t stride;

    std::size_t bytes() const { return (count * element_bytes(stride) + 15) / 16 * 16; }
    BatchView at(std::byte* base) const
    {
        auto* limbs = reinterpret_cast<limb_t*>(base + offset);
        return {limbs, reinterpret_cast<std::int32_t*>(limbs + count * stride), count, stride};
    }
};

// The operands of a chunk of n elements: a's, then b's (one if b is shared, none if b is a).
struct ChunkLayout {
    Region a, b;

    ChunkLayout(std::size_t n, std::uint32_t sa, std::size_t nb, std::uint32_t sb) : a{0, n, sa}, b{a.bytes(), nb, sb} {}
    std::size_t inputs() const { return a.bytes() + b.bytes(); }
};

class Event {
public:
    Event() { check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "creating a CUDA event"); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record(cudaStream_t stream) { check(cudaEventRecord(event_, stream), "recording a CUDA event"); }
    void wait() const { check(cudaEventSynchronize(event_), "waiting for an upload"); }
    void wait_on(cudaStream_t stream) const { check(cudaStreamWaitEvent(stream, event_, 0), "ordering the streams"); }

private:
    cudaEvent_t event_ = nullptr;
};

// Waits for the streams on every exit, so that no transfer still reads or writes the staging
// memory when the next call packs into it (errors are reported by the calls themselves).
struct DrainOnExit {
    cudaStream_t first, second;
    ~DrainOnExit()
    {
        cudaStreamSynchronize(first);
        cudaStreamSynchronize(second);
    }
};

using Clock = std::chrono::steady_clock;
double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

void run(const HostOperand& a, std::size_t a_count, const HostOperand& b, std::size_t b_count,
         std::uint32_t result_stride, const Kernel& kernel, const HostResult& result)
{
    a.require_packable();
    b.require_packable();
    if (a_count == 0) return result({nullptr, nullptr, 0, result_stride});
    const Clock::time_point start = Clock::now();
    const auto sa = size_class(std::uint32_t(a.max_limbs)), sb = size_class(std::uint32_t(b.max_limbs));
    const bool shared_b = b_count == 1, b_is_a = &a == &b;  // b is a: packed once, and the kernel squares
    const std::size_t per_element = element_bytes(sa) + (shared_b || b_is_a ? 0 : element_bytes(sb));
    const std::size_t chunk = std::clamp<std::size_t>(kChunkBytes / per_element, 1, a_count);
    const std::size_t chunks = (a_count + chunk - 1) / chunk;
    const auto layout = [&](std::size_t n) {
        return ChunkLayout(n, sa, b_is_a ? 0 : shared_b ? 1 : n, sb);
    };
    const ChunkLayout full = layout(chunk);

    // Pinned: two slots of packed operands (one is packed while the other uploads), then all
    // results, unpacked only once everything has succeeded. Device: two slots of operands (one
    // uploads on the upload stream while the kernel reads the other), and one chunk's results,
    // written and downloaded in order on the kernel stream.
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const std::size_t slot_bytes = full.inputs();
    const Region results{2 * slot_bytes, a_count, result_stride};
    std::byte* host = runtime.staging(2 * slot_bytes + results.bytes());
    std::byte* device = runtime.scratch(2 * slot_bytes + Region{0, chunk, result_stride}.bytes());
    std::byte* device_results = device + 2 * slot_bytes;
    const BatchView all = results.at(host);
    const cudaStream_t stream = runtime.stream(), upload = runtime.upload_stream();
    const DrainOnExit drain{stream, upload};
    Event uploaded[2], consumed[2];  // a slot's upload done; the kernel done with a device slot
    Clock::duration packing{}, waiting{};
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t first = k * chunk, n = std::min(chunk, a_count - first);
        const ChunkLayout part = layout(n);
        const int s = k % 2;
        std::byte *slot = host + s * slot_bytes, *device_slot = device + s * slot_bytes;
        const Clock::time_point wait_start = Clock::now();
        if (k >= 2) uploaded[s].wait();  // the pinned slot's previous chunk has left it
        const Clock::time_point pack_start = Clock::now();
        waiting += pack_start - wait_start;
        a.pack(first, part.a.at(slot));
        if (!b_is_a) b.pack(shared_b ? 0 : first, part.b.at(slot));
        packing += Clock::now() - pack_start;
        if (k >= 2) consumed[s].wait_on(upload);  // the kernel is done with the device slot
        check(cudaMemcpyAsync(device_slot, slot, part.inputs(), cudaMemcpyHostToDevice, upload), "uploading operands");
        uploaded[s].record(upload);
        uploaded[s].wait_on(stream);
        const BatchView r = Region{0, n, result_stride}.at(device_results);
        kernel(part.a.at(device_slot), b_is_a ? part.a.at(device_slot) : part.b.at(device_slot), r, stream);
        consumed[s].record(stream);
        check(cudaMemcpyAsync(all.element(first), r.limbs, n * result_stride * sizeof(limb_t), cudaMemcpyDeviceToHost, stream),
              "downloading results");
        check(cudaMemcpyAsync(all.sizes + first, r.sizes, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream),
              "downloading result sizes");
    }
    const Clock::time_point sync_start = Clock::now();
    runtime.synchronize("an operation on the GPU");
    const Clock::time_point unpack_start = Clock::now();
    waiting += unpack_start - sync_start;
    result(all);
    if (std::getenv("ZGPU_TIMING"))
        std::fprintf(stderr,
                     "zgpu: %zu elements on the GPU in %zu chunks: packing %.2f ms, waiting for the GPU %.2f ms, "
                     "unpacking %.2f ms, total %.2f ms\n",
                     a_count, chunks, milliseconds(packing), milliseconds(waiting), milliseconds(Clock::now() - unpack_start),
                     milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
