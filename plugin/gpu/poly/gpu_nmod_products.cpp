// Products of nmod polynomials from host arrays (poly_backend.hpp): grouped by transform length
// and route, each group in chunks of about 16 MiB of operands gathered into pinned memory, copied
// up, multiplied and copied back, the chunks overlapping and going round the devices in use.
// Routes: modulo n itself where n is a 62-bit NTT prime for the length
// (kernels/poly/poly_mul.hpp); otherwise through five 29-bit primes, CRT included, up to
// kPolyMulModNMaxLength (poly_mul_mod_n.hpp); longer ones through three 62-bit primes, then
// crt_to_moduli.hpp. ZGPU_TIMING=1 prints each group's host time (gathering, waiting,
// scattering) and device time a phase (uploads, transforms, CRT to the moduli, downloads).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "adapters/streaming_copy.hpp"
#include "base/parallel.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "kernels/poly/poly_mul_mod_n.hpp"
#include "plugin/gpu/poly/five_prime_tables.hpp"
#include "plugin/gpu/poly/garner.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// Products that run as one batch: one transform length, one prime n (0: through other primes),
// all squares or none.
struct Route {
    std::uint64_t length;
    limb_t prime;
    bool square;
    auto operator<=>(const Route&) const = default;

    bool five_primes() const { return !prime && length <= kernels::kPolyMulModNMaxLength; }
    bool three_primes() const { return !prime && !five_primes(); }
};

bool is_square(const NmodProduct& p) { return p.a == p.b && p.a_length == p.b_length; }

Route route_of(const NmodProduct& p)
{
    const std::uint64_t length = nmod_transform_length(p);
    // The cheap test first: few moduli have the transform length dividing n - 1.
    const bool one_prime = p.n < (limb_t(1) << 62) && p.n > 2 && (p.n - 1) % length == 0 && kernels::is_prime_word(p.n);
    return {length, one_prime ? p.n : 0, is_square(p)};
}

// The 64-bit primes of a route's transforms (none for the five 29-bit primes).
std::span<const limb_t> primes_of(const Route& route)
{
    if (route.prime) return std::span<const limb_t>(&route.prime, 1);
    return route.five_primes() ? std::span<const limb_t>() : three_product_primes();
}

// Coefficients of an operand that the product reads (mullow reads no more than it returns).
std::size_t read_length(std::size_t length, const NmodProduct& p) { return std::min(length, p.out_length); }

// Operand bytes a chunk of a group aims at: enough to fill the GPU, small enough that copying
// one chunk overlaps computing the one before and unpacking the one before that.
constexpr std::size_t kChunkBytes = std::size_t(16) << 20;

// Rows of words one after another (row j: lengths[j] words from offsets[j], offsets
// ascending, `total` in all) cut into pieces of about kPieceWords, spread over the host threads
// whatever the rows' lengths: copy(j, from, count) copies words [from, from + count) of row j.
constexpr std::uint64_t kPieceWords = std::uint64_t(1) << 15;

template <class Copy>
void for_row_pieces(std::span<const std::uint64_t> offsets, std::span<const std::uint32_t> lengths, std::uint64_t total,
                    const Copy& copy)
{
    parallel_for((total + kPieceWords - 1) / kPieceWords, 2, [&](std::size_t begin, std::size_t end) {
        const std::uint64_t lo = begin * kPieceWords, hi = std::min<std::uint64_t>(total, end * kPieceWords);
        // The last row starting at or before lo holds word lo.
        std::size_t j = std::size_t(std::upper_bound(offsets.begin(), offsets.end(), lo) - offsets.begin()) - 1;
        for (; j < offsets.size() && offsets[j] < hi; ++j) {
            const std::uint64_t from = std::max(lo, offsets[j]), to = std::min(hi, offsets[j] + lengths[j]);
            if (from < to) copy(j, from - offsets[j], to - from);
        }
        adapters::stream_fence();
    });
}

