// nmod_mat_lu, nmod_mat_rref and nmod_mat_nullspace on the chosen backend: the GPU's blocked LU,
// its factors brought into FLINT's form, where the modulus is prime and it pays; FLINT's own
// functions otherwise (composite moduli included, which FLINT's inverses decide).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <flint/nmod_mat.h>

#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::matrix {

// The backend of an LU of a rows x cols matrix mod p: the GPU's where the LU's cost model picks it
// (ZGPU_BACKEND=gpu forces it), p is prime (tested only then, so that small matrices stay cheap)
// and the matrix has an entry; the CPU's otherwise.
Backend lu_backend(std::size_t rows, std::size_t cols, limb_t p);

// The frame of the LU's callers, FLINT's faces and NTL's: gpu(columns_done) where lu_backend
// picks the GPU, host() otherwise and where gpu() throws (gpu_or_host's rule: with a warning
// naming `failure`, unless ZGPU_BACKEND=gpu forced it). gpu() must throw only before it writes
// the caller's output: host() starts from the inputs. Progress lines (ZGPU_PROGRESS=1) name
// `what` and count the columns eliminated.
using LuOnGpu = std::function<void(const std::function<void(std::uint64_t)>& columns_done)>;
void on_lu(std::size_t rows, std::size_t cols, limb_t p, const std::string& what, const char* failure, const LuOnGpu& gpu,
           const std::function<void()>& host);

// v = u^-1 v, u upper triangular with a nonzero diagonal: on the GPU where it pays, else (and
// where the GPU fails) by FLINT's nmod_mat_solve_triu.
void solve_upper_triangular(nmod_mat_struct* v, const nmod_mat_struct* u);

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
