// A power of a polynomial over Z on the GPU (poly_backend.hpp): the coefficients packed and
// copied up once, reduced modulo each prime of the set, raised to the power by squarings and
// products modulo each prime (left to right over the exponent's bits), and reconstructed by one
// CRT at the end, chunk by chunk as fmpz_poly_product does. Nothing crosses PCIe between the
// steps, which a chain of separate products (FLINT's pow through the plugin) pays at every one.
// ZGPU_TIMING=1 prints the split to stderr.
#include <bit>
#include <cstdio>
#include <utility>
#include <vector>

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

// The power's device buffers in one allocation: the packed polynomial (uploaded), its residues,
// two residue arrays of the power's length that the steps write in turn, and the CRT's batch.
struct PowerBuffers {
    PowerBuffers(const HostOperand& f, std::size_t length, std::size_t out_length, const ModularTables& tables)
        : k(tables.moduli().size()),
          place(operand_place(layout, f, length)),
          upload_bytes(layout.bytes()),
          base(layout.reserve(k * length * sizeof(limb_t))),
          steps{layout.reserve(k * out_length * sizeof(limb_t)), layout.reserve(k * out_length * sizeof(limb_t))},
          crt(layout, out_length, tables)
    {
    }

    std::size_t k;
    UploadLayout layout;
    BatchPlace place;
    std::size_t upload_bytes, base;
    std::size_t steps[2];
    CrtToHost crt;
};

}  // namespace

std::size_t fmpz_poly_power_bytes(const HostOperand& f, std::size_t length, std::size_t out_length, const ModularTables& tables)
{
    return PowerBuffers(f, length, out_length, tables).layout.bytes();
}

void fmpz_poly_power(const HostOperand& f, std::size_t length, std::uint64_t e, const ModularTables& tables,
                     const HostResult& result)
{
    f.require_packable();
    const Clock::time_point start = Clock::now();
    const std::size_t out_length = (length - 1) * e + 1;
    const PowerBuffers buffers(f, length, out_length, tables);
    const std::size_t k = buffers.k;
    // One device: the steps depend on one another, and every one is short next to PCIe.
    const std::vector<Runtime*> in_use = Runtime::in_use();
    Runtime& runtime = *in_use[0];
    const Runtime::Leases leases(std::span<Runtime* const>(in_use.data(), 1));
    runtime.make_current();
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(buffers.upload_bytes, buffers.crt.staging_bytes()));
    pack(f, buffers.place.in(staging));
    const Clock::time_point packed = Clock::now();

    enum Phase { kUpload, kReduction, kPowers, kCrt, kDownload };
    PhaseTimes times(5);
    const DrainOnExit drain(stream, stream, stream);
    std::byte* device = runtime.scratch(buffers.layout.bytes());
    const auto residues = [&](std::size_t at, std::size_t count, std::size_t stride) {
        return kernels::ResidueView{reinterpret_cast<limb_t*>(device + at), count, k, stride};
    };
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, buffers.upload_bytes, cudaMemcpyHostToDevice, stream), "uploading a polynomial");
    times.end(kUpload, stream);
    // The last step is the longest (its result has out_length coefficients): its tables serve
    // every step. Building them is host work the first time a set and length are seen.
    const std::uint32_t longest = kernels::poly_ntt_length(out_length, 1);
    const Clock::time_point tables_start = Clock::now();
    const kernels::ModularTablesView& reduction_tables = tables.view(runtime);
    const kernels::PolyNttTablesView ntt = poly_ntt_tables(runtime, tables.moduli(), longest);
    const Clock::duration tables_time = Clock::now() - tables_start;
    times.begin(kReduction, stream);
    const kernels::ResidueView base = residues(buffers.base, length, length);
    kernels::multi_mod(buffers.place.in(device), reduction_tables, base, stream);
    times.end(kReduction, stream);
    times.begin(kPowers, stream);
    // power = f^(the exponent's bits so far), in steps[next ^ 1] after the first step.
    kernels::ResidueView power = base;
    int next = 0;
    const auto step = [&](const kernels::ResidueView& a, const kernels::ResidueView& b, bool square) {
        const kernels::ResidueView out = residues(buffers.steps[next], a.count + b.count - 1, out_length);
        kernels::poly_mul({a}, {b}, square, 1, kernels::poly_ntt_length(a.count, b.count), ntt, {out}, stream);
        power = out;
        next ^= 1;
    };
    for (int bit = std::bit_width(e) - 2; bit >= 0; --bit) {
        step(power, power, true);
        if ((e >> bit) & 1) step(power, base, false);
    }
    times.end(kPowers, stream);
    const Clock::duration unpacking = buffers.crt.run(power, runtime, device, staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_poly power, %zu coefficients to the %llu, %zu primes, transform %u: packing %.2f ms, upload %.2f ms, "
                     "tables %.2f ms, reduction %.2f ms, powers %.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, "
                     "total %.2f ms\n",
                     length, (unsigned long long)e, k, longest, milliseconds(packed - start), times.milliseconds(kUpload),
                     milliseconds(tables_time), times.milliseconds(kReduction), times.milliseconds(kPowers), times.milliseconds(kCrt), times.milliseconds(kDownload), milliseconds(unpacking),
                     milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
