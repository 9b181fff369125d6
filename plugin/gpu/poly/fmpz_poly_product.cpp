// The product of two polynomials over Z on the GPU (poly_backend.hpp): the coefficients packed
// on the host threads into pinned memory and copied up, reduced modulo each prime of the set
// (multi_mod), multiplied modulo each prime (poly_mul), and reconstructed (multi_crt) in chunks
// of coefficients that are copied down and handed to the caller while the next chunk runs.
// ZGPU_TIMING=1 prints the split to stderr: host packing and unpacking, and the device time of
// the upload, reduction and transforms, CRT and downloads.
#include <algorithm>
#include <cstdio>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/modular/modular_tables.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {
namespace {

// Coefficients a CRT chunk: enough for the whole GPU (the kernel takes 32 values a block), few
// enough that copying one down overlaps the next.
constexpr std::size_t kCrtChunkBytes = std::size_t(32) << 20;
constexpr std::size_t kMinCrtChunk = 8192;

// Where a batch of `count` elements of `stride` limbs lies in a layout: limbs, then sizes.
struct BatchPlace {
    std::size_t limbs, sizes, count;
    std::uint32_t stride;

    static BatchPlace reserve(UploadLayout& layout, std::size_t count, std::uint32_t stride)
    {
        const std::size_t limbs = layout.reserve(count * stride * sizeof(limb_t));
        return {limbs, layout.reserve(count * sizeof(std::int32_t)), count, stride};
    }
    BatchView in(std::byte* base) const
    {
        return {reinterpret_cast<limb_t*>(base + limbs), reinterpret_cast<std::int32_t*>(base + sizes), count, stride};
    }
};

// Writes the operand's elements into `out` on all host threads.
void pack(const HostOperand& x, BatchView out)
{
    parallel_for(out.count, adapters::min_parallel_elements(out.stride), [&](std::size_t begin, std::size_t end) {
        x.pack(begin, {out.element(begin), out.sizes + begin, end - begin, out.stride});
    });
}

}  // namespace

void fmpz_poly_product(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                       std::size_t out_length, const ModularTables& tables, const HostResult& result)
{
    if (out_length == 0) return;
    a.require_packable();
    b.require_packable();
    const Clock::time_point start = Clock::now();
    const bool square = &a == &b && a_length == b_length;
    // mullow: no more coefficients of an operand than the result has.
    const std::size_t la = std::min(a_length, out_length), lb = square ? la : std::min(b_length, out_length);
    const std::span<const limb_t> primes = tables.moduli();
    const std::size_t k = primes.size();
    const std::uint32_t length = kernels::poly_ntt_length(la, lb), crt_stride = size_class(crt_limbs(tables));

    UploadLayout layout;
    const BatchPlace a_place = BatchPlace::reserve(layout, la, size_class(std::uint32_t(std::max<std::uint64_t>(a.max_limbs, 1))));
    const BatchPlace b_place = square ? a_place : BatchPlace::reserve(layout, lb, size_class(std::uint32_t(std::max<std::uint64_t>(b.max_limbs, 1))));
    const std::size_t upload_bytes = layout.bytes();
    const std::size_t a_residues = layout.reserve(k * la * sizeof(limb_t));
    const std::size_t b_residues = square ? a_residues : layout.reserve(k * lb * sizeof(limb_t));
    const std::size_t c_residues = layout.reserve(k * out_length * sizeof(limb_t));
    const std::size_t chunk = std::min(out_length, std::max(kMinCrtChunk, kCrtChunkBytes / (crt_stride * sizeof(limb_t))));
    const BatchPlace out_place = BatchPlace::reserve(layout, out_length, crt_stride);
    UploadLayout slot_layout;  // one chunk of results in pinned memory
    const BatchPlace slot_place = BatchPlace::reserve(slot_layout, chunk, crt_stride);

    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const PolyNttTables& ntt = poly_ntt_tables(primes, length);
    std::byte* staging = runtime.staging(std::max(upload_bytes, 2 * slot_layout.bytes()));
    std::byte* device = runtime.scratch(layout.bytes());

    pack(a, a_place.in(staging));
    if (!square) pack(b, b_place.in(staging));
    const Clock::time_point packed = Clock::now();
    enum Phase { kUpload, kTransforms, kCrt, kDownload };
    PhaseTimes times(4);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, upload_bytes, cudaMemcpyHostToDevice, stream), "uploading polynomials");
    times.end(kUpload, stream);
    times.begin(kTransforms, stream);

    const auto residues = [&](std::size_t at, std::size_t count) {
        return kernels::ResidueView{reinterpret_cast<limb_t*>(device + at), count, k, count};
    };
    kernels::multi_mod(a_place.in(device), tables.view(), residues(a_residues, la), stream);
    if (!square) kernels::multi_mod(b_place.in(device), tables.view(), residues(b_residues, lb), stream);
    // One product: each polynomial at offset 0, of its residue array's count.
    kernels::poly_mul({residues(a_residues, la)}, {residues(b_residues, lb)}, square, 1, length, ntt.view(),
                      {residues(c_residues, out_length)}, stream);
    times.end(kTransforms, stream);

    // CRT chunk by chunk, each copied into one of two pinned slots, unpacked while the next runs.
    const BatchView out = out_place.in(device);
    const kernels::ConstResidueView c = residues(c_residues, out_length);
    Event ready[2];
    const DrainOnExit drain{{stream, stream, stream}};
    Clock::duration unpacking{};
    const auto enqueue = [&](std::size_t first) {
        const std::size_t count = std::min(chunk, out_length - first);
        const kernels::ConstResidueView part{c.data + first, count, k, c.prime_stride};
        const BatchView values{out.element(first), out.sizes + first, count, crt_stride};
        times.begin(kCrt, stream);
        kernels::multi_crt(part, tables.view(), true, values, stream);
        times.end(kCrt, stream);
        times.begin(kDownload, stream);
        const BatchView slot = slot_place.in(staging + (first / chunk % 2) * slot_layout.bytes());
        check(cudaMemcpyAsync(slot.limbs, values.limbs, count * crt_stride * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading products");
        check(cudaMemcpyAsync(slot.sizes, values.sizes, count * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream), "downloading products");
        times.end(kDownload, stream);
        ready[first / chunk % 2].record(stream);
    };
    enqueue(0);
    for (std::size_t first = 0; first < out_length; first += chunk) {
        if (first + chunk < out_length) enqueue(first + chunk);
        ready[first / chunk % 2].wait();
        const Clock::time_point unpack_start = Clock::now();
        BatchView slot = slot_place.in(staging + (first / chunk % 2) * slot_layout.bytes());
        slot.count = std::min(chunk, out_length - first);
        result(first, slot);
        unpacking += Clock::now() - unpack_start;
    }
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_poly product %zu x %zu, %zu primes, transform %u: packing %.2f ms, upload %.2f ms, "
                     "reduction and transforms %.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     la, lb, k, length, milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kTransforms), times.milliseconds(kCrt), times.milliseconds(kDownload),
                     milliseconds(unpacking), milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