// The tables a route's kernels read, on one device: the 64-bit primes' NTT tables and Garner's
// constants, or the five primes' tables.
struct RouteTables {
    std::optional<kernels::PolyNttTablesView> ntt;
    const GarnerTables* garner = nullptr;
    const kernels::FivePrimeTablesView* five = nullptr;

    RouteTables(Runtime& runtime, const Route& route, std::span<const limb_t> primes)
    {
        if (route.five_primes()) five = &five_prime_tables(runtime);
        else ntt = poly_ntt_tables(runtime, primes, std::uint32_t(route.length));
        if (route.three_primes()) garner = &garner_tables(runtime, primes);
    }
};

// One chunk of a group: its products' places in one row of coefficients each for a, b and the
// results, and where everything lies in pinned memory (uploaded part first) and on the device.
struct Chunk {
    std::span<const NmodProduct* const> products;
    std::vector<std::uint64_t> a_offsets, b_offsets, out_offsets;
    std::vector<std::uint32_t> a_lengths, b_lengths, out_lengths;
    std::vector<kernels::Modulus> moduli;  // three primes: each n's constants and radix
    std::vector<limb_t> radix;
    std::vector<limb_t> moduli_words;  // five primes: each n
    std::uint64_t a_total = 0, b_total = 0, out_total = 0;
    std::uint32_t max_out = 0;
    UploadLayout layout;
    std::size_t a_at = 0, b_at = 0, a_offsets_at = 0, a_lengths_at = 0, b_offsets_at = 0, b_lengths_at = 0,
                out_offsets_at = 0, out_lengths_at = 0, moduli_at = 0, radix_at = 0, upload_bytes = 0, out_at = 0,
                residues_at = 0;

