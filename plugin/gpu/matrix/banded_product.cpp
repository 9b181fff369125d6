#include "plugin/gpu/matrix/banded_product.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "base/parallel.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/matrix/product_blocks.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/queue_thread.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// Bands of c enqueued before the host unpacks the first: the host packs two bands ahead while
// the first one's round trip runs.
constexpr std::size_t kBandsAhead = 2;

std::uint32_t packed_stride(const HostOperand& x) { return size_class(std::uint32_t(std::max<std::uint64_t>(x.max_limbs, 1))); }

// The most elements of `stride` limbs whose batch fits `bytes`: a batch's two arrays each start
// at a 256-byte boundary, so n elements of e bytes take at most n e + 510.
std::size_t elements_within(std::size_t bytes, std::uint32_t stride)
{
    return bytes > 512 ? (bytes - 512) / (stride * sizeof(limb_t) + sizeof(std::int32_t)) : 0;
}

// The bytes a batch of `count` elements of `stride` limbs takes in a layout.
std::size_t batch_bytes(std::size_t count, std::uint32_t stride)
{
    UploadLayout layout;
    BatchPlace::reserve(layout, count, stride);
    return layout.bytes();
}

// `count` elements of a batch placed for more.
BatchView first_of(BatchView batch, std::size_t count)
{
    batch.count = count;
    return batch;
}

}  // namespace

