// The adjugate of a matrix over Z, or its product by a second matrix (Cramer's numerators of
// a x = b), on the GPU (matrix_backend.hpp): the entries packed on the host threads and copied
// up, reduced modulo each prime of the set (multi_mod), a inverted modulo each by block
// recursion (block_inverse.hpp), on the preconditioned matrices where a leading block is
// singular modulo some prime, each inverse times its determinant (and times b: one batch of
// products, product_mod.hpp), and one signed CRT whose chunks go to the caller as they come
// down. ZGPU_TIMING=1 prints the split.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/modular/residue_arith.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// Whether every determinant the recursion found is nonzero: where one is 0, a leading block it
// split at was singular modulo that prime (the caller's primes divide no det a).
bool all_inverted(const limb_t* det, std::size_t k, Runtime& runtime)
{
    std::vector<limb_t> found(k);
    check(cudaMemcpyAsync(found.data(), det, k * sizeof(limb_t), cudaMemcpyDeviceToHost, runtime.stream()), "reading determinants");
    runtime.synchronize("inverses by blocks");
    return std::none_of(found.begin(), found.end(), [](limb_t d) { return d == 0; });
}

}  // namespace

bool fmpz_mat_adjugate_times(const HostOperand& a, const HostOperand* b, std::size_t n, std::size_t cols, const ModularTables& tables,
                             const HostResult& result)
{
    const Clock::time_point start = Clock::now();
    const std::size_t count = n * n, k = tables.moduli().size(), out_count = b ? n * cols : count;
    UploadLayout layout;
    const ReducedOperands reduced = b ? ReducedOperands(layout, {{a, count}, {*b, n * cols}}, k) : ReducedOperands(layout, {{a, count}}, k);
    const std::size_t inverses_at = layout.reserve(k * count * sizeof(limb_t)), det_at = layout.reserve(k * sizeof(limb_t));
    const std::size_t products_at = b ? layout.reserve(k * out_count * sizeof(limb_t)) : inverses_at;
    const CrtToHost crt(layout, out_count, tables);

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    if (layout.bytes() > runtime.call_budget()) return false;
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(reduced.upload_bytes(), crt.staging_bytes()));
    reduced.pack(staging);
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    auto* inverses = reinterpret_cast<limb_t*>(device + inverses_at);
    auto* det = reinterpret_cast<limb_t*>(device + det_at);
    enum Phase { kUpload, kReduction, kInverses, kCrt, kDownload };
    PhaseTimes times(5);
    const kernels::ModularTablesView& view = tables.view(runtime);
    reduced.upload_and_reduce(device, staging, view, stream, times, kUpload, kReduction);
    const kernels::ResidueView entries = reduced.residues(device, 0);
    const kernels::ConstMatricesView matrices{entries.data, n, n, n, entries.prime_stride, k};
    const kernels::MatricesView out{inverses, n, n, n, count, k};
    const unsigned bits = modulus_bits(tables.moduli());
    times.begin(kInverses, stream);
    invert_by_blocks(runtime, matrices, out, view.moduli, bits, det);
    bool inverted = all_inverted(det, k, runtime);
    if (!inverted) {
        invert_by_blocks_preconditioned(runtime, matrices, out, view.moduli, bits, det);
        inverted = all_inverted(det, k, runtime);
    }
    if (!inverted) return false;
    // adj a = det a times a^-1, modulo each prime; then times b.
    const kernels::ResidueView adjugate{inverses, count, k, count};
    kernels::residues_scalar_mul(adjugate, det, view, adjugate, stream);
    auto* numerators = reinterpret_cast<limb_t*>(device + products_at);
    if (b) {
        const kernels::ResidueView right = reduced.residues(device, 1);
        mat_mul_mod(runtime, kernels::ConstMatricesView(out), {right.data, n, cols, cols, right.prime_stride, k}, view.moduli, bits,
                    {numerators, n, cols, cols, out_count, k});
    }
    times.end(kInverses, stream);
    const Clock::duration unpacking =
        crt.run(kernels::ConstResidueView{numerators, out_count, k, out_count}, runtime, device, staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_mat adjugate %zu x %zu%s, %zu primes: packing %.2f ms, upload %.2f ms, reduction %.2f ms, inverses "
                     "%.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     n, n, b ? (" times " + std::to_string(n) + " x " + std::to_string(cols)).c_str() : "", k, milliseconds(packed - start),
                     times.milliseconds(kUpload), times.milliseconds(kReduction), times.milliseconds(kInverses), times.milliseconds(kCrt),
                     times.milliseconds(kDownload), milliseconds(unpacking), milliseconds(Clock::now() - start));
    return true;
}

}  // namespace zgpu::gpu
