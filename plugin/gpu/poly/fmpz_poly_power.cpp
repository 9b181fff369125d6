// A power of a polynomial over Z on the GPU (poly_backend.hpp): f's residues raised to the power
// by squarings and products modulo each prime (left to right over the exponent's bits), in the
// frame of residues_on_device.hpp. Nothing crosses PCIe between the steps, which a chain of
// separate products (FLINT's pow through the plugin) pays at every one.
#include <bit>
#include <string>

#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/residues_on_device.hpp"
#include "plugin/gpu/poly_backend.hpp"

namespace zgpu::gpu {

std::size_t fmpz_poly_power_bytes(const HostOperand& f, std::size_t length, std::size_t out_length, const ModularTables& tables)
{
    const PolyOnHost input{&f, length};
    return residues_on_device_bytes({&input, 1}, 2, out_length, tables);
}

void fmpz_poly_power(const HostOperand& f, std::size_t length, std::uint64_t e, const ModularTables& tables,
                     const HostResult& result)
{
    const std::size_t out_length = (length - 1) * e + 1;
    const PolyOnHost input{&f, length};
    // The last step is the longest (its result has out_length coefficients): its tables serve
    // every step.
    const std::uint32_t longest = kernels::poly_ntt_length(out_length, 1);
    const auto steps = [&](const ResidueWork& w) {
        // power = f^(the exponent's bits so far), in work[next ^ 1] after the first step.
        kernels::ResidueView power = w.inputs[0];
        int next = 0;
        const auto step = [&](const kernels::ResidueView& a, const kernels::ResidueView& b, bool square) {
            const kernels::ResidueView& room = w.work[std::size_t(next)];
            const kernels::ResidueView out{room.data, a.count + b.count - 1, room.primes, room.prime_stride};
            kernels::poly_mul({a}, {b}, square, 1, kernels::poly_ntt_length(a.count, b.count), w.ntt, {out}, w.stream);
            power = out;
            next ^= 1;
        };
        for (int bit = std::bit_width(e) - 2; bit >= 0; --bit) {
            step(power, power, true);
            if ((e >> bit) & 1) step(power, w.inputs[0], false);
        }
        return power;
    };
    residues_on_device("fmpz_poly power, " + std::to_string(length) + " coefficients to the " + std::to_string(e), {&input, 1}, 2,
                       out_length, longest, tables, steps, result);
}

}  // namespace zgpu::gpu
