// Matrix products modulo word-size moduli on a device, on the 8-bit tensor cores
// (kernels/matrix/mat_mul_tensor.hpp) or the integer units (kernels/matrix/mat_mul_mod.hpp),
// whichever measured faster for the shape (bench/NOTES-matrices.md). cuBLAS, which the tensor
// path calls, is loaded on first use; where it does not load, every product runs on the integer
// units (said once on stderr). Only plugin/gpu/ includes it.
#pragma once

#include <algorithm>
#include <bit>
#include <optional>
#include <span>

#include "kernels/matrix/mat_mul_tensor.hpp"
#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// kernels::mat_mul_mod's contract and result, every modulus below 2^modulus_bits; queued on the
// runtime's stream. The caller holds the runtime's lease.
void mat_mul_mod(Runtime& runtime, kernels::ConstMatricesView a, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                 unsigned modulus_bits, kernels::MatricesView c);

// kernels::mat_submul_mod's contract and result (c -= a b, c possibly inside the matrix of a or
// b), on the same choice.
void mat_submul_mod(Runtime& runtime, kernels::ConstMatricesView a, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                    unsigned modulus_bits, kernels::MatricesView c);

// Products by the same b for several a (bands of a's rows), each as mat_mul_mod: on the tensor
// cores where the choice takes products of band_rows rows, b's residues as bytes made once
// (kernels::TensorRightOperand) where they take at most a tensor pass's bytes (larger ones would
// hold device memory that no plan counts); else each product as mat_mul_mod. Queued on the
// runtime's stream; b and moduli stay valid while it is used. The caller holds the runtime's
// lease.
class RightOperandProducts {
public:
    RightOperandProducts(Runtime& runtime, kernels::ConstMatricesView b, const kernels::Modulus* moduli, unsigned modulus_bits,
                         std::size_t band_rows);
    // c = a b mod each modulus, a of at most band_rows rows.
    void multiply(kernels::ConstMatricesView a, kernels::MatricesView c) const;

private:
    Runtime& runtime_;
    kernels::ConstMatricesView b_;
    const kernels::Modulus* moduli_;
    unsigned modulus_bits_;
    const kernels::BlasFunctions* blas_;
    std::optional<kernels::TensorRightOperand> tensor_;
};

// The bits of the largest of a set's moduli, the bound's modulus_bits.
inline unsigned modulus_bits(std::span<const limb_t> moduli)
{
    return moduli.empty() ? 1 : unsigned(std::bit_width(*std::max_element(moduli.begin(), moduli.end())));
}

// cuBLAS's loading and start on the runtime's device (a few hundred milliseconds), which the
// first product on the tensor cores would otherwise wait for. The caller holds the runtime's
// lease.
void start_tensor_products(Runtime& runtime);

// Whether `count` products of rows x inner times inner x cols go to the tensor cores.
bool mat_mul_on_tensor_cores(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count);

}  // namespace zgpu::gpu
