// Inverses and determinants of a batch of matrices modulo a prime each, in device memory, by
// block recursion on Schur complements (Strassen's inversion): for m = [A B; C D],
//   m^-1 = [A^-1 + E S^-1 F, -E S^-1; -S^-1 F, S^-1], E = A^-1 B, F = C A^-1, S = D - C E,
// and det m = det A det S. Its work is that of about one product of the whole size, in products
// of halves (gpu/matrix/product_mod.hpp), down to blocks of kSmallInverse rows that one thread
// block inverts (kernels/matrix/inverse_mod.hpp). It needs each leading block it splits at to be
// invertible: where one is not (or the matrix is singular) the determinant comes out 0. Only
// plugin/gpu/ includes it.
#pragma once

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// For each matrix b of m (square, entries below moduli[b].n, prime, all below
// 2^modulus_bits): det[b] = det(m_b) and out_b = m_b^-1 where every leading block the recursion
// splits at is invertible; else det[b] = 0 and out_b is undefined. m is not changed; out
// overlaps nothing; m, out, moduli and det in device memory. Queued on the runtime's stream; the
// caller holds its lease.
void invert_by_blocks(Runtime& runtime, kernels::ConstMatricesView m, kernels::MatricesView out, const kernels::Modulus* moduli,
                      unsigned modulus_bits, limb_t* det);

// The same for the matrices U m L, with U and L unit triangular (upper, lower) of random entries
// below 2^61, the same for every matrix, so every modulus must be above 2^61 (as the NTT primes
// are): det(U m L) = det(m), and its leading blocks are invertible with high probability
// whenever m is, whatever m's structure. out_b = m_b^-1 again.
void invert_by_blocks_preconditioned(Runtime& runtime, kernels::ConstMatricesView m, kernels::MatricesView out,
                                     const kernels::Modulus* moduli, unsigned modulus_bits, limb_t* det);

}  // namespace zgpu::gpu
