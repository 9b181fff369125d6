// Matrix products on residue batches in device memory (matrix_backend.hpp): one batch of
// products, a modulus each, queued on the first runtime's stream.
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"

namespace zgpu::gpu {

void residues_mat_mul(kernels::ConstResidueView a, kernels::ConstResidueView b, const ModularTables& tables, std::size_t rows,
                      std::size_t inner, std::size_t cols, kernels::ResidueView r)
{
    const ResidentLease resident({a.data, b.data, r.data});
    Runtime& runtime = resident.runtime();
    const std::size_t k = r.primes;
    mat_mul_mod(runtime, {a.data, rows, inner, inner, a.prime_stride, k}, {b.data, inner, cols, cols, b.prime_stride, k},
                tables.view(runtime).moduli, modulus_bits(tables.moduli()), {r.data, rows, cols, cols, r.prime_stride, k});
}

}  // namespace zgpu::gpu
