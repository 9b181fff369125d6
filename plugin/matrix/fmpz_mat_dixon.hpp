// Solutions of a x = b over Z as p-adic numbers, by Dixon's lifting on the GPU
// (gpu::fmpz_mat_dixon_digits). The determinant's divisor uses it; each answer is exact once
// rational reconstruction has its bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <flint/fmpz.h>

#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/modular/fmpz_temp.hpp"

namespace zgpu::matrix {

// x = a^-1 b modulo p^steps, digit by digit: digits[s n cols + i cols + c] is digit s of x(i, c).
struct DixonSolution {
    limb_t p = 0;
    std::size_t steps = 0, n = 0, cols = 0;
    std::vector<limb_t> digits;

    // m = p^steps.
    void modulus(fmpz_t m) const;
    // x = x(i, c) mod p^steps, in [0, p^steps), for entry e = i cols + c.
    void entry(fmpz_t x, std::size_t e) const;
    // numerators[k] / denominators[k] = x's entry entries[k], on the host threads: the fraction
    // with |numerator| < 2^numerator_bits and 0 < denominator < 2^denominator_bits, exact where
    // p^steps > 2^(numerator_bits + denominator_bits + 1) and x has such entries. False where an
    // entry has no such fraction. The vectors hold entries.size() values.
    bool reconstruct(std::span<const std::size_t> entries, std::uint64_t numerator_bits, std::uint64_t denominator_bits,
                     std::vector<FmpzTemp>& numerators, std::vector<FmpzTemp>& denominators) const;
    // d = the lcm of the denominators of the first `count` entries (at most all), reconstructed
    // so. False where one has no such fraction.
    bool first_denominators_lcm(fmpz_t d, std::size_t count, std::uint64_t numerator_bits, std::uint64_t denominator_bits) const;
};

// Steps whose modulus p^steps exceeds 2^bits for any prime p > 2^61 (the GPU's primes): the
// fewest k with 61 k > bits.
std::size_t dixon_steps(std::uint64_t bits);

// x = a^-1 b modulo p^steps for a square a (n >= 1) and b of n rows, packable, of at most the
// bits their ZMatrix says; p one of two primes tried in turn. Empty where a is singular modulo
// both or its entries are too long for the residual's moduli (kernels/matrix/dixon_step.hpp).
// GPU failures throw. steps_done, where not empty, is told of the steps done but the last.
std::optional<DixonSolution> dixon_solve(const ZMatrix& a, const ZMatrix& b, std::size_t steps,
                                         const std::function<void(std::uint64_t)>& steps_done);

}  // namespace zgpu::matrix
