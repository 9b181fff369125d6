// The device-resident polynomial product on residue arrays (poly_backend.hpp).
#include <algorithm>

#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"

namespace zgpu::gpu {

void residues_poly_mul(kernels::ConstResidueView a, kernels::ConstResidueView b, std::span<const limb_t> primes,
                       kernels::ResidueView r)
{
    if (r.count == 0) return;
    const std::size_t la = std::min(a.count, r.count), lb = std::min(b.count, r.count);
    const std::uint32_t length = kernels::poly_ntt_length(la, lb);
    const ResidentLease resident({a.data, b.data, r.data});
    Runtime& runtime = resident.runtime();
    const kernels::PolyNttTablesView tables = poly_ntt_tables(runtime, primes, length);
    const bool square = a.data == b.data && a.count == b.count && a.prime_stride == b.prime_stride;
    // One product: each polynomial at offset 0, of its residue array's count.
    kernels::poly_mul({a}, {b}, square, 1, length, tables, {r}, runtime.stream());
}

}  // namespace zgpu::gpu
