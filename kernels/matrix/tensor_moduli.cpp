#include "kernels/matrix/tensor_moduli.hpp"

#include <array>
#include <cmath>
#include <numeric>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::kernels {

std::span<const std::uint32_t> tensor_moduli()
{
    static const std::array<std::uint32_t, kMaxTensorModuli> moduli = [] {
        std::array<std::uint32_t, kMaxTensorModuli> list{};
        unsigned count = 0;
        for (std::uint32_t m = 256; count < kMaxTensorModuli; --m) {
            bool coprime = true;
            for (unsigned j = 0; j < count; ++j) coprime = coprime && std::gcd(m, list[j]) == 1;
            if (coprime) list[count++] = m;
        }
        return list;
    }();
    return moduli;
}

unsigned tensor_moduli_count(unsigned modulus_bits, std::size_t inner)
{
    if (modulus_bits < 1 || modulus_bits > 64 || inner < 1 || inner >= (std::size_t(1) << 31))
        throw Error("matrix products on the tensor cores: " + std::to_string(modulus_bits) + "-bit moduli and " +
                    std::to_string(inner) + " inner terms are outside 1..64 bits and 1..2^31 - 1 terms");
    // log2 of the bound, and a margin far above the rounding of these few logarithms (each
    // within 2^-50 of the truth), so that the product truly exceeds the bound.
    const double needed = std::log2(double(inner)) + 2.0 * modulus_bits + 1e-9;
    double have = 0;
    unsigned t = 0;
    for (const std::uint32_t m : tensor_moduli()) {
        have += std::log2(double(m));
        ++t;
        if (have > needed) return t;
    }
    throw Error("matrix products on the tensor cores: the small moduli fall short of the bound");  // not below 2^31 terms
}

}  // namespace zgpu::kernels
