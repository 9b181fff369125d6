// Resultants over Z on the GPU, their modular part (poly_backend.hpp): the coefficients packed on
// the host threads and copied up, reduced modulo each prime of the set (multi_mod, prime-major)
// and each prime's remainder sequence run by a warp (resultant_mod); the residues come back for
// the host's CRT. ZGPU_TIMING=1 prints the split.
#include <cstdio>

#include "kernels/modular/multi_mod.hpp"
#include "kernels/poly/resultant_mod.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/modular_tables.hpp"
#include "plugin/gpu/parts_counter.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {

std::vector<limb_t> fmpz_poly_resultant_residues(const HostOperand& a, std::size_t a_length, const HostOperand& b,
                                                 std::size_t b_length, const ModularTables& tables, const PartsDone& primes_done)
{
    a.require_packable();
    b.require_packable();
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size();
    UploadLayout layout;
    const BatchPlace a_place = operand_place(layout, a, a_length), b_place = operand_place(layout, b, b_length);
    const std::size_t upload_bytes = layout.bytes();
    const std::size_t a_rows = layout.reserve(k * a_length * sizeof(limb_t)), b_rows = layout.reserve(k * b_length * sizeof(limb_t));
    const std::size_t res_at = layout.reserve(k * sizeof(limb_t));

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(upload_bytes, k * sizeof(limb_t)));
    pack(a, a_place.in(staging));
    pack(b, b_place.in(staging));
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    // The counter outlives the drain: no kernel still raises it when it is freed.
    const PartsCounter finished(primes_done);
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    const auto words = [&](std::size_t at) { return reinterpret_cast<limb_t*>(device + at); };
    const auto rows = [&](std::size_t at, std::size_t count) { return kernels::ResidueView{words(at), count, k, count}; };
    enum Phase { kUpload, kReduction, kSequences };
    PhaseTimes times(3);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, upload_bytes, cudaMemcpyHostToDevice, stream), "uploading polynomials");
    times.end(kUpload, stream);
    const kernels::ModularTablesView& view = tables.view(runtime);
    times.begin(kReduction, stream);
    kernels::multi_mod(a_place.in(device), view, rows(a_rows, a_length), stream);
    kernels::multi_mod(b_place.in(device), view, rows(b_rows, b_length), stream);
    times.end(kReduction, stream);
    times.begin(kSequences, stream);
    kernels::resultant_mod(words(a_rows), a_length - 1, words(b_rows), b_length - 1, view.moduli, k, words(res_at), stream,
                           finished.device_count());
    times.end(kSequences, stream);
    check(cudaMemcpyAsync(staging, words(res_at), k * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading resultants");
    finished.wait(stream, "resultants mod p");
    const limb_t* r = reinterpret_cast<const limb_t*>(staging);
    std::vector<limb_t> out(r, r + k);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_poly resultant of lengths %zu and %zu, %zu primes: packing %.2f ms, upload %.2f ms, reduction "
                     "%.2f ms, remainder sequences %.2f ms, total %.2f ms\n",
                     a_length, b_length, k, milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kReduction), times.milliseconds(kSequences), milliseconds(Clock::now() - start));
    return out;
}

}  // namespace zgpu::gpu
