// Matrix products and determinants on residue batches: the device-resident forms, for modular
// algorithms that keep their matrices as residues modulo a prime set between steps (reduce
// once, multiply as often as needed, crt once).
#pragma once

#include <cstddef>
#include <span>

#include "zgpu/residue_batch.hpp"

namespace zgpu {

// r = a * b modulo each modulus of the set, in one call: a's count() values read as a row-major
// rows x inner matrix (entry (i, j) modulo modulus m at data()[m * prime_stride() + i * inner +
// j]), b's as an inner x cols one; r resized to rows * cols values. Operands on the same moduli
// and backend, of rows * inner and inner * cols values (else zgpu::Error, nothing written); r
// may be a or b. Any moduli of 2 <= n < 2^64 (prime or not). On the GPU backend one batch of
// products, on the 8-bit tensor cores from 256 inner terms (and 32 rows and columns) and on the
// integer units below, queued on the backend's stream; on the CPU backend FLINT's nmod_mat_mul a
// modulus, the moduli spread over the host threads.
void mat_mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b, std::size_t rows, std::size_t inner,
             std::size_t cols);

// det[i] = the determinant of a's count() values read as a row-major n x n matrix, modulo
// modulus i of the set, for each of its prime_set().size() moduli; det(0 x 0) = 1. Every modulus
// must be prime (zgpu::Error, nothing written, naming the first that is not); a is not changed.
// On the GPU backend elimination a block a modulus (kernels/matrix/det_mod), then the values read
// back; on the CPU backend FLINT's nmod_mat_det a modulus, the moduli over the host threads.
void mat_det(std::span<ulong> det, const ResidueBatch& a, std::size_t n);

}  // namespace zgpu