void banded_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                    const ModularTables& tables, const HostResult& result, std::size_t pinned_bytes)
{
    if (rows == 0 || cols == 0) return;
    a.require_packable();
    b.require_packable();
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size(), b_count = inner * cols;
    const std::uint32_t a_stride = packed_stride(a), b_stride = packed_stride(b), c_stride = size_class(crt_limbs(tables));
    const std::size_t in_slot = pinned_bytes / 8, out_slot = pinned_bytes / 4;
    const ProductBands bands = product_bands(rows, std::min(elements_within(in_slot, a_stride) / std::max<std::size_t>(inner, 1),
                                                            elements_within(out_slot, c_stride) / cols));
    const std::size_t a_band = bands.rows * inner, c_band = bands.rows * cols;
    // Device slots of a's packed bands and c's values (one being written while the other is
    // read), and pinned slots of c's values (kBandsAhead + 1: the host unpacks one while the
    // next ones come down).
    const std::size_t device_slots = std::min<std::size_t>(bands.count, 2), out_slots = std::min(bands.count, kBandsAhead + 1);

    // On the device: all of b, packed and as residues; a band of a, packed (in slots) and as
    // residues; a band of c, as residues and as values (in slots). Never more than
    // fmpz_mat_product's plan of the whole block.
    UploadLayout device_layout;
    const BatchPlace b_place = BatchPlace::reserve(device_layout, b_count, b_stride);
    const std::size_t b_residues = device_layout.reserve(k * b_count * sizeof(limb_t));
    std::vector<BatchPlace> a_places, c_places, out_places;
    for (std::size_t s = 0; s < device_slots; ++s) a_places.push_back(BatchPlace::reserve(device_layout, a_band, a_stride));
    const std::size_t a_residues = device_layout.reserve(k * a_band * sizeof(limb_t));
    const std::size_t c_residues = device_layout.reserve(k * c_band * sizeof(limb_t));
    for (std::size_t s = 0; s < device_slots; ++s) c_places.push_back(BatchPlace::reserve(device_layout, c_band, c_stride));
    // Pinned: two slots that operands are packed into, a band of a or a chunk of b at a time.
    const std::size_t in_bytes = std::max(batch_bytes(a_band, a_stride), std::min(batch_bytes(b_count, b_stride), in_slot));
    const std::size_t b_chunk = std::clamp<std::size_t>(elements_within(in_bytes, b_stride), 1, std::max<std::size_t>(b_count, 1));
    const std::size_t slot_bytes = std::max(in_bytes, batch_bytes(b_chunk, b_stride));
    UploadLayout pinned_layout;
    const std::size_t in_at[2] = {pinned_layout.reserve(slot_bytes), pinned_layout.reserve(slot_bytes)};
    for (std::size_t s = 0; s < out_slots; ++s) out_places.push_back(BatchPlace::reserve(pinned_layout, c_band, c_stride));

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream(), upload_stream = runtime.upload_stream(), download_stream = runtime.download_stream();
    std::byte* pinned = runtime.staging(pinned_layout.bytes());
    std::byte* device = runtime.scratch(device_layout.bytes());
    const KeepWorkersAwake awake;  // the host threads pack and unpack in turn
    // Pinned slot s uploaded; a's device slot s reduced; a band's values ready; pinned value slot
    // s downloaded. Declared before the drain, so that they outlive the work that records them.
    Event uploaded[2], reduced[2], computed, downloaded[kBandsAhead + 1];
    const DrainOnExit drain{stream, upload_stream, download_stream};  // before the pinned memory is used again
    enum Phase { kUpload, kReduction, kProducts, kCrt, kDownload };
    PhaseTimes times(5);
    Clock::duration packing{}, waiting{}, unpacking{}, enqueueing{};  // the host threads' time
    const kernels::ModularTablesView& view = tables.view(runtime);
    // A residue view of a band's entries is a batch of matrices, one a prime.
    const auto matrices = [&](std::size_t at, std::size_t r, std::size_t c) {
        return kernels::MatricesView{reinterpret_cast<limb_t*>(device + at), r, c, c, r * c, k};
    };
    std::optional<RightOperandProducts> by_b;  // b's products, once b is reduced
    // The GPU's work is queued by a thread of its own, in order, while this one packs and
    // unpacks; an event is waited for only once the work that records it has been queued. The
    // thread ends before what its work uses, and before the drain.
    QueueThread gpu_queue(runtime);
    const auto queued = [&](std::function<void()> work) {
        return gpu_queue.post([&enqueueing, work = std::move(work)] {
            const Clock::time_point queue_start = Clock::now();
            work();
            enqueueing += Clock::now() - queue_start;
        });
    };

    // Packs elements first.. of x into the next pinned slot and has them copied up into `to`
    // once `free` (the last reader of the device slot; may be null) has passed, then reduced into
    // `residues` on the kernels' stream. Returns the queued work's ticket.
    std::size_t uploads = 0, upload_tickets[2] = {0, 0};
    const auto upload_and_reduce = [&](const HostOperand& x, std::size_t first, BatchView to, const Event* free,
                                       kernels::ResidueView residues) {
        const std::size_t s = uploads++ % 2;
        const Clock::time_point wait_start = Clock::now();
        gpu_queue.wait(upload_tickets[s]);
        if (uploads > 2) uploaded[s].wait();  // the slot's previous upload has left it
        const Clock::time_point pack_start = Clock::now();
        waiting += pack_start - wait_start;
        UploadLayout slot;
        const BatchView packed = BatchPlace::reserve(slot, to.count, to.stride).in(pinned + in_at[s]);
        x.pack(first, packed);
        packing += Clock::now() - pack_start;
        return upload_tickets[s] = queued([&, s, to, packed, free, residues] {
            if (free) free->wait_on(upload_stream);
            times.begin(kUpload, upload_stream);
            check(cudaMemcpyAsync(to.limbs, packed.limbs, to.count * to.stride * sizeof(limb_t), cudaMemcpyHostToDevice,
                                  upload_stream),
                  "uploading operands");
            check(cudaMemcpyAsync(to.sizes, packed.sizes, to.count * sizeof(std::int32_t), cudaMemcpyHostToDevice, upload_stream),
                  "uploading operands");
            times.end(kUpload, upload_stream);
            uploaded[s].record(upload_stream);
            uploaded[s].wait_on(stream);
            times.begin(kReduction, stream);
            kernels::multi_mod(to, view, residues, stream);
            times.end(kReduction, stream);
        });
    };

    const BatchView b_device = b_place.in(device);
    limb_t* const b_words = reinterpret_cast<limb_t*>(device + b_residues);
    std::size_t b_reduced = 0;
    for (std::size_t first = 0; first < b_count; first += b_chunk) {
        const std::size_t n = std::min(b_chunk, b_count - first);
        b_reduced = upload_and_reduce(b, first, {b_device.element(first), b_device.sizes + first, n, b_stride}, nullptr,
                                      {b_words + first, n, k, b_count});
    }

    // Gives the caller band i's values once they are in pinned memory.
    std::vector<std::size_t> band_tickets(bands.count);
    const auto deliver = [&](std::size_t i) {
        const Clock::time_point wait_start = Clock::now();
        gpu_queue.wait(band_tickets[i]);
        downloaded[i % out_slots].wait();
        const Clock::time_point unpack_start = Clock::now();
        waiting += unpack_start - wait_start;
        const std::size_t r0 = i * bands.rows, h = std::min(bands.rows, rows - r0);
        result(r0 * cols, first_of(out_places[i % out_slots].in(pinned), h * cols));
        unpacking += Clock::now() - unpack_start;
    };
    // b's preparation follows its reductions on the stream.
    gpu_queue.wait(b_reduced);
    times.begin(kProducts, stream);
    by_b.emplace(runtime, matrices(b_residues, inner, cols), view.moduli, modulus_bits(tables.moduli()), bands.rows);
    times.end(kProducts, stream);
    for (std::size_t i = 0; i < bands.count; ++i) {
        const std::size_t r0 = i * bands.rows, h = std::min(bands.rows, rows - r0), d = i % device_slots;
        const BatchView a_device = first_of(a_places[d].in(device), h * inner);
        upload_and_reduce(a, r0 * inner, a_device, i >= device_slots ? &reduced[d] : nullptr,
                          {reinterpret_cast<limb_t*>(device + a_residues), h * inner, k, h * inner});
        band_tickets[i] = queued([&, i, h, d] {
            reduced[d].record(stream);
            times.begin(kProducts, stream);
            by_b->multiply(matrices(a_residues, h, inner), matrices(c_residues, h, cols));
            times.end(kProducts, stream);
            // The values' device slot was last read by band i - device_slots's download.
            if (i >= device_slots) downloaded[(i - device_slots) % out_slots].wait_on(stream);
            const BatchView values = first_of(c_places[d].in(device), h * cols);
            times.begin(kCrt, stream);
            kernels::multi_crt({reinterpret_cast<const limb_t*>(device + c_residues), h * cols, k, h * cols}, view, true, values, stream);
            times.end(kCrt, stream);
            computed.record(stream);
            computed.wait_on(download_stream);
            // Pinned slot i mod out_slots held band i - out_slots, which the host has unpacked.
            const BatchView out = first_of(out_places[i % out_slots].in(pinned), h * cols);
            times.begin(kDownload, download_stream);
            check(cudaMemcpyAsync(out.limbs, values.limbs, h * cols * c_stride * sizeof(limb_t), cudaMemcpyDeviceToHost, download_stream),
                  "downloading products");
            check(cudaMemcpyAsync(out.sizes, values.sizes, h * cols * sizeof(std::int32_t), cudaMemcpyDeviceToHost, download_stream),
                  "downloading products");
            times.end(kDownload, download_stream);
            downloaded[i % out_slots].record(download_stream);
        });
        if (i >= kBandsAhead) deliver(i - kBandsAhead);
    }
    for (std::size_t i = bands.count > kBandsAhead ? bands.count - kBandsAhead : 0; i < bands.count; ++i) deliver(i);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_mat product %zu x %zu times %zu x %zu, %zu primes, %zu bands: host packing %.2f ms, unpacking "
                     "%.2f ms, waiting %.2f ms, queueing the GPU's work (its own thread) %.2f ms; device upload %.2f ms, "
                     "reduction %.2f ms, products %.2f ms, CRT %.2f ms, downloads %.2f ms; total %.2f ms\n",
                     rows, inner, inner, cols, k, bands.count, milliseconds(packing), milliseconds(unpacking), milliseconds(waiting),
                     milliseconds(enqueueing),
                     times.milliseconds(kUpload), times.milliseconds(kReduction), times.milliseconds(kProducts),
                     times.milliseconds(kCrt), times.milliseconds(kDownload), milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
