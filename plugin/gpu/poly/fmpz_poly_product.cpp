// The product of two polynomials over Z on the GPU (poly_backend.hpp): the coefficients packed
// on the host threads into pinned memory and copied up, reduced modulo each prime of the set
// (multi_mod), multiplied modulo each prime (poly_mul), and reconstructed (multi_crt) in chunks
// of coefficients that are copied down and handed to the caller while the next chunk runs. With
// several devices in use, each takes a share of the primes for the transforms, and their rows
// of the product's residues are copied to the first device for the CRT.
// ZGPU_TIMING=1 prints the split to stderr: host packing and unpacking, and the device time of
// the upload, reduction and transforms (on the first device), gathering, CRT and downloads.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <vector>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {
namespace {

// Residue words of a product's transforms (transform length times primes) from which its primes
// are split over several devices: each extra device costs an upload of the coefficients, their
// reduction modulo every prime, and a copy of its rows to the first device.
constexpr std::size_t kMinSplitWords = std::size_t(1) << 21;

// Buffers a device is taken to have room for without asking it: reading its free memory costs
// a call into the driver, and the GPUs this runs on have tens of GB.
constexpr std::size_t kSureBytes = std::size_t(256) << 20;

// A product's device buffers in one allocation a device: the packed operands (uploaded), their
// residues and the product's, and the CRT's batch.
struct ProductBuffers {
    ProductBuffers(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length, std::size_t out_length,
                   const ModularTables& tables)
        : square(&a == &b && a_length == b_length),
          // mullow: no more coefficients of an operand than the result has.
          la(std::min(a_length, out_length)),
          lb(square ? la : std::min(b_length, out_length)),
          k(tables.moduli().size()),
          a_place(operand_place(layout, a, la)),
          b_place(square ? a_place : operand_place(layout, b, lb)),
          upload_bytes(layout.bytes()),
          a_residues(layout.reserve(k * la * sizeof(limb_t))),
          b_residues(square ? a_residues : layout.reserve(k * lb * sizeof(limb_t))),
          c_residues(layout.reserve(k * out_length * sizeof(limb_t))),
          crt(layout, out_length, tables)
    {
    }

    bool square;
    std::size_t la, lb, k;
    UploadLayout layout;
    BatchPlace a_place, b_place;
    std::size_t upload_bytes, a_residues, b_residues, c_residues;
    CrtToHost crt;
};

}  // namespace

std::size_t fmpz_poly_product_bytes(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                                    std::size_t out_length, const ModularTables& tables)
{
    return ProductBuffers(a, a_length, b, b_length, out_length, tables).layout.bytes();
}

bool poly_device_fits(std::size_t bytes)
{
    if (bytes > settings::gpu_memory_limit()) return false;
    if (bytes <= kSureBytes) return true;
    const std::vector<Runtime*> in_use = Runtime::in_use();
    in_use[0]->make_current();
    return bytes <= in_use[0]->scratch_available();
}

