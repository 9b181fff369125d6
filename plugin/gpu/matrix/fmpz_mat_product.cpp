// The product of two matrices over Z on the GPU (matrix_backend.hpp): the entries reduced
// modulo each prime of the set, multiplied modulo each prime, and reconstructed by one CRT, in
// one pipelined pass (banded_product.hpp). Products larger than the device memory the call may
// use (what the device has free, or ZGPU_GPU_MEMORY_LIMIT) run in blocks: bands of a's rows
// times bands of b's columns, each its own such pass.
#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix/banded_product.hpp"
#include "plugin/gpu/matrix/product_blocks.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular_backend.hpp"

namespace zgpu::gpu {
namespace {

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

// The device bytes an entry of a, b and c takes in a whole pass: a bound on banded_product's,
// which holds only bands of a and c.
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
                      const ModularTables& tables, const HostResult& result, std::size_t pinned_bytes)
{
    if (rows == 0 || cols == 0) return;
    const ProductBlock block = product_block(rows, inner, cols, entry_bytes(a, b, tables), block_budget());
    if (block.rows == rows && block.cols == cols) return banded_product(a, b, rows, inner, cols, tables, result, pinned_bytes);
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
            const auto block_result = [&](std::size_t first, ConstBatchView values) {
                if (w == cols) return result(r0 * cols + first, values);
                const std::size_t last = first + values.count;
                parallel_for(first / w, (last - 1) / w + 1, 2, [&](std::size_t begin, std::size_t end) {
                    for (std::size_t i = begin; i < end; ++i) {
                        const std::size_t from = std::max(first, i * w), to = std::min(last, (i + 1) * w), at = from - first;
                        result((r0 + i) * cols + c0 + from - i * w, {values.element(at), values.sizes + at, to - from, values.stride});
                    }
                });
            };
            banded_product(elements_from(a, r0 * inner), b_band, h, inner, w, tables, block_result, pinned_bytes);
        }
    }
}

}  // namespace zgpu::gpu
