#include "plugin/gpu/pipeline.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// Operands a chunk: a quarter of the call's, between these bounds, so that the host's packing
// and unpacking overlap the transfers and kernels of other chunks, and device memory holds a few
// chunks, not the batch. Measured end to end on an H200 host (16 threads): with 64 MiB of
// operands (2048- and 4096-bit products) 8 MiB chunks took 2.5 to 3.0 ms, 4 MiB 2.8 to 3.7,
// 2 MiB 3.3 to 4.1 (each chunk costs a few parallel conversions and CUDA calls), 16 MiB 2.9 to
// 3.2 (longer start and end). With 4 MiB of operands, four chunks of 1 MiB took 0.27 to 0.43 ms
// against 0.45 to 0.67 in one chunk (1024- to 262144-bit products); chunks of 512 KiB and less
// were slower than one chunk (bench/results/2026-11-24-h200-mul-choice-*).
constexpr std::size_t kMinChunkBytes = std::size_t(1) << 20, kMaxChunkBytes = std::size_t(8) << 20;

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

// The operands of a chunk of n elements, one region after another (one element for a shared
// operand); an operand given again (the same HostOperand) shares its first region.
class ChunkLayout {
public:
    ChunkLayout(std::span<const Operand> operands, std::span<const std::uint32_t> strides, std::size_t n)
    {
        for (std::size_t j = 0; j < operands.size(); ++j) {
            const std::size_t first = first_of(operands, j);
            regions_.push_back(first < j ? regions_[first] : Region{bytes_, operands[j].count == 1 ? 1 : n, strides[j]});
            packs_.push_back(first == j);
            if (first == j) bytes_ += regions_.back().bytes();
        }
    }
    // Where operand j first appears: j, unless the same HostOperand came before.
    static std::size_t first_of(std::span<const Operand> operands, std::size_t j)
    {
        std::size_t i = 0;
        while (operands[i].data != operands[j].data) ++i;
        return i;
    }
    const Region& region(std::size_t j) const { return regions_[j]; }
    // Whether operand j is packed into its region (not a repeat of an earlier one).
    bool packs(std::size_t j) const { return packs_[j]; }
    std::size_t inputs() const { return bytes_; }
    std::vector<ConstBatchView> views(std::byte* base) const
    {
        std::vector<ConstBatchView> views;
        for (const Region& r : regions_) views.push_back(r.at(base));
        return views;
    }

private:
    std::vector<Region> regions_;
    std::vector<bool> packs_;
    std::size_t bytes_ = 0;
};

// The results of a chunk of n elements: one region a result stride, one after another.
struct ResultLayout {
    std::vector<Region> regions;
    std::size_t bytes = 0;

    ResultLayout(std::span<const std::uint32_t> strides, std::size_t n)
    {
        for (const std::uint32_t stride : strides) {
            regions.push_back({bytes, n, stride});
            bytes += regions.back().bytes();
        }
    }
    std::vector<BatchView> at(std::byte* base) const
    {
        std::vector<BatchView> views;
        for (const Region& r : regions) views.push_back(r.at(base));
        return views;
    }
};

// The most elements a chunk may have for two chunks of operands and results to fit `limit`:
// per_element bytes an element (operands not shared, and results), `fixed` bytes a chunk
// (shared operands, and each region's padding); at least one element, however small the limit.
std::size_t elements_within(std::size_t limit, std::size_t per_element, std::size_t fixed)
{
    const std::size_t half = limit / 2;
    return half > fixed ? std::max<std::size_t>(1, (half - fixed) / per_element) : 1;
}

// A device's part of a call: its runtime, its pinned staging (two slots of operands, three of
// results) and device memory (two of each), and the events that order them.
struct DeviceSlots {
    Runtime& runtime;
    std::byte* host;
    std::byte* device;
    // Operand slot s uploaded; the kernel done with operand slot s (and result slot s written);
    // the device's chunk j downloaded into pinned result slot j mod 3. Made with the device current.
    Event uploaded[2], computed[2], downloaded[3];
    // Waits for the device's streams on every exit, before the staging is used again.
    DrainOnExit drain;

    DeviceSlots(Runtime& runtime, std::size_t host_bytes, std::size_t device_bytes)
        : runtime(runtime), host(runtime.staging(host_bytes)), device(runtime.scratch(device_bytes)),
          drain{runtime.stream(), runtime.upload_stream(), runtime.download_stream()}
    {
    }
};

}  // namespace

