// Inverses and solutions over Z by Cramer's numerators modulo many primes, on the GPU: det a first
// (fmpz_mat_det.hpp), then adj a (times b) modulo primes that do not divide it and one CRT, and
// FLINT's answer for more than 15 rows from them: den > 0 the lcm of the solution's denominators,
// x = den a^-1 b. Where b has more columns than Dixon's lifting takes (fmpz_mat_solve.hpp), and
// for the inverse.
#pragma once

#include <cstdint>
#include <functional>

#include <flint/fmpz.h>

#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::matrix {

// The GPU's part: adj a, or adj a times b where b is not null, modulo the set's primes and its
// CRT handed to result (gpu::fmpz_mat_adjugate_times), or a test's stand-in; false where it does
// not serve.
using CramerOnGpu = std::function<bool(const ZMatrix& a, const ZMatrix* b, const PrimeSet& set, const HostResult& result)>;
bool gpu_fmpz_mat_cramer(const ZMatrix& a, const ZMatrix* b, const PrimeSet& set, const HostResult& result);

// The fewest of the generated primes (all above 2^61), in order, that divide no det and whose
// product exceeds 2^(bound_bits + 1): every value of absolute value below 2^bound_bits then
// comes back exactly from its residues. det is not 0.
PrimeSet primes_not_dividing(const fmpz_t det, std::uint64_t bound_bits);

// Cramer's numerators handed to result: adj a, or adj a times b where b is not null, modulo
// primes_not_dividing(det, bound_bits), for a nonsingular with det(a) = det and every numerator
// below 2^bound_bits. False, nothing handed on, where the values would pass kMaxLimbs or the
// GPU's part does not serve.
bool cramer_numerators(const ZMatrix& a, const ZMatrix* b, const fmpz_t det, std::uint64_t bound_bits, const CramerOnGpu& cramer,
                       const HostResult& result);

// den = |det| / g and x = sign(det) numerators / g for g = gcd(det, the numerators): a^-1 b =
// x / den with den the lcm of its denominators, as FLINT returns it. numerators has count
// entries, overwritten by x.
void solution_from_numerators(fmpz* numerators, std::size_t count, const fmpz_t det, fmpz_t den);

// x and den as above for a square ZMatrix a of n rows, nonsingular with det(a) = det, and b (n x
// cols), or the identity where b is null (x of n * n entries: the inverse). bound_bits bounds
// every numerator: Hadamard's bound of a for the inverse (each row of a is nonzero), Cramer's
// numerator bound for b (solve_bounds). Returns false, nothing written, where the GPU's part does
// not serve.
bool fmpz_mat_solve_by_primes(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix* b, const fmpz_t det, std::uint64_t bound_bits,
                              const CramerOnGpu& cramer);

}  // namespace zgpu::matrix
