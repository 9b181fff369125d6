// Determinants over Z on the GPU, their modular part (matrix_backend.hpp): the entries reduced
// modulo each prime of the set (reduced_operands.hpp) and eliminated modulo each prime, a block
// a prime (det_mod); the residues come back for the host's CRT.
#include <string>

#include "kernels/matrix/det_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"

namespace zgpu::gpu {

std::vector<limb_t> fmpz_mat_det_residues(const HostOperand& a, std::size_t n, const ModularTables& tables,
                                          const PartsDone& primes_done)
{
    const std::string size = std::to_string(n);
    return word_per_prime(
        "fmpz_mat determinant " + size + " x " + size, "elimination", {{a, n * n}}, tables, primes_done,
        [&](const ReducedOperands& operands, std::byte* device, const kernels::ModularTablesView& view, limb_t* det,
            cudaStream_t stream, unsigned long long* finished) {
            const kernels::ResidueView entries = operands.residues(device, 0);
            kernels::det_mod({entries.data, n, n, n, n * n, entries.primes}, view.moduli, det, stream, finished);
        });
}

}  // namespace zgpu::gpu