void fmpz_poly_product(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                       std::size_t out_length, const ModularTables& tables, const HostResult& result)
{
    if (out_length == 0) return;
    a.require_packable();
    b.require_packable();
    const Clock::time_point start = Clock::now();
    // The host threads pack both operands and unpack each chunk, a few hundred microseconds
    // apart in the products of a power series; waking them from sleep costs about 40 us each time.
    const KeepWorkersAwake awake;
    const ProductBuffers buffers(a, a_length, b, b_length, out_length, tables);
    const auto& [square, la, lb, k, layout, a_place, b_place, upload_bytes, a_residues, b_residues, c_residues, crt] = buffers;
    const std::span<const limb_t> primes = tables.moduli();
    const std::uint32_t length = kernels::poly_ntt_length(la, lb);

    // The primes split over the devices in use, rows r_d = k d / D to r_(d+1) of the residues
    // on device d, where the transforms are long enough to repay the extra uploads.
    const std::vector<Runtime*> in_use = Runtime::in_use();
    const std::size_t parts = std::size_t(length) * k >= kMinSplitWords ? std::min(in_use.size(), k) : 1;
    const std::span<Runtime* const> runtimes(in_use.data(), parts);
    const auto first_row = [&](std::size_t d) { return k * d / parts; };
    const Runtime::Leases leases(runtimes);
    Runtime& runtime = *runtimes[0];
    runtime.make_current();
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(upload_bytes, crt.staging_bytes()));

    pack(a, a_place.in(staging));
    if (!square) pack(b, b_place.in(staging));
    const Clock::time_point packed = Clock::now();
    enum Phase { kUpload, kTransforms, kGather, kCrt, kDownload };
    PhaseTimes times(5);
    std::deque<DrainOnExit> drains;  // every device's stream, before the staging is used again
    std::deque<Event> transformed;   // device d's rows done, for d >= 1
    std::vector<std::byte*> device(parts);
    const auto residues = [&](std::byte* base, std::size_t at, std::size_t count) {
        return kernels::ResidueView{reinterpret_cast<limb_t*>(base + at), count, k, count};
    };
    // Each device: the coefficients up, reduced modulo every prime, and multiplied modulo its own.
    for (std::size_t d = 0; d < parts; ++d) {
        Runtime& on = *runtimes[d];
        on.make_current();
        const cudaStream_t s = on.stream();
        drains.emplace_back(s, s, s);
        device[d] = on.scratch(layout.bytes());
        if (d == 0) times.begin(kUpload, s);
        check(cudaMemcpyAsync(device[d], staging, upload_bytes, cudaMemcpyHostToDevice, s), "uploading polynomials");
        if (d == 0) times.end(kUpload, s), times.begin(kTransforms, s);
        kernels::multi_mod(a_place.in(device[d]), tables.view(on), residues(device[d], a_residues, la), s);
        if (!square) kernels::multi_mod(b_place.in(device[d]), tables.view(on), residues(device[d], b_residues, lb), s);
        const std::size_t r0 = first_row(d), rows = first_row(d + 1) - r0;
        const auto mine = [&](std::size_t at, std::size_t count) {
            kernels::ResidueView r = residues(device[d], at, count);
            return kernels::ResidueView{r.prime(r0), count, rows, count};
        };
        // One product: each polynomial at offset 0, of its residue array's count.
        const kernels::PolyNttTablesView ntt = poly_ntt_tables(on, primes.subspan(r0, rows), length);
        kernels::poly_mul({mine(a_residues, la)}, {mine(b_residues, lb)}, square, 1, length, ntt,
                          {mine(c_residues, out_length)}, s);
        if (d == 0) times.end(kTransforms, s);
        else transformed.emplace_back().record(s);
    }
    // The other devices' rows onto the first, which reconstructs.
    runtime.make_current();
    times.begin(kGather, stream);
    for (std::size_t d = 1; d < parts; ++d) {
        transformed[d - 1].wait_on(stream);
        const std::size_t at = c_residues + first_row(d) * out_length * sizeof(limb_t);
        check(cudaMemcpyPeerAsync(device[0] + at, runtime.device(), device[d] + at, runtimes[d]->device(),
                                  (first_row(d + 1) - first_row(d)) * out_length * sizeof(limb_t), stream),
              "gathering residues from another device");
    }
    times.end(kGather, stream);

    const Clock::duration unpacking =
        crt.run(residues(device[0], c_residues, out_length), runtime, device[0], staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_poly product %zu x %zu, %zu primes on %zu devices, transform %u: packing %.2f ms, upload "
                     "%.2f ms, reduction and transforms %.2f ms (first device), gathering %.2f ms, CRT %.2f ms, downloads "
                     "%.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     la, lb, k, parts, length, milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kTransforms), times.milliseconds(kGather), times.milliseconds(kCrt),
                     times.milliseconds(kDownload),
                     milliseconds(unpacking), milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
