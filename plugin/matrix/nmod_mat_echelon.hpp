// nmod_mat_lu, nmod_mat_rref and nmod_mat_nullspace on the chosen backend: the GPU's blocked LU,
// its factors brought into FLINT's form, where the modulus is prime and it pays; FLINT's own
// functions otherwise (composite moduli included, which FLINT's inverses decide).
#pragma once

#include <flint/nmod_mat.h>

namespace zgpu::matrix {

// As FLINT's nmod_mat_lu(P, a, rank_check): P of a->r entries. The GPU gives the factors that
// nmod_mat_lu_classical gives (the first nonzero entry of each column from the current row down
// is the pivot); FLINT's own nmod_mat_lu may pick other pivots on large matrices, and any
// pivots give P a = L U. Where rank_check is set and a column has no pivot while rows are left,
// returns 0 and leaves a undefined, as FLINT does.
slong nmod_mat_factor_lu(slong* P, nmod_mat_struct* a, int rank_check);

// As FLINT's nmod_mat_rref(a): a in reduced row echelon form (unique), its rank returned. On the
// GPU: the LU, then U's pivot columns' inverse times its other columns (FLINT's way), that
// triangular solve on the GPU or the host by the cost model.
slong nmod_mat_reduced_echelon(nmod_mat_struct* a);

// As FLINT's nmod_mat_nullspace(x, a): x (a->c x a->c, checked by the caller) gets a basis of
// a's null space in its first columns, FLINT's basis (from the reduced echelon form: one column
// a non-pivot column), and zeros; returns the nullity.
slong nmod_mat_null_space(nmod_mat_struct* x, const nmod_mat_struct* a);

}  // namespace zgpu::matrix
