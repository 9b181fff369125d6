// The determinant of a matrix over Z on the chosen backend: modulo as many primes as
// Hadamard's bound needs, each by elimination on the GPU, then one CRT; or FLINT's own function.
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

// The GPU's part: det(a) modulo each prime of the set (gpu::fmpz_mat_det_residues), or a test's
// stand-in; primes_done, where not empty, is told of the primes finished as they are.
using DetResiduesOnGpu = std::function<std::vector<limb_t>(const ZMatrix& a, const PrimeSet& set,
                                                           const std::function<void(std::uint64_t)>& primes_done)>;

// det = det(a) for a square ZMatrix of n >= 1 rows whose rows' squared norms are given: on the
// GPU where it pays, modulo the primes of PrimeSet::for_bits(hadamard_bits, signed), and one
// CRT; on_cpu computes it otherwise (FLINT's fmpz_mat_det). A GPU that fails leaves it to the
// host with a warning, unless ZGPU_BACKEND=gpu forced it: then the error stands, det untouched.
// Progress lines, where asked for, count the primes done. Returns the backend that ran.
Backend fmpz_mat_determinant(fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits, const std::function<void()>& on_cpu);
Backend fmpz_mat_determinant_on(Backend backend, fmpz_t det, const ZMatrix& a, std::uint64_t bound_bits,
                                const std::function<void()>& on_cpu, const DetResiduesOnGpu& residues);

}  // namespace zgpu::matrix
