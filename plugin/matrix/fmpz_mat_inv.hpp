// fmpz_mat_inv over Z on the GPU: det a first (fmpz_mat_det.hpp), then adj a modulo primes that do
// not divide it and one CRT, and FLINT's answer for more than 15 rows from them: den > 0 the lcm
// of a^-1's denominators, B = den a^-1.
#pragma once

#include <cstdint>
#include <functional>

#include <flint/fmpz.h>

#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::matrix {

// The GPU's part: adj a modulo the set's primes and its CRT handed to result
// (gpu::fmpz_mat_adjugate), or a test's stand-in; false where it does not serve.
using AdjugateOnGpu = std::function<bool(const ZMatrix& a, const PrimeSet& set, const HostResult& result)>;
bool gpu_fmpz_mat_adjugate(const ZMatrix& a, const PrimeSet& set, const HostResult& result);

// The fewest of the generated primes (all above 2^61), in order, that divide no det and whose
// product exceeds 2^(bound_bits + 1): every value of absolute value below 2^bound_bits then
// comes back exactly from its residues. det is not 0.
PrimeSet primes_not_dividing(const fmpz_t det, std::uint64_t bound_bits);

// den = |det| / g and x = sign(det) adj / g for g = gcd(det, adj's entries): a^-1 = x / den with
// den the lcm of its denominators, as FLINT returns it. adj has count entries, overwritten by x.
void inverse_from_adjugate(fmpz* adj, std::size_t count, const fmpz_t det, fmpz_t den);

// x (n * n entries) and den as above for a square ZMatrix a of n rows, nonsingular with det(a) =
// det, whose Hadamard bound has bound_bits bits (it bounds every entry of adj a too: each row of a
// is nonzero). Returns false, nothing written, where the GPU's part does not serve.
bool fmpz_mat_inverse(fmpz* x, fmpz_t den, const ZMatrix& a, const fmpz_t det, std::uint64_t bound_bits, const AdjugateOnGpu& adjugate);

}  // namespace zgpu::matrix