Backend run(std::span<const Operand> operands, std::size_t count, std::span<const std::uint32_t> result_strides,
            const Kernel& kernel, const ChunkResults& result, const FinishOnHost& finish_on_host, std::size_t min_chunk)
{
    for (const Operand& x : operands) x.data->require_packable();
    if (count == 0) {
        const ResultLayout none(result_strides, 0);  // the caller still sizes its outputs
        const std::vector<BatchView> empty = none.at(nullptr);
        result(0, std::vector<ConstBatchView>(empty.begin(), empty.end()));
        return Backend::gpu;
    }
    const Clock::time_point start = Clock::now();
    const KeepWorkersAwake awake;  // the host threads pack and unpack every chunk
    std::vector<std::uint32_t> strides;
    std::size_t per_element = 0;  // bytes of the operands that are not shared, each once
    std::size_t shared = 0;       // bytes of the shared operands, and of every region's padding
    for (std::size_t j = 0; j < operands.size(); ++j) {
        strides.push_back(size_class(std::uint32_t(operands[j].data->max_limbs)));
        if (ChunkLayout::first_of(operands, j) != j) continue;
        if (operands[j].count != 1) per_element += element_bytes(strides[j]);
        else shared += element_bytes(strides[j]);
        shared += 16;
    }
    std::size_t result_per_element = 0;
    for (const std::uint32_t stride : result_strides) result_per_element += element_bytes(stride), shared += 16;
    per_element = std::max<std::size_t>(per_element, 1);
    // A quarter of each device's share of the elements, rounded up (no tiny fifth chunk), so
    // that every device overlaps its own transfers and kernels; within the bounds in bytes and
    // within the device memory limit.
    const std::size_t fewest = std::max({std::size_t(1), kMinChunkBytes / per_element, min_chunk});
    const std::size_t most = std::max({std::size_t(1), kMaxChunkBytes / per_element, min_chunk});
    const std::size_t fitting = elements_within(settings::gpu_memory_limit(), per_element + result_per_element, shared);
    const auto chunk_for = [&](std::size_t devices) {
        const std::size_t quarter = (count + 4 * devices - 1) / (4 * devices);
        return std::min({count, std::clamp(quarter, fewest, most), fitting});
    };
    // A device for every four chunks that one device would cut, up to all in use: a call of a
    // few chunks stays on one device, where more devices would only add chunks, each with its
    // fixed cost (2^16 values of 1024 bits reduced modulo 35 primes: 0.73 ms on one H100, 0.90
    // on two).
    const std::vector<Runtime*> in_use = Runtime::in_use();
    const std::size_t one_device_chunks = (count + chunk_for(1) - 1) / chunk_for(1);
    const std::size_t wanted = std::clamp<std::size_t>(one_device_chunks / 4, 1, in_use.size());
    const std::size_t chunk = chunk_for(wanted);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    const ChunkLayout full(operands, strides, chunk);

    // Chunk k goes to device k mod D, as that device's chunk j = k / D. On each device, chunk j
    // goes through slots j mod 2 of packed operands (pinned and device: one is packed and
    // uploaded while the kernel reads the other) and of device results (one is written while the
    // other downloads), and through pinned result slot j mod 3: the host unpacks chunk k - 2D
    // while the next ones download and chunk k is packed, so that it rarely waits for a chunk's
    // round trip. Each device's uploads, kernels and downloads run on its three streams.
    const std::size_t slot_bytes = full.inputs(), result_bytes = ResultLayout(result_strides, chunk).bytes;
    const std::span<Runtime* const> runtimes(in_use.data(), std::min(wanted, chunks));
    const std::size_t devices = runtimes.size();
    const Runtime::Leases leases(runtimes);
    std::deque<DeviceSlots> slots;  // events are not movable
    for (Runtime* runtime : runtimes) {
        runtime->make_current();
        slots.emplace_back(*runtime, 2 * slot_bytes + 3 * result_bytes, 2 * slot_bytes + 2 * result_bytes);
    }
    Clock::duration packing{}, waiting{}, unpacking{};
    const auto elements = [&](std::size_t k) { return std::min(chunk, count - k * chunk); };
    const auto results = [&](std::byte* base, std::size_t slot, std::size_t k) {
        return ResultLayout(result_strides, elements(k)).at(base + slot * result_bytes);
    };
    std::size_t delivered = 0;  // elements whose results the caller has
    bool in_result = false;
    // Gives the caller chunk k's results once they are in.
    const auto deliver = [&](std::size_t k) {
        DeviceSlots& at = slots[k % devices];
        const std::size_t j = k / devices;
        const Clock::time_point wait_start = Clock::now();
        at.downloaded[j % 3].wait();
        const Clock::time_point unpack_start = Clock::now();
        waiting += unpack_start - wait_start;
        const std::vector<BatchView> out = results(at.host + 2 * slot_bytes, j % 3, k);
        in_result = true;
        result(k * chunk, std::vector<ConstBatchView>(out.begin(), out.end()));
        in_result = false;
        delivered += elements(k);
        unpacking += Clock::now() - unpack_start;
    };
    const std::size_t lag = 2 * devices;  // chunks enqueued before the first is unpacked
    try {
        for (std::size_t k = 0; k < chunks; ++k) {
            const std::size_t first = k * chunk, n = elements(k), j = k / devices;
            DeviceSlots& at = slots[k % devices];
            Runtime& runtime = at.runtime;
            const ChunkLayout part(operands, strides, n);
            const int s = j % 2;
            std::byte *slot = at.host + s * slot_bytes, *device_slot = at.device + s * slot_bytes;
            const Clock::time_point wait_start = Clock::now();
            if (j >= 2) at.uploaded[s].wait();  // the pinned slot's previous chunk has left it
            const Clock::time_point pack_start = Clock::now();
            waiting += pack_start - wait_start;
            for (std::size_t i = 0; i < operands.size(); ++i)
                if (part.packs(i)) operands[i].data->pack(operands[i].count == 1 ? 0 : first, part.region(i).at(slot));
            packing += Clock::now() - pack_start;
            runtime.make_current();
            const cudaStream_t stream = runtime.stream(), upload = runtime.upload_stream(), download = runtime.download_stream();
            if (j >= 2) at.computed[s].wait_on(upload);  // the kernel is done with the device slot
            check(cudaMemcpyAsync(device_slot, slot, part.inputs(), cudaMemcpyHostToDevice, upload), "uploading operands");
            at.uploaded[s].record(upload);
            at.uploaded[s].wait_on(stream);
            if (j >= 2) at.downloaded[(j - 2) % 3].wait_on(stream);  // the device result slot has been read
            const std::vector<BatchView> r = results(at.device + 2 * slot_bytes, s, k);
            kernel(part.views(device_slot), r, runtime);
            at.computed[s].record(stream);
            at.computed[s].wait_on(download);
            // Pinned result slot j mod 3 held the device's chunk j - 3, unpacked by now.
            const std::vector<BatchView> out = results(at.host + 2 * slot_bytes, j % 3, k);
            for (std::size_t i = 0; i < r.size(); ++i) {
                check(cudaMemcpyAsync(out[i].limbs, r[i].limbs, n * r[i].stride * sizeof(limb_t), cudaMemcpyDeviceToHost,
                                      download),
                      "downloading results");
                check(cudaMemcpyAsync(out[i].sizes, r[i].sizes, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost, download),
                      "downloading result sizes");
            }
            at.downloaded[j % 3].record(download);
            if (k >= lag) deliver(k - lag);
        }
        for (std::size_t k = chunks >= lag ? chunks - lag : 0; k < chunks; ++k) deliver(k);
    } catch (const std::exception& e) {
        // Before any result, nothing is written and the error stands (as it does for a caller
        // with nowhere to finish: its results are kept aside, not written); after, the host finishes
        // what the GPU did not, so that no output is left half written. An error while writing
        // results (the host out of memory) goes to the caller, as on the CPU path.
        if (in_result || delivered == 0 || !finish_on_host) throw;
        std::fprintf(stderr, "zgpu: the GPU failed after %zu of %zu elements (%s); the host computes the rest\n", delivered,
                     count, e.what());
        finish_on_host(delivered);
        return Backend::cpu;
    }
    if (settings::timing())
        std::fprintf(stderr,
                     "zgpu: %zu elements on the GPU in %zu chunks over %zu devices: packing %.2f ms, waiting for the "
                     "GPU %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     count, chunks, devices, milliseconds(packing), milliseconds(waiting), milliseconds(unpacking),
                     milliseconds(Clock::now() - start));
    return Backend::gpu;
}

Backend run(std::span<const Operand> operands, std::size_t count, std::uint32_t result_stride,
            const OneResultKernel& kernel, const HostResult& result, const FinishOnHost& finish_on_host,
            std::size_t min_chunk)
{
    const std::uint32_t strides[] = {result_stride};
    return run(
        operands, count, strides,
        [&](std::span<const ConstBatchView> x, std::span<const BatchView> r, Runtime& runtime) { kernel(x, r[0], runtime); },
        [&](std::size_t first, std::span<const ConstBatchView> r) { result(first, r[0]); }, finish_on_host, min_chunk);
}

}  // namespace zgpu::gpu
