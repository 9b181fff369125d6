// The GPU's LU (gpu_nmod_mat_lu.cpp) in FLINT's packed form. On the device each panel of q
// pivots keeps its rows' entries in its own column order (its pivot columns first) and its
// multipliers in its first q columns; FLINT keeps U in row echelon form in the natural column
// order and the multipliers of pivot t in column t. Only plugin/gpu/ includes it.
#pragma once

#include <cstddef>
#include <span>

#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// A panel of the blocked LU: its pivot rows r0 .. r0 + q - 1, its columns k0 .. k1 - 1.
struct LuPanel {
    std::size_t r0, q, k0, k1;
};

// out_rows (m rows of n words) = the LU left on the device, `device_form` (m x n, row-major),
// in FLINT's form: row i < rank holds U's entries from column i on and the multipliers of
// pivots 0 .. i - 1 left of it; rows from the rank on hold their multipliers in columns
// 0 .. rank - 1 and zeros. pivot_columns[t] is pivot t's column; `panels` are the panels run,
// in order. On the host threads where it pays.
void flint_form_of_lu(const limb_t* device_form, std::size_t m, std::size_t n, std::span<const LuPanel> panels,
                      std::span<const std::size_t> pivot_columns, std::span<limb_t* const> out_rows);

}  // namespace zgpu::gpu
