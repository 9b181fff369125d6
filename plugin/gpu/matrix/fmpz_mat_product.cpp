// The product of two matrices over Z on the GPU (matrix_backend.hpp): the entries packed on the
// host threads into pinned memory and copied up, reduced modulo each prime of the set
// (multi_mod), multiplied modulo each prime in one batch (product_mod.hpp), and reconstructed
// (multi_crt) in chunks that are copied down and handed to the caller while the next runs.
// Products larger than the device memory the call may use (what the device has free, or
// ZGPU_GPU_MEMORY_LIMIT) run in blocks: bands of a's rows times bands of b's columns, each its
// own such pass. ZGPU_TIMING=1 prints the split of each block: host packing and unpacking, and
// the device time of the upload, reduction, products, CRT and downloads.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix/product_blocks.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// One pass: all of a times all of b, both as packed operands of this block.
void block_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                   const ModularTables& tables, const HostResult& result)
{
    const std::size_t a_count = rows * inner, b_count = inner * cols, c_count = rows * cols;
    if (c_count == 0) return;
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size();
    UploadLayout layout;
    const ReducedOperands reduced(layout, {{a, a_count}, {b, b_count}}, k);
    const std::size_t c_residues = layout.reserve(k * c_count * sizeof(limb_t));
    const CrtToHost crt(layout, c_count, tables);

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(reduced.upload_bytes(), crt.staging_bytes()));
    reduced.pack(staging);
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    // A residue view of a matrix's entries is a batch of matrices, one a prime.
    const auto matrices = [&](limb_t* at, std::size_t r, std::size_t c) { return kernels::MatricesView{at, r, c, c, r * c, k}; };
    limb_t* c = reinterpret_cast<limb_t*>(device + c_residues);
    enum Phase { kUpload, kReduction, kProducts, kCrt, kDownload };
    PhaseTimes times(5);
    const kernels::ModularTablesView& view = tables.view(runtime);
    reduced.upload_and_reduce(device, staging, view, stream, times, kUpload, kReduction);
    times.begin(kProducts, stream);
    mat_mul_mod(runtime, matrices(reduced.residues(device, 0).data, rows, inner), matrices(reduced.residues(device, 1).data, inner, cols),
                view.moduli, modulus_bits(tables.moduli()), matrices(c, rows, cols));
    times.end(kProducts, stream);
    const Clock::duration unpacking = crt.run(kernels::ConstResidueView{c, c_count, k, c_count}, runtime, device, staging, result, times, kCrt, kDownload);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: fmpz_mat product %zu x %zu times %zu x %zu, %zu primes: packing %.2f ms, upload %.2f ms, reduction "
                     "%.2f ms, products %.2f ms, CRT %.2f ms, downloads %.2f ms, unpacking %.2f ms, total %.2f ms\n",
                     rows, inner, inner, cols, k, milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kReduction), times.milliseconds(kProducts), times.milliseconds(kCrt),
                     times.milliseconds(kDownload), milliseconds(unpacking), milliseconds(Clock::now() - start));
}

// Operands of a block: elements first .. of x (host_operand.hpp's elements_from), or the
// elements at `indices` (shared with the caller's copy of the operand), packed as x packs them.
HostOperand elements_at(const HostOperand& x, std::shared_ptr<const std::vector<std::size_t>> indices)
{
    HostOperand part{x.max_limbs, x.min_limbs, x.too_large, {}, {}, {}, {}};
    part.pack = [&x, indices](std::size_t from, BatchView out) {
        x.pack_indexed(std::span<const std::size_t>(*indices).subspan(from, out.count), out);
    };
    return part;
}

// The device bytes an entry of a, b and c takes in block_product.
ProductEntryBytes entry_bytes(const HostOperand& a, const HostOperand& b, const ModularTables& tables)
{
    const std::size_t residues = tables.moduli().size() * sizeof(limb_t), size = sizeof(std::int32_t);
    const auto packed = [](const HostOperand& x) { return size_class(std::uint32_t(std::max<std::uint64_t>(x.max_limbs, 1))) * sizeof(limb_t); };
    return {packed(a) + size + residues, packed(b) + size + residues, residues + size_class(crt_limbs(tables)) * sizeof(limb_t) + size};
}

// The device memory a block may take, on the first runtime.
std::size_t block_budget()
{
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    return runtime.call_budget();
}

}  // namespace

void fmpz_mat_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                      const ModularTables& tables, const HostResult& result)
{
    if (rows == 0 || cols == 0) return;
    const ProductBlock block = product_block(rows, inner, cols, entry_bytes(a, b, tables), block_budget());
    if (block.rows == rows && block.cols == cols) return block_product(a, b, rows, inner, cols, tables, result);
    const KeepWorkersAwake awake;  // each block packs and unpacks in turn
    for (std::size_t c0 = 0; c0 < cols; c0 += block.cols) {
        const std::size_t w = std::min(block.cols, cols - c0);
        HostOperand b_band = b;
        if (w < cols) {
            auto indices = std::make_shared<std::vector<std::size_t>>(inner * w);
            for (std::size_t k = 0; k < inner; ++k) std::iota(indices->begin() + k * w, indices->begin() + (k + 1) * w, k * cols + c0);
            b_band = elements_at(b, std::move(indices));
        }
        for (std::size_t r0 = 0; r0 < rows; r0 += block.rows) {
            const std::size_t h = std::min(block.rows, rows - r0);
            // The block's values come in its own row-major order: whole rows of c follow one
            // another; pieces of rows are handed on a row at a time, the rows spread over the
            // host threads (one piece is too short to wake them for).
            block_product(elements_from(a, r0 * inner), b_band, h, inner, w, tables, [&](std::size_t first, ConstBatchView values) {
                if (w == cols) return result(r0 * cols + first, values);
                const std::size_t last = first + values.count;
                parallel_for(first / w, (last - 1) / w + 1, 2, [&](std::size_t begin, std::size_t end) {
                    for (std::size_t i = begin; i < end; ++i) {
                        const std::size_t from = std::max(first, i * w), to = std::min(last, (i + 1) * w), at = from - first;
                        result((r0 + i) * cols + c0 + from - i * w, {values.element(at), values.sizes + at, to - from, values.stride});
                    }
                });
            });
        }
    }
}

}  // namespace zgpu::gpu
