// A power of a polynomial over Z on the GPU (poly_backend.hpp): f's transform modulo each prime,
// each of its points raised to the power, and the inverse transform (kernels::poly_pow), in the
// frame of residues_on_device.hpp: one transform pair a prime, where a chain of products (FLINT's
// pow through the plugin) crosses PCIe at every step.
#include <string>

#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/residues_on_device.hpp"
#include "plugin/gpu/poly_backend.hpp"

namespace zgpu::gpu {

std::size_t fmpz_poly_power_bytes(const HostOperand& f, std::size_t length, std::size_t out_length, const ModularTables& tables)
{
    const PolyOnHost input{&f, length};
    return residues_on_device_bytes({&input, 1}, 1, out_length, tables);
}

void fmpz_poly_power(const HostOperand& f, std::size_t length, std::uint64_t e, const ModularTables& tables,
                     const HostResult& result)
{
    const std::size_t out_length = (length - 1) * e + 1;
    const PolyOnHost input{&f, length};
    const std::uint32_t transform = kernels::poly_ntt_length(out_length, 1);
    const auto steps = [&](const ResidueWork& w) {
        kernels::poly_pow({w.inputs[0]}, e, 1, transform, w.ntt, {w.work[0]}, w.stream);
        return w.work[0];
    };
    residues_on_device("fmpz_poly power, " + std::to_string(length) + " coefficients to the " + std::to_string(e), {&input, 1}, 1,
                       out_length, transform, tables, steps, result);
}

}  // namespace zgpu::gpu
