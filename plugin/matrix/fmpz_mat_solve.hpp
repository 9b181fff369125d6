// a x = b over Q for a square a on the chosen backend: on the GPU by Dixon's lifting
// (fmpz_mat_dixon.hpp) and rational reconstruction, with the answer FLINT's fmpz_mat_solve gives
// for more than 15 rows (FLINT 2.9 and 3.6 alike, whether they lift or take many primes): den > 0
// the lcm of x's denominators and X = den x; or FLINT's own function.
#pragma once

#include <cstdint>
#include <functional>

#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>

#include "plugin/matrix/fmpz_mat_dixon.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::matrix {

// The columns the GPU's lifting takes at most (each step reads a's residues once a column;
// FLINT 3.6 itself takes many primes beyond 32), and the rows it needs more than (for fewer,
// FLINT's Cramer's rule or fraction-free elimination return det(a) up to sign as den, not the
// lcm).
inline constexpr std::size_t kSolveMaxColumns = 32, kSolveAboveRows = 15;

// Bounds of Cramer's rule: |numerator| < 2^numerator_bits for every entry of x, and |det a| <
// 2^denominator_bits.
struct SolveBounds {
    std::uint64_t numerator_bits = 0, denominator_bits = 0;
};

// Cramer's bounds for a x = b (a square, n >= 1; b of n rows): |det a| < 2^D from a's rows'
// squared norms s_r (D = 0 where a row is zero: a is singular), and each numerator, a
// determinant whose row r has squared norm at most s_r + max_j b_rj^2, below 2^N from those.
// On the host threads.
SolveBounds solve_bounds(const fmpz_mat_struct* a, const fmpz_mat_struct* b);

// x[i cols + c] = den x(i, c) and den for a x = b, a nonsingular n x n (n >= 1) and b n x cols
// (cols >= 1), on the GPU: den > 0 is the lcm of the entries' denominators, as FLINT returns it. The lifting runs until p^k > 2 N D^2 (N, D the bounds' powers of two), so
// that an entry t / d with |t| <= N d, for d the lcm so far, is exact without a reconstruction
// of its own. Returns false, nothing written, where the way does not serve (a singular modulo
// both primes the lifting tries, entries too long for its residual). GPU failures throw.
// steps_done as dixon_solve's. x holds n * cols entries.
bool fmpz_mat_solve_by_lifting(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix& b, const SolveBounds& bounds,
                               const std::function<void(std::uint64_t)>& steps_done);

// The steps the lifting takes: the fewest with p^steps > 2^(numerator_bits + 2 denominator_bits + 1).
std::size_t solve_lift_steps(const SolveBounds& bounds);

// The host's part of the above: x and den from the lifting's digits, solve_lift_steps of them,
// for a nonsingular a whose Cramer bounds these are.
// False where an entry has no fraction within the bounds (it cannot, for such digits).
bool solution_from_digits(const DixonSolution& solution, const SolveBounds& bounds, fmpz* x, fmpz_t den);

// The same on the chosen backend: where the GPU pays and serves, x and den are written and it
// returns true; else on_cpu() (FLINT's fmpz_mat_solve on all host threads) computes and writes
// the answer itself, and it returns false. A failing GPU leaves it to on_cpu with a warning,
// unless ZGPU_BACKEND=gpu forced it: then the error stands, nothing written.
bool fmpz_mat_solve(fmpz* x, fmpz_t den, const ZMatrix& a, const ZMatrix& b, const SolveBounds& bounds,
                    const std::function<void()>& on_cpu);

}  // namespace zgpu::matrix
