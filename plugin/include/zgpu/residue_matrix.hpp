// Matrix products on residue batches: the device-resident form of the matrix products, for
// modular algorithms that keep their matrices as residues modulo a prime set between steps
// (reduce once, multiply as often as needed, crt once).
#pragma once

#include <cstddef>

#include "zgpu/residue_batch.hpp"

namespace zgpu {

// r = a * b modulo each modulus of the set, in one call: a's count() values read as a row-major
// rows x inner matrix (entry (i, j) modulo modulus m at data()[m * prime_stride() + i * inner +
// j]), b's as an inner x cols one; r resized to rows * cols values. Operands on the same moduli
// and backend, of rows * inner and inner * cols values (else zgpu::Error, nothing written); r
// may be a or b. Any moduli of 2 <= n < 2^64 (prime or not). On the GPU backend one batch of
// products on the integer units (kernels/matrix/mat_mul_mod), queued on the backend's stream;
// on the CPU backend FLINT's nmod_mat_mul a modulus, the moduli spread over the host threads.
void mat_mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b, std::size_t rows, std::size_t inner,
             std::size_t cols);

}  // namespace zgpu
