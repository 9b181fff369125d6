// The frame of the GPU's powers and compositions over Z (residues_on_device.hpp).
#include "plugin/gpu/poly/residues_on_device.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {
namespace {

// The device buffers in one allocation: the packed inputs (uploaded), their residues, the work
// arrays, and the CRT's batch.
struct Buffers {
    Buffers(std::span<const PolyOnHost> inputs, std::size_t work_arrays, std::size_t out_length, const ModularTables& tables)
        : k(tables.moduli().size())
    {
        for (const PolyOnHost& x : inputs) places.push_back(operand_place(layout, *x.coeffs, x.length));
        upload_bytes = layout.bytes();
        for (const PolyOnHost& x : inputs) residues.push_back(layout.reserve(k * x.length * sizeof(limb_t)));
        for (std::size_t i = 0; i < work_arrays; ++i) work.push_back(layout.reserve(k * out_length * sizeof(limb_t)));
        crt.emplace(layout, out_length, tables);
    }

    std::size_t k;
    UploadLayout layout;
    std::vector<BatchPlace> places;
    std::size_t upload_bytes = 0;
    std::vector<std::size_t> residues, work;
    std::optional<CrtToHost> crt;
};

}  // namespace

std::size_t residues_on_device_bytes(std::span<const PolyOnHost> inputs, std::size_t work_arrays, std::size_t out_length,
                                     const ModularTables& tables)
{
    return Buffers(inputs, work_arrays, out_length, tables).layout.bytes();
}

void residues_on_device(const std::string& what, std::span<const PolyOnHost> inputs, std::size_t work_arrays,
                        std::size_t out_length, std::uint32_t longest, const ModularTables& tables, const ResidueSteps& steps,
                        const HostResult& result)
{
    for (const PolyOnHost& x : inputs) x.coeffs->require_packable();
    const Clock::time_point start = Clock::now();
    const Buffers buffers(inputs, work_arrays, out_length, tables);
    const std::size_t k = buffers.k;
    // One device: the steps depend on one another, and every one is short next to PCIe.
    const std::vector<Runtime*> in_use = Runtime::in_use();
    Runtime& runtime = *in_use[0];
    const Runtime::Leases leases(std::span<Runtime* const>(in_use.data(), 1));
    runtime.make_current();
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(buffers.upload_bytes, buffers.crt->staging_bytes()));
    for (std::size_t i = 0; i < inputs.size(); ++i) pack(*inputs[i].coeffs, buffers.places[i].in(staging));
    const Clock::time_point packed = Clock::now();

    enum Phase { kUpload, kReduction, kSteps, kCrt, kDownload };
    PhaseTimes times(5);
    const DrainOnExit drain(stream, stream, stream);
    std::byte* device = runtime.scratch(buffers.layout.bytes());
    const auto residues = [&](std::size_t at, std::size_t count) {
        return kernels::ResidueView{reinterpret_cast<limb_t*>(device + at), count, k, count};
    };
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, buffers.upload_bytes, cudaMemcpyHostToDevice, stream), "uploading polynomials");
    times.end(kUpload, stream);
    // Building the tables is host work the first time a set and length are seen.
    const Clock::time_point tables_start = Clock::now();
    const kernels::ModularTablesView& reduction_tables = tables.view(runtime);
    const kernels::PolyNttTablesView ntt = poly_ntt_tables(runtime, tables.moduli(), longest);
    const Clock::duration tables_time = Clock::now() - tables_start;
    times.begin(kReduction, stream);
    std::vector<kernels::ResidueView> input_residues, work;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        input_residues.push_back(residues(buffers.residues[i], inputs[i].length));
        kernels::multi_mod(buffers.places[i].in(device), reduction_tables, input_residues.back(), stream);
    }
    for (const std::size_t at : buffers.work) work.push_back(residues(at, out_length));
    times.end(kReduction, stream);
    times.begin(kSteps, stream);
    const kernels::ResidueView out = steps({input_residues, work, ntt, stream});
    times.end(kSteps, stream);
    const Clock::duration unpacking = buffers.crt->run(out, runtime, device, staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: %s, %zu coefficients, %zu primes, transform %u: packing %.2f ms, upload %.2f ms, tables %.2f ms, "
                     "reduction %.2f ms, steps %.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     what.c_str(), out_length, k, longest, milliseconds(packed - start), times.milliseconds(kUpload),
                     milliseconds(tables_time), times.milliseconds(kReduction), times.milliseconds(kSteps), times.milliseconds(kCrt),
                     times.milliseconds(kDownload), milliseconds(unpacking), milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
