// Polynomial products on residue batches: the device-resident form of the polynomial products,
// for modular algorithms that keep their polynomials as residues modulo a prime set between
// steps (reduce once, multiply and add as often as needed, crt once).
#pragma once

#include "zgpu/residue_batch.hpp"

namespace zgpu {

// r = a * b modulo each modulus of the set, reading a's count() values as the coefficients of
// one polynomial (coefficient e modulo modulus i at data()[i * prime_stride() + e]), b's
// likewise; r's count() is a.count() + b.count() - 1 (0 where either is 0), r resized to it.
// Operands on the same set and backend; r may be a or b. On the GPU backend the set's moduli
// must be primes below 2^62 whose p - 1 the transform length divides (the generated sets' are,
// for every length a batch holds); others throw zgpu::Error. On the CPU backend FLINT's
// _nmod_poly_mul a modulus, on all host threads.
void poly_mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b);

}  // namespace zgpu
