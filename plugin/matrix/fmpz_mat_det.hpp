// The determinant of a matrix over Z on the chosen backend: on the GPU modulo as many primes as
// Hadamard's bound needs, each by elimination, then one CRT, or, for large matrices, by a divisor
// that Dixon's lifting finds and the primes of the quotient's smaller bound; or FLINT's own
// function.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <flint/fmpz.h>

#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/mat_choice.hpp"

namespace zgpu::matrix {

// Hadamard's bound in bits: |det| <= prod_i ||row_i|| < 2^(sum_i ceil(bits(||row_i||^2) / 2)),
// from the bits of the rows' squared norms (exact integers: 0 for a zero row, and then 0).
std::uint64_t hadamard_bits(std::span<const std::uint64_t> squared_norm_bits);

// The GPU's part: det(a) modulo each prime of the set (gpu::fmpz_mat_det_residues, as many primes
// at a time as the device holds), or a test's stand-in; primes_done, where not empty, is told of
// the primes finished as they are.
using DetResiduesOnGpu = std::function<std::vector<limb_t>(const ZMatrix& a, const PrimeSet& set,
                                                           const std::function<void(std::uint64_t)>& primes_done)>;
std::vector<limb_t> gpu_fmpz_mat_det_residues(const ZMatrix& a, const PrimeSet& set, const std::function<void(std::uint64_t)>& primes_done);

// det = det(a) by a divisor, on the GPU, for a square ZMatrix of n >= 1 rows whose Hadamard
// bound has bound_bits bits: d, the lcm of the denominators of the first entries of x = a^-1 b
// for b = (-1, 1, -1, ...), as FLINT's fmpz_mat_det_divisor takes it (Dixon's lifting,
// fmpz_mat_dixon.hpp), then det / d modulo the primes of its bound, 2^bound_bits / d, and one
// CRT. Every denominator divides det(a), and the lifting's modulus exceeds 2 N D for the
// bounds N, D of Cramer's rule, so the reconstruction is exact. Returns false, det untouched,
// where the way does not serve: a singular modulo both primes the lifting tries, entries too
// long for its residual, or a prime of the quotient's set dividing d; the caller then takes the
// primes of the whole bound. GPU failures throw. steps_done as dixon_solve's.
bool fmpz_mat_det_by_divisor(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void(std::uint64_t)>& steps_done);

// Its parts, for callers that split the quotient's primes (the MPI layer). d = the divisor the
// lifting finds, or false, d untouched, where it does not serve; |det / d| < 2^det_quotient_bits;
// det / d modulo each prime of the set from det's residues, or false where a prime divides d.
bool fmpz_mat_det_divisor(fmpz_t d, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void(std::uint64_t)>& steps_done);
std::uint64_t det_quotient_bits(std::uint64_t bound_bits, const fmpz_t d);
bool divide_residues(std::vector<limb_t>& residues, const PrimeSet& set, const fmpz_t d);

// The lifting steps fmpz_mat_det_by_divisor takes for an n x n matrix (for progress lines).
std::size_t divisor_lift_steps(std::size_t n, std::uint64_t bound_bits);

// det = det(a) for a ZMatrix as above: on the GPU where it pays, by a divisor where that pays
// too (divisor_pays_for_fmpz_mat_det) and serves, else modulo the primes of
// PrimeSet::for_bits(bound_bits, signed) and one CRT; on_cpu computes it otherwise (FLINT's
// fmpz_mat_det). A GPU that fails leaves it to the host with a warning, unless ZGPU_BACKEND=gpu
// forced it: then the error stands, det untouched. Progress lines, where asked for, count the
// lifting's steps or the primes done. Returns the backend that ran. fmpz_mat_determinant_on
// takes the whole bound's primes on the given backend, the residues from `residues`.
Backend fmpz_mat_determinant(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void()>& on_cpu);
Backend fmpz_mat_determinant_on(Backend backend, fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits,
                                const std::function<void()>& on_cpu, const DetResiduesOnGpu& residues);

}  // namespace zgpu::matrix
