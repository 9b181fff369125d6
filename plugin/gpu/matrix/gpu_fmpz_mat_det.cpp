// Determinants over Z on the GPU, their modular part (matrix_backend.hpp): the entries reduced
// modulo each prime of the set (reduced_operands.hpp) and eliminated modulo each prime, a block
// a prime (det_mod) or one prime at a time over the whole device (blocked_lu.hpp); the residues
// come back for the host's CRT.
#include <string>

#include "kernels/matrix/det_mod.hpp"
#include "plugin/gpu/matrix/blocked_lu.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"

namespace zgpu::gpu {

std::vector<limb_t> fmpz_mat_det_residues(const HostOperand& a, std::size_t n, const ModularTables& tables, bool one_at_a_time,
                                          const PartsDone& primes_done)
{
    const std::string size = std::to_string(n);
    return word_per_prime(
        "fmpz_mat determinant " + size + " x " + size, one_at_a_time ? "blocked elimination" : "elimination", {{a, n * n}}, tables,
        primes_done,
        [&](const ReducedOperands& operands, std::byte* device, const kernels::ModularTablesView& view, limb_t* det,
            cudaStream_t stream, unsigned long long* finished) {
            const kernels::ResidueView entries = operands.residues(device, 0);
            const kernels::MatricesView matrices{entries.data, n, n, n, entries.prime_stride, entries.primes};
            if (!one_at_a_time) return kernels::det_mod(matrices, view.moduli, det, stream, finished);
            // The counter is pinned host memory, which the host may raise too.
            const std::vector<limb_t> dets =
                dets_by_blocked_lu(Runtime::get(), matrices, tables.moduli(), [finished] { if (finished) ++*finished; });
            check(cudaMemcpyAsync(det, dets.data(), dets.size() * sizeof(limb_t), cudaMemcpyHostToDevice, stream),
                  "uploading determinants");
            check(cudaStreamSynchronize(stream), "uploading determinants");  // before dets goes
        });
}

}  // namespace zgpu::gpu
