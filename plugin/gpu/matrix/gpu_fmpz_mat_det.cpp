// Determinants over Z on the GPU, their modular part (matrix_backend.hpp): the entries reduced
// modulo each prime of the set (reduced_operands.hpp) and eliminated modulo each prime, a block
// a prime (det_mod), or all primes at once by block recursion (block_inverse.hpp), whose few
// zeros the blocked LU checks (blocked_lu.hpp); the residues come back for the host's CRT.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/common/temporary.hpp"
#include "kernels/matrix/det_mod.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/blocked_lu.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"

namespace zgpu::gpu {
namespace {

// det of each matrix modulo its prime into det (device memory): block recursion on all of them,
// then the blocked LU, which pivots, for those where the recursion found 0 (a singular leading
// block, or a singular matrix).
void dets_by_blocks(kernels::MatricesView matrices, std::span<const limb_t> primes, const kernels::Modulus* moduli, limb_t* det,
                    cudaStream_t stream)
{
    Runtime& runtime = Runtime::get();
    const std::size_t k = matrices.count, n = matrices.rows;
    {
        const kernels::StreamMemory inverses(k * n * n * sizeof(limb_t), stream);
        invert_by_blocks(runtime, matrices, {static_cast<limb_t*>(inverses.data()), n, n, n, n * n, k}, moduli, modulus_bits(primes),
                         det);
    }
    std::vector<limb_t> found(k);
    check(cudaMemcpyAsync(found.data(), det, k * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "reading determinants");
    runtime.synchronize("determinants by blocks");
    for (std::size_t b = 0; b < k; ++b) {
        if (found[b] != 0) continue;
        found[b] = det_by_blocked_lu(runtime, {matrices.matrix(b), n, n, matrices.row_stride, 0, 1}, primes[b]);
        check(cudaMemcpyAsync(det + b, &found[b], sizeof(limb_t), cudaMemcpyHostToDevice, stream), "writing a determinant");
    }
}

}  // namespace

std::vector<limb_t> fmpz_mat_det_residues(const HostOperand& a, std::size_t n, const ModularTables& tables, bool by_blocks,
                                          const PartsDone& primes_done)
{
    const std::string size = std::to_string(n);
    return word_per_prime(
        "fmpz_mat determinant " + size + " x " + size, by_blocks ? "block recursion" : "elimination", {{a, n * n}}, tables,
        primes_done,
        [&](const ReducedOperands& operands, std::byte* device, const kernels::ModularTablesView& view, limb_t* det,
            cudaStream_t stream, unsigned long long* finished) {
            const kernels::ResidueView entries = operands.residues(device, 0);
            const kernels::MatricesView matrices{entries.data, n, n, n, entries.prime_stride, entries.primes};
            if (!by_blocks) return kernels::det_mod(matrices, view.moduli, det, stream, finished);
            dets_by_blocks(matrices, tables.moduli(), view.moduli, det, stream);
            // The counter is pinned host memory, which the host may raise too.
            if (finished) *finished += entries.primes;
        });
}

std::size_t fmpz_mat_det_primes_at_once(std::size_t n)
{
    // The residues, the inverses, and the block recursion's temporaries: 3/4 n^2 words at the top
    // level, a quarter of that at each level below (block_inverse.cpp).
    const std::size_t per_prime = 3 * n * n * sizeof(limb_t);
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    return std::max<std::size_t>(1, runtime.call_budget() / per_prime);
}

}  // namespace zgpu::gpu
