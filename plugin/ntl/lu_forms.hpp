// NTL's echelon form and kernel basis from an LU in FLINT's packed form (nmod_mat_lu_classical's:
// U on and right of each pivot; row i's multiplier for pivot t in column t, which is not the
// pivot's column where a column had no pivot), whose pivots are NTL's: NTL's elimination (elim
// in NTL's mat_lzz_p.cpp) takes each column's first nonzero entry from the current row down and
// swaps its row up, as that LU does. The GPU's LU gives this form (gpu::nmod_mat_lu); the tests
// give it by a plain elimination on the host.
#pragma once

#include <NTL/mat_lzz_p.h>

#include "plugin/gpu/matrix_backend.hpp"

namespace zgpu::ntl {

// lu becomes gauss's form: U's rows with zeros left of their pivots, then zero rows.
void echelon_from_lu(NTL::mat_zz_p& lu, const gpu::LuPivots& pivots);

// x = kernel's basis (the rows x with x a = 0), as NTL gives it, from lu, the LU of a's n rows of
// rank r < n: row i is (y, e_i) with y L11 = -L21[i], L11 and L21 the first r and the last n - r
// rows of L (its r columns), its entries then put back in a's row order (the swaps undone in
// reverse). The triangular solve runs on the GPU where it pays (matrix::solve_upper_triangular).
void kernel_from_lu(NTL::mat_zz_p& x, const NTL::mat_zz_p& lu, const gpu::LuPivots& pivots);

}  // namespace zgpu::ntl
