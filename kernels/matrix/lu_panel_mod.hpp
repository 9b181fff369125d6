// One panel of a blocked LU modulo a prime on the GPU: the rank and determinant of one matrix too
// large for a block of threads (det_mod.hpp eliminates many small ones, a block each). The
// caller runs the panels from left to right, each followed by the trailing update
// mat_submul_mod (mat_mul_mod.hpp) on the views lu_trailing_update names.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// Columns of a panel: the inner dimension of each trailing update.
constexpr std::size_t kLuPanel = 16;

// Where an elimination stands, in device memory from panel to panel. The elimination is for the
// rank and the determinant: it leaves true multipliers and true U rows right of each panel, but
// U's entries inside a panel scaled by the panel's earlier pivots (no use for solving).
struct LuState {
    Modulus p;                 // a prime
    std::uint64_t rank = 0;    // pivots so far
    std::uint64_t pivots = 0;  // pivots of the last panel
    limb_t det = 1;            // the true pivots' product, negated for each row swap
    std::uint32_t stopped = 0; // a column had no pivot and the caller asked to stop there
};

// Eliminates columns k0 .. k0 + width - 1 (1 <= width <= kLuPanel) of the m x n matrix a (one
// matrix, entries in [0, p)) from row r0 = state->rank down, by panels as LAPACK's getrf:
//   - column by column, the first row from r down with a nonzero entry is swapped with row r
//     (from column k0 on), det takes the pivot, and the rows below lose their multiple of row r
//     in the panel's columns; r then moves down one;
//   - a column with no pivot is skipped, or, where stop_without_pivot, ends the elimination
//     (state->stopped = 1, det = 0: the matrix is singular) and later panels return at once (the
//     caller stops its trailing updates);
//   - the panel's pivot columns are moved to its front in their order (rows r0 on), so that the
//     multipliers fill columns k0 .. k0 + q - 1 of rows r0 + q on, for q pivots;
//   - rows r0 .. r0 + q - 1 right of the panel become U's rows.
// state->rank then grows by q and state->pivots is q. rows_from_r0 is m - state->rank as the
// caller knows it (m - k0 for a determinant, which has a pivot in every column so far): where
// that many rows are at most tile_rows_limit (what lu_panel_prepare() returned on this device),
// the panel is eliminated in shared memory. Contract: a and state in device memory; k0 + width <= n. Only enqueues work
// on `stream`; launch errors are thrown as zgpu::Error.
void lu_panel_mod(MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, std::size_t rows_from_r0,
                  std::size_t tile_rows_limit, LuState* state, cudaStream_t stream);

// Lets lu_panel_mod's kernel use the shared memory a block may opt in to on the current device,
// and returns the most rows of a panel that holds (about 1700 on sm_90). Call it on the device
// that runs the panels, before them: once an elimination, not once a panel (it queries the
// device). Errors are thrown as zgpu::Error.
std::size_t lu_panel_prepare();

// The views of the trailing update after a panel of columns k0 .. k1 - 1 that found `pivots`
// pivots below row r0: a -= l u over rows r0 + pivots on, columns k1 on.
struct LuTrailingUpdate {
    ConstMatricesView l, u;
    MatricesView a;
};
LuTrailingUpdate lu_trailing_update(MatricesView a, std::size_t r0, std::size_t pivots, std::size_t k0, std::size_t k1);

}  // namespace zgpu::kernels
