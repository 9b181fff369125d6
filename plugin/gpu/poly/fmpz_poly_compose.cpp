// A composition f(h) over Z on the GPU (poly_backend.hpp): f and h reduced modulo each prime,
// h's transform, f evaluated at each of its points and the inverse transform
// (kernels::poly_compose), in the frame of residues_on_device.hpp: one transform pair a prime
// where FLINT's divide and conquer multiplies polynomials of growing length and size.
#include <string>

#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/residues_on_device.hpp"
#include "plugin/gpu/poly_backend.hpp"

namespace zgpu::gpu {
namespace {

std::size_t composition_length(std::size_t f_length, std::size_t h_length) { return (f_length - 1) * (h_length - 1) + 1; }

}  // namespace

std::size_t fmpz_poly_compose_bytes(const HostOperand& f, std::size_t f_length, const HostOperand& h, std::size_t h_length,
                                    const ModularTables& tables)
{
    const PolyOnHost inputs[] = {{&f, f_length}, {&h, h_length}};
    return residues_on_device_bytes(inputs, 1, composition_length(f_length, h_length), tables);
}

void fmpz_poly_compose(const HostOperand& f, std::size_t f_length, const HostOperand& h, std::size_t h_length,
                       const ModularTables& tables, const HostResult& result)
{
    const std::size_t out_length = composition_length(f_length, h_length);
    const PolyOnHost inputs[] = {{&f, f_length}, {&h, h_length}};
    const std::uint32_t length = kernels::poly_ntt_length(out_length, 1);
    const auto steps = [&](const ResidueWork& w) {
        kernels::poly_compose({w.inputs[0]}, {w.inputs[1]}, 1, length, w.ntt, {w.work[0]}, w.stream);
        return w.work[0];
    };
    residues_on_device("fmpz_poly composition, " + std::to_string(f_length) + " of " + std::to_string(h_length) + " coefficients",
                       inputs, 1, out_length, length, tables, steps, result);
}

}  // namespace zgpu::gpu
