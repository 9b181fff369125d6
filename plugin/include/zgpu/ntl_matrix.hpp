// NTL-style products, determinants and solutions of mat_ZZ, and products, determinants, inverses,
// solutions, echelon forms, images and kernels of mat_zz_p modulo the current zz_p modulus: the
// semantics of NTL's mul, determinant, solve1, inv, solve, gauss, image and kernel (outputs may
// be inputs; a 0 x 0 matrix's determinant is 1). On the GPU the functions of zgpu_matrix.h, exact
// on every input; on the CPU NTL's own functions (mat_ZZ's determinant with deterministic = 1:
// its default strategy is randomised). mat_zz_p's determinants, inverses, solutions, echelon
// forms, images and kernels modulo a composite stay with NTL, whose elimination needs inverses as
// the GPU's does. Shapes that do not multiply or match, and non-square matrices, throw
// zgpu::Error with nothing written.
#pragma once

#include <NTL/mat_ZZ.h>
#include <NTL/mat_lzz_p.h>

#include "zgpu/error.hpp"

namespace zgpu {

void mul(NTL::mat_ZZ& x, const NTL::mat_ZZ& a, const NTL::mat_ZZ& b);
void determinant(NTL::ZZ& d, const NTL::mat_ZZ& a);
// As NTL's solve1: where a is nonsingular, x a = d b with d > 0 minimal; else d = 0 (x as NTL
// leaves it). On the GPU from 16 rows on, by fmpz_mat_solve's lifting on a's transpose.
void solve1(NTL::ZZ& d, NTL::vec_ZZ& x, const NTL::mat_ZZ& a, const NTL::vec_ZZ& b);
// As NTL's solve: d = det a and, where d != 0, x a = d b (solve1's x times det a / d).
void solve(NTL::ZZ& d, NTL::vec_ZZ& x, const NTL::mat_ZZ& a, const NTL::vec_ZZ& b);
// As NTL's inv(d, x, a): d = det a and, where d != 0, x = d a^-1 (the adjugate; exact, so the
// same as NTL's). On the GPU from 16 rows on where the cost model says it pays: the determinant,
// then the adjugate modulo primes that do not divide it and one CRT.
void inv(NTL::ZZ& d, NTL::mat_ZZ& x, const NTL::mat_ZZ& a);
void mul(NTL::mat_zz_p& x, const NTL::mat_zz_p& a, const NTL::mat_zz_p& b);
void determinant(NTL::zz_p& d, const NTL::mat_zz_p& a);
// d = det a, and x = a^-1 where d != 0 (x undefined where d = 0).
void inv(NTL::zz_p& d, NTL::mat_zz_p& x, const NTL::mat_zz_p& a);
// x = a^-1; a singular a raises NTL's ArithmeticError ("inv: non-invertible matrix"), as NTL's.
void inv(NTL::mat_zz_p& x, const NTL::mat_zz_p& a);
// d = det a, and where d != 0 the x with a x = b (a column).
void solve(NTL::zz_p& d, const NTL::mat_zz_p& a, NTL::vec_zz_p& x, const NTL::vec_zz_p& b);
// d = det a, and where d != 0 the x with x a = b (a row), as NTL's solve(d, x, a, b).
void solve(NTL::zz_p& d, NTL::vec_zz_p& x, const NTL::mat_zz_p& a, const NTL::vec_zz_p& b);
// As NTL's gauss(m): m in NTL's row echelon form (its rows by NTL's row swaps and subtractions,
// the pivots not scaled), its rank returned. With w, as gauss(m, w): the first w columns only
// (NTL's own function where w is below m's columns; w outside 0 to m's columns throws).
long gauss(NTL::mat_zz_p& m);
long gauss(NTL::mat_zz_p& m, long w);
// As NTL's image(x, a): x = the nonzero rows of gauss's form of a (a basis of a's row space).
void image(NTL::mat_zz_p& x, const NTL::mat_zz_p& a);
// As NTL's kernel(x, a): x's rows are NTL's basis of the row vectors v with v a = 0.
void kernel(NTL::mat_zz_p& x, const NTL::mat_zz_p& a);

}  // namespace zgpu
