// Determinants over Z on the GPU, their modular part (matrix_backend.hpp): the entries packed on
// the host threads and copied up, reduced modulo each prime of the set (multi_mod), and
// eliminated modulo each prime, a block a prime (det_mod); the residues come back for the host's
// CRT. ZGPU_TIMING=1 prints the split.
#include <cstdio>

#include "kernels/matrix/det_mod.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/modular_tables.hpp"
#include "plugin/gpu/parts_counter.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {

std::vector<limb_t> fmpz_mat_det_residues(const HostOperand& a, std::size_t n, const ModularTables& tables,
                                          const PartsDone& primes_done)
{
    a.require_packable();
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size(), count = n * n;
    UploadLayout layout;
    const BatchPlace place = operand_place(layout, a, count);
    const std::size_t upload_bytes = layout.bytes();
    const std::size_t residues_at = layout.reserve(k * count * sizeof(limb_t));
    const std::size_t det_at = layout.reserve(k * sizeof(limb_t));

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(upload_bytes, k * sizeof(limb_t)));
    pack(a, place.in(staging));
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    // The counter outlives the drain: no kernel still raises it when it is freed.
    const PartsCounter finished(primes_done);
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* residues = reinterpret_cast<limb_t*>(device + residues_at);
    limb_t* det = reinterpret_cast<limb_t*>(device + det_at);
    enum Phase { kUpload, kReduction, kElimination };
    PhaseTimes times(3);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, upload_bytes, cudaMemcpyHostToDevice, stream), "uploading a matrix");
    times.end(kUpload, stream);
    const kernels::ModularTablesView& view = tables.view(runtime);
    times.begin(kReduction, stream);
    kernels::multi_mod(place.in(device), view, kernels::ResidueView{residues, count, k, count}, stream);
    times.end(kReduction, stream);
    times.begin(kElimination, stream);
    kernels::det_mod({residues, n, n, n, count, k}, view.moduli, det, stream, finished.device_count());
    times.end(kElimination, stream);
    check(cudaMemcpyAsync(staging, det, k * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading determinants");
    finished.wait(stream, "determinants mod p");
    const limb_t* words = reinterpret_cast<const limb_t*>(staging);
    std::vector<limb_t> out(words, words + k);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_mat determinant %zu x %zu, %zu primes: packing %.2f ms, upload %.2f ms, reduction %.2f ms, "
                     "elimination %.2f ms, total %.2f ms\n",
                     n, n, k, milliseconds(packed - start), times.milliseconds(kUpload), times.milliseconds(kReduction),
                     times.milliseconds(kElimination), milliseconds(Clock::now() - start));
    return out;
}

}  // namespace zgpu::gpu
