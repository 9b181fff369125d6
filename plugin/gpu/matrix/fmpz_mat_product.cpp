// The product of two matrices over Z on the GPU (matrix_backend.hpp): the entries packed on the
// host threads into pinned memory and copied up, reduced modulo each prime of the set
// (multi_mod), multiplied modulo each prime in one batch (mat_mul_mod), and reconstructed
// (multi_crt) in chunks that are copied down and handed to the caller while the next runs.
// ZGPU_TIMING=1 prints the split: host packing and unpacking, and the device time of the upload,
// reduction, products, CRT and downloads.
#include <algorithm>
#include <cstdio>

#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/modular_tables.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {

void fmpz_mat_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                      const ModularTables& tables, const HostResult& result)
{
    const std::size_t a_count = rows * inner, b_count = inner * cols, c_count = rows * cols;
    if (c_count == 0) return;
    a.require_packable();
    b.require_packable();
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size();
    UploadLayout layout;
    const BatchPlace a_place = operand_place(layout, a, a_count), b_place = operand_place(layout, b, b_count);
    const std::size_t upload_bytes = layout.bytes();
    const std::size_t a_residues = layout.reserve(k * a_count * sizeof(limb_t));
    const std::size_t b_residues = layout.reserve(k * b_count * sizeof(limb_t));
    const std::size_t c_residues = layout.reserve(k * c_count * sizeof(limb_t));
    const CrtToHost crt(layout, c_count, tables);

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(upload_bytes, crt.staging_bytes()));
    pack(a, a_place.in(staging));
    pack(b, b_place.in(staging));
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    const auto residues = [&](std::size_t at, std::size_t count) {
        return kernels::ResidueView{reinterpret_cast<limb_t*>(device + at), count, k, count};
    };
    // A residue view of a matrix's entries is a batch of matrices, one a prime.
    const auto matrices = [&](std::size_t at, std::size_t r, std::size_t c) {
        return kernels::MatricesView{reinterpret_cast<limb_t*>(device + at), r, c, c, r * c, k};
    };
    enum Phase { kUpload, kReduction, kProducts, kCrt, kDownload };
    PhaseTimes times(5);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, upload_bytes, cudaMemcpyHostToDevice, stream), "uploading matrices");
    times.end(kUpload, stream);
    const kernels::ModularTablesView& view = tables.view(runtime);
    times.begin(kReduction, stream);
    kernels::multi_mod(a_place.in(device), view, residues(a_residues, a_count), stream);
    kernels::multi_mod(b_place.in(device), view, residues(b_residues, b_count), stream);
    times.end(kReduction, stream);
    times.begin(kProducts, stream);
    kernels::mat_mul_mod(matrices(a_residues, rows, inner), matrices(b_residues, inner, cols), view.moduli,
                         matrices(c_residues, rows, cols), stream);
    times.end(kProducts, stream);
    const Clock::duration unpacking = crt.run(residues(c_residues, c_count), runtime, device, staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_mat product %zu x %zu times %zu x %zu, %zu primes: packing %.2f ms, upload %.2f ms, reduction "
                     "%.2f ms, products %.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     rows, inner, inner, cols, k, milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kReduction), times.milliseconds(kProducts), times.milliseconds(kCrt),
                     times.milliseconds(kDownload), milliseconds(unpacking), milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
