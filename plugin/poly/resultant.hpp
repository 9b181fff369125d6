// The resultant of two polynomials over Z on the chosen backend: modulo as many primes as
// Hadamard's bound on their Sylvester matrix needs, each prime's remainder sequence on the GPU,
// then one CRT; or FLINT's own function.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <flint/fmpz.h>

#include "plugin/poly/poly_choice.hpp"
#include "plugin/poly/product_over_z.hpp"

namespace zgpu::poly {

// Hadamard's bound on |Res(a, b)| in bits, from the bits of ||a||^2 and ||b||^2 (exact
// integers): deg(b) ceil(bits(||a||^2) / 2) + deg(a) ceil(bits(||b||^2) / 2), the Sylvester
// matrix having deg(b) rows of a's coefficients and deg(a) rows of b's; at least 1 (two
// constants have the resultant 1).
std::uint64_t resultant_bits(std::size_t a_length, std::uint64_t a_norm_bits, std::size_t b_length, std::uint64_t b_norm_bits);

// The GPU's part: Res(a, b) modulo each prime of the set (gpu::fmpz_poly_resultant_residues), or
// a test's stand-in; primes_done, where not empty, is told of the primes finished as they are.
using ResultantResiduesOnGpu = std::function<std::vector<limb_t>(const ZPoly& a, const ZPoly& b, const PrimeSet& set,
                                                                 const std::function<void(std::uint64_t)>& primes_done)>;

// res = Res(a, b) for nonzero a and b (lengths >= 1, top coefficients nonzero), |Res| below
// 2^bound_bits: on the GPU where it pays, modulo the primes of PrimeSet::for_bits(bound_bits,
// signed), and one CRT; on_cpu computes it otherwise (FLINT's fmpz_poly_resultant). A GPU that
// fails leaves it to the host with a warning, unless ZGPU_BACKEND=gpu forced it: then the error
// stands, res untouched. Progress lines, where asked for, count the primes done. Returns the
// backend that ran.
Backend resultant(fmpz_t res, const ZPoly& a, const ZPoly& b, std::uint64_t bound_bits, const std::function<void()>& on_cpu);
Backend resultant_on(Backend backend, fmpz_t res, const ZPoly& a, const ZPoly& b, std::uint64_t bound_bits,
                     const std::function<void()>& on_cpu, const ResultantResiduesOnGpu& residues);

// Res(a, b) mod n for polynomials of lengths a_length, b_length >= 1 (top coefficients nonzero,
// coefficients below n), n prime: on the GPU (one block) where it pays, else on_cpu (FLINT's
// nmod_poly_resultant), whose value is returned. A GPU that fails leaves it to the host with a
// warning, unless ZGPU_BACKEND=gpu forced it: then the error stands.
limb_t nmod_resultant(const limb_t* a, std::size_t a_length, const limb_t* b, std::size_t b_length, limb_t n,
                      const std::function<limb_t()>& on_cpu);

}  // namespace zgpu::poly
