// C++ forms of the entry points of zgpu_modular.h: same semantics, on a zgpu::PrimeSet, errors
// thrown as zgpu::Error (nothing written) instead of returned.
#pragma once

#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

#include "zgpu/error.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

void fmpz_vec_multi_mod_ui(ulong* const* residues, const fmpz* vec, slong len, const PrimeSet& set);
void fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set, int sign);
void fmpz_vec_multi_CRT_ui_checked(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set,
                                   const fmpz_t bound, int sign);
void fmpz_mat_multi_mod_ui(nmod_mat_t* residues, slong nres, const fmpz_mat_t mat);
void fmpz_mat_multi_CRT_ui(fmpz_mat_t mat, nmod_mat_t* const residues, slong nres, int sign);
void fmpz_poly_multi_mod_ui(nmod_poly_t* residues, slong nres, const fmpz_poly_t poly);
void fmpz_poly_multi_CRT_ui(fmpz_poly_t poly, nmod_poly_t* const residues, slong nres, int sign);

}  // namespace zgpu
