// Resultants over Z on the GPU, their modular part (poly_backend.hpp): the coefficients reduced
// modulo each prime of the set (reduced_operands.hpp, prime-major) and each prime's remainder
// sequence run by a warp (resultant_mod); the residues come back for the host's CRT.
#include <string>

#include "kernels/poly/resultant_mod.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"
#include "plugin/gpu/poly_backend.hpp"

namespace zgpu::gpu {

std::vector<limb_t> fmpz_poly_resultant_residues(const HostOperand& a, std::size_t a_length, const HostOperand& b,
                                                 std::size_t b_length, const ModularTables& tables, const PartsDone& primes_done)
{
    return word_per_prime(
        "fmpz_poly resultant of lengths " + std::to_string(a_length) + " and " + std::to_string(b_length),
        "remainder sequences", {{a, a_length}, {b, b_length}}, tables, primes_done,
        [&](const ReducedOperands& operands, std::byte* device, const kernels::ModularTablesView& view, limb_t* res,
            cudaStream_t stream, unsigned long long* finished) {
            kernels::resultant_mod(operands.residues(device, 0).data, a_length - 1, operands.residues(device, 1).data,
                                   b_length - 1, view.moduli, view.count, res, stream, finished);
        });
}

}  // namespace zgpu::gpu