    Chunk(std::span<const NmodProduct* const> chunk, const Route& route, std::span<const limb_t> primes) : products(chunk)
    {
        for (const NmodProduct* p : chunk) {
            a_offsets.push_back(a_total), b_offsets.push_back(b_total), out_offsets.push_back(out_total);
            a_lengths.push_back(std::uint32_t(read_length(p->a_length, *p)));
            b_lengths.push_back(route.square ? 0 : std::uint32_t(read_length(p->b_length, *p)));
            out_lengths.push_back(std::uint32_t(p->out_length));
            a_total += a_lengths.back(), b_total += b_lengths.back(), out_total += out_lengths.back();
            max_out = std::max(max_out, out_lengths.back());
        }
        if (route.five_primes())
            for (const NmodProduct* p : chunk) moduli_words.push_back(p->n);
        if (route.three_primes()) {
            // Each modulus's constants take a few word divisions: on all host threads.
            moduli.resize(chunk.size());
            radix.resize(chunk.size() * primes.size());
            parallel_for(chunk.size(), 64, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    moduli[i] = kernels::make_modulus(chunk[i]->n);
                    const std::vector<limb_t> r = garner_radix(primes, chunk[i]->n);
                    std::copy(r.begin(), r.end(), radix.begin() + std::ptrdiff_t(i * primes.size()));
                }
            });
        }
        a_at = layout.reserve(a_total * sizeof(limb_t));
        b_at = layout.reserve(b_total * sizeof(limb_t));
        a_offsets_at = layout.add(a_offsets), a_lengths_at = layout.add(a_lengths);
        b_offsets_at = layout.add(b_offsets), b_lengths_at = layout.add(b_lengths);
        out_offsets_at = layout.add(out_offsets), out_lengths_at = layout.add(out_lengths);
        moduli_at = route.five_primes() ? layout.add(moduli_words) : layout.add(moduli), radix_at = layout.add(radix);
        upload_bytes = layout.bytes();
        // On the device alone: the products mod n and, for three primes, their residues.
        out_at = layout.reserve(out_total * sizeof(limb_t));
        residues_at = route.three_primes() ? layout.reserve(primes.size() * out_total * sizeof(limb_t)) : out_at;
    }
    std::size_t download_bytes() const { return out_total * sizeof(limb_t); }

    // The operands into pinned memory, on all host threads.
    void gather(std::byte* staging) const
    {
        layout.gather_into(staging);
        const auto into = [&](std::size_t at, std::span<const std::uint64_t> offsets, bool is_b) {
            return [=, this](std::size_t j, std::uint64_t from, std::uint64_t count) {
                const limb_t* source = is_b ? products[j]->b : products[j]->a;
                adapters::stream_copy(staging + at + (offsets[j] + from) * sizeof(limb_t), source + from, count * sizeof(limb_t));
            };
        };
        for_row_pieces(a_offsets, a_lengths, a_total, into(a_at, a_offsets, false));
        for_row_pieces(b_offsets, b_lengths, b_total, into(b_at, b_offsets, true));
    }
    // The results from pinned memory into the callers' arrays, on all host threads.
    void scatter(const std::byte* staging) const
    {
        for_row_pieces(out_offsets, out_lengths, out_total, [&](std::size_t j, std::uint64_t from, std::uint64_t count) {
            std::memcpy(products[j]->out + from, staging + (out_offsets[j] + from) * sizeof(limb_t), count * sizeof(limb_t));
        });
    }
    // The products, on the device copy of the chunk at `device`.
    // The products on the device: modulo n itself, or through the five primes with the CRT to
    // n in the same kernel, or modulo the three primes (then reconstruct()).
    void multiply(std::byte* device, const Route& route, const RouteTables& tables, std::size_t k, cudaStream_t stream) const
    {
        const kernels::ConstPolyBatchView a{{at(device, a_at), a_total, k, 0}, u64(device, a_offsets_at), u32(device, a_lengths_at)};
        const kernels::ConstPolyBatchView b{{at(device, b_at), b_total, k, 0}, u64(device, b_offsets_at), u32(device, b_lengths_at)};
        if (route.five_primes()) {
            const kernels::PolyBatchView out{{at(device, out_at), out_total, 1, 0}, u64(device, out_offsets_at), u32(device, out_lengths_at)};
            return kernels::poly_mul_mod_n(a, b, route.square, products.size(), std::uint32_t(route.length), u64(device, moduli_at),
                                           *tables.five, out, stream);
        }
        kernels::poly_mul(a, b, route.square, products.size(), std::uint32_t(route.length), *tables.ntt, residues(device, k),
                          stream);
    }
    // The three primes' residues to each product's modulus (crt_to_moduli); nothing on the
    // other routes.
    void reconstruct(std::byte* device, const Route& route, const RouteTables& tables, std::size_t k, cudaStream_t stream) const
    {
        if (!route.three_primes()) return;
        kernels::crt_to_moduli(residues(device, k).values, tables.garner->view(), reinterpret_cast<const kernels::Modulus*>(device + moduli_at),
                               at(device, radix_at), u64(device, out_offsets_at), u32(device, out_lengths_at), products.size(), max_out,
                               at(device, out_at), stream);
    }

    static limb_t* at(std::byte* device, std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); }
    static const std::uint64_t* u64(std::byte* device, std::size_t offset) { return reinterpret_cast<const std::uint64_t*>(device + offset); }
    static const std::uint32_t* u32(std::byte* device, std::size_t offset) { return reinterpret_cast<const std::uint32_t*>(device + offset); }
    kernels::PolyBatchView residues(std::byte* device, std::size_t k) const
    {
        return {{at(device, residues_at), out_total, k, out_total}, u64(device, out_offsets_at), u32(device, out_lengths_at)};
    }
};

std::vector<Chunk> chunks_of(std::span<const NmodProduct* const> group, const Route& route, std::span<const limb_t> primes)
{
    std::vector<Chunk> chunks;
    for (std::size_t first = 0; first < group.size();) {
        std::size_t last = first, bytes = 0;
        do {
            const NmodProduct& p = *group[last];
            bytes += (read_length(p.a_length, p) + read_length(p.b_length, p)) * sizeof(limb_t);
            ++last;
        } while (last < group.size() && bytes < kChunkBytes);
        chunks.emplace_back(group.subspan(first, last - first), route, primes);
        first = last;
    }
    return chunks;
}

