// C++ forms of the entry points of zgpu_matrix.h: same semantics, errors thrown as zgpu::Error
// (nothing written) instead of returned. fmpz_mat_solve, fmpz_mat_inv, nmod_mat_inv and nmod_mat_solve return FLINT's answer (1
// where a is nonsingular).
#pragma once

#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>

#include "zgpu/error.hpp"

namespace zgpu {

void nmod_mat_mul(nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b);
ulong nmod_mat_det(const nmod_mat_t a);
slong nmod_mat_rank(const nmod_mat_t a);
int nmod_mat_inv(nmod_mat_t b, const nmod_mat_t a);
int nmod_mat_solve(nmod_mat_t x, const nmod_mat_t a, const nmod_mat_t b);
slong nmod_mat_lu(slong* P, nmod_mat_t a, int rank_check);
slong nmod_mat_rref(nmod_mat_t a);
slong nmod_mat_nullspace(nmod_mat_t x, const nmod_mat_t a);
void fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b);
void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a);
int fmpz_mat_solve(fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b);
int fmpz_mat_inv(fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a);
slong fmpz_mat_rref(fmpz_mat_t r, fmpz_t den, const fmpz_mat_t a);
slong fmpz_mat_rank(const fmpz_mat_t a);
slong fmpz_mat_nullspace(fmpz_mat_t x, const fmpz_mat_t a);

}  // namespace zgpu
