// One pass of a matrix product over Z on the GPU (fmpz_mat_product.cpp), pipelined so that the
// host's packing and unpacking, which bound the call, overlap everything else: b packed, copied
// up and reduced modulo the set's primes in chunks; then a in bands of rows, each band packed,
// copied up, reduced, multiplied by b modulo each prime, reconstructed by the CRT and copied
// down, and handed to the caller while the host packs the bands after it. Uploads, kernels and
// downloads each have their own stream. Only plugin/gpu/ includes it.
#pragma once

#include <cstddef>

#include "adapters/host_operand.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"

namespace zgpu::gpu {

// c = a b: a of rows x inner and b of inner x cols entries, row-major, as fmpz_mat_product
// (matrix_backend.hpp) says. result(first, values) gets c's entries from `first` on, band by band
// in order, of stride crt_limbs(tables). Its pinned memory: two slots of pinned_bytes / 8 that
// the operands are packed into (a band of a, or a chunk of b), and three of pinned_bytes / 4
// that a band's values come down into; more only where one row of a or c needs it.
// ZGPU_TIMING=1 prints the host's and the device's split of the pass.
void banded_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                    const ModularTables& tables, const HostResult& result, std::size_t pinned_bytes);

}  // namespace zgpu::gpu