// A device's part of a group: its runtime and tables, two slots of pinned operands, three of
// pinned results and two of device memory, and the events that order its streams (made with the
// device current).
struct DeviceLane {
    Runtime& runtime;
    const RouteTables tables;
    std::byte *staging, *device;
    // Operand slot s uploaded; the kernels done with device slot s; the device's chunk j
    // downloaded into pinned result slot j mod 3.
    Event uploaded[2], computed[2], downloaded[3];
    // Waits for the device's streams on every exit, before the staging is used again.
    DrainOnExit drain;

    DeviceLane(Runtime& runtime, const Route& route, std::span<const limb_t> primes, std::size_t staging_bytes,
               std::size_t device_bytes)
        : runtime(runtime), tables(runtime, route, primes), staging(runtime.staging(staging_bytes)),
          device(runtime.scratch(device_bytes)), drain{runtime.stream(), runtime.upload_stream(), runtime.download_stream()}
    {
    }
};

// The group's chunks round the devices in use, chunk c on device c mod D as that device's chunk
// j = c / D, through its operand and device slots j mod 2 and pinned result slot j mod 3: chunk
// c's operands are gathered while the chunks before it compute, and the results of chunk c - 2D
// (two chunks back on the same device) are scattered after, so that the host rarely waits for a
// chunk's round trip. Each device's upload, kernel and download streams are ordered by its events.
void run_group(std::span<const NmodProduct* const> group, const Route& route)
{
    const Clock::time_point start = Clock::now();
    const std::span<const limb_t> primes = primes_of(route);
    const std::vector<Chunk> chunks = chunks_of(group, route, primes);
    std::size_t up_bytes = 0, down_bytes = 0, device_bytes = 0;
    for (const Chunk& c : chunks) {
        up_bytes = std::max(up_bytes, (c.upload_bytes + 255) / 256 * 256);
        down_bytes = std::max(down_bytes, (c.download_bytes() + 255) / 256 * 256);
        device_bytes = std::max(device_bytes, c.layout.bytes());
    }
    const std::vector<Runtime*> in_use = Runtime::in_use();
    const std::span<Runtime* const> runtimes(in_use.data(), std::min(in_use.size(), chunks.size()));
    const std::size_t devices = runtimes.size();
    const Runtime::Leases leases(runtimes);
    std::deque<DeviceLane> lanes;  // events are not movable
    for (Runtime* runtime : runtimes) {
        runtime->make_current();
        lanes.emplace_back(*runtime, route, primes, 2 * up_bytes + 3 * down_bytes, 2 * device_bytes);
    }
    const auto up_slot = [&](const DeviceLane& lane, std::size_t j) { return lane.staging + j % 2 * up_bytes; };
    const auto down_slot = [&](const DeviceLane& lane, std::size_t j) { return lane.staging + 2 * up_bytes + j % 3 * down_bytes; };
    const auto device_slot = [&](const DeviceLane& lane, std::size_t j) { return lane.device + j % 2 * device_bytes; };
    const Clock::duration planning = Clock::now() - start;  // the chunks' layouts, the devices' slots and tables
    Clock::duration gathering{}, waiting{}, scattering{};
    enum Phase { kUpload, kTransforms, kCrt, kDownload };
    PhaseTimes times(4);  // the first device's
    const auto timed = [](Clock::duration& total, const auto& work) {
        const Clock::time_point from = Clock::now();
        work();
        total += Clock::now() - from;
    };
    const std::size_t lag = 2 * devices;  // chunks enqueued before the first is scattered
    const auto scatter = [&](std::size_t c) {
        const DeviceLane& lane = lanes[c % devices];
        const std::size_t j = c / devices;
        timed(waiting, [&] { lane.downloaded[j % 3].wait(); });
        timed(scattering, [&] { chunks[c].scatter(down_slot(lane, j)); });
    };
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        DeviceLane& lane = lanes[c % devices];
        const std::size_t j = c / devices, s = j % 2;
        const Chunk& chunk = chunks[c];
        const bool timing = times.on() && c % devices == 0;
        if (j >= 2) timed(waiting, [&] { lane.uploaded[s].wait(); });  // the pinned slot has left for the device
        timed(gathering, [&] { chunk.gather(up_slot(lane, j)); });
        lane.runtime.make_current();
        const cudaStream_t stream = lane.runtime.stream(), upload = lane.runtime.upload_stream(),
                           download = lane.runtime.download_stream();
        // Chunk j - 2 is done with the device slot: its kernels, and its download, whose results lie
        // where this chunk's longer operands may go (each chunk's results follow its operands).
        if (j >= 2) lane.computed[s].wait_on(upload), lane.downloaded[(j - 2) % 3].wait_on(upload);
        if (timing) times.begin(kUpload, upload);
        check(cudaMemcpyAsync(device_slot(lane, j), up_slot(lane, j), chunk.upload_bytes, cudaMemcpyHostToDevice, upload),
              "uploading polynomials");
        if (timing) times.end(kUpload, upload);
        lane.uploaded[s].record(upload);
        lane.uploaded[s].wait_on(stream);  // and so after chunk j - 2 has left the slot
        if (timing) times.begin(kTransforms, stream);
        chunk.multiply(device_slot(lane, j), route, lane.tables, primes.size(), stream);
        if (timing) times.end(kTransforms, stream), times.begin(kCrt, stream);
        chunk.reconstruct(device_slot(lane, j), route, lane.tables, primes.size(), stream);
        if (timing) times.end(kCrt, stream);
        lane.computed[s].record(stream);
        lane.computed[s].wait_on(download);
        if (timing) times.begin(kDownload, download);
        check(cudaMemcpyAsync(down_slot(lane, j), device_slot(lane, j) + chunk.out_at, chunk.download_bytes(),
                              cudaMemcpyDeviceToHost, download),
              "downloading products");
        if (timing) times.end(kDownload, download);
        // Pinned result slot j mod 3 held the device's chunk j - 3, scattered by now.
        lane.downloaded[j % 3].record(download);
        if (c >= lag) scatter(c - lag);
    }
    for (std::size_t c = chunks.size() >= lag ? chunks.size() - lag : 0; c < chunks.size(); ++c) scatter(c);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: %zu nmod products of transform length %llu on %zu primes, %zu chunks over %zu devices: planning "
                     "%.2f ms, gathering %.2f ms, waiting for the GPU %.2f ms, scattering %.2f ms, total %.2f ms; the first device's time, "
                     "overlapping: uploads %.2f ms, transforms %.2f ms%s, CRT to the moduli %.2f ms, downloads %.2f ms\n",
                     group.size(), static_cast<unsigned long long>(route.length),
                     route.five_primes() ? std::size_t(kernels::kFivePrimeCount) : primes.size(), chunks.size(), devices,
                     milliseconds(planning), milliseconds(gathering), milliseconds(waiting), milliseconds(scattering), milliseconds(Clock::now() - start),
                     times.milliseconds(kUpload), times.milliseconds(kTransforms),
                     route.five_primes() ? " (with the CRT: one kernel)" : "", times.milliseconds(kCrt), times.milliseconds(kDownload));
}
}  // namespace

std::uint64_t nmod_transform_length(const NmodProduct& p)
{
    const std::uint64_t la = std::min(p.a_length, p.out_length), lb = std::min(p.b_length, p.out_length);
    if (la == 0 || lb == 0) return 0;
    return std::max<std::uint64_t>(kernels::kPolyNttMinLength, std::bit_ceil(la + lb - 1));
}

void nmod_products(std::span<const NmodProduct> products)
{
    std::map<Route, std::vector<const NmodProduct*>> groups;
    for (const NmodProduct& p : products) {
        if (p.out_length == 0) continue;
        if (nmod_transform_length(p) > kMaxPolyTransform)
            throw Error("nmod polynomial products: a transform of " + std::to_string(nmod_transform_length(p)) +
                        " words exceeds the GPU's " + std::to_string(kMaxPolyTransform));
        groups[route_of(p)].push_back(&p);
    }
    for (const auto& [route, group] : groups) run_group(group, route);
}

}  // namespace zgpu::gpu
