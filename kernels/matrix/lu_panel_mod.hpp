// One panel of a blocked LU modulo a prime on the GPU: the rank and determinant of one matrix too
// large for a block of threads (det_mod.hpp eliminates many small ones, a block each). The
// caller runs the panels from left to right, each followed by the trailing update
// mat_submul_mod (mat_mul_mod.hpp) on the views lu_trailing_update names: over the whole width,
// or, in a blocked LU of two levels, inside a block of columns (a view of a's first columns),
// after whose panels come the block's U rows right of it (lu_substitute_mod and products) and
// one wide update of the rest.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// Columns of a panel: the inner dimension of each trailing update.
constexpr std::size_t kLuPanel = 16;

// Rows of a panel's top part, which one block eliminates first when the panel has more rows:
// the rows below then take their multipliers from the top part's U over the whole GPU.
constexpr std::size_t kLuTopRows = 128;

// Pivot t of an elimination: the row swapped into row t (t itself where none was) and the
// pivot's column.
struct LuPivot {
    std::uint64_t row, column;
};

// Where an elimination stands, in device memory from panel to panel. The elimination leaves true
// multipliers and true U rows (right of each panel up to update_end, and beyond once the
// caller's substitutions ran); inside a panel of q pivots, rows r0 on hold their entries in the
// panel's column order (its pivot columns first, then the others), so that the multipliers of
// pivot t lie in column k0 + t for the rows below it.
struct LuState {
    Modulus p;                   // a prime
    std::uint64_t rank = 0;      // pivots so far
    std::uint64_t pivots = 0;    // pivots of the last panel
    limb_t det = 1;              // the true pivots' product, negated for each row swap
    std::uint32_t stopped = 0;   // a column had no pivot and the caller asked to stop there
    LuPivot* record = nullptr;   // where not null (device memory), record[t] for each pivot t
};

// What a panel's top part hands to the rows below it, in device memory apart from LuState
// (which the caller reads back whole).
struct LuPanelTop {
    limb_t u[kLuPanel][kLuPanel];  // the top part's U in the panel: row t's true entries right of column t
    limb_t inverse[kLuPanel];      // 1 / U's diagonal entries
    std::uint32_t failed = 0;      // a column had no pivot in the top rows
};

// Eliminates columns k0 .. k0 + width - 1 (1 <= width <= kLuPanel) of the m x n matrix a (one
// matrix, entries in [0, p)) from row r0 = state->rank down, by panels as LAPACK's getrf:
//   - column by column, the first row from r down with a nonzero entry is swapped with row r
//     (whole rows), det takes the pivot, and the rows below lose their multiple of row r
//     in the panel's columns; r then moves down one;
//   - a column with no pivot is skipped, or, where stop_without_pivot, ends the elimination
//     (state->stopped = 1, det = 0: the matrix is singular) and later panels return at once (the
//     caller stops its trailing updates);
//   - the panel's pivot columns are moved to its front in their order (rows r0 on), so that the
//     multipliers fill columns k0 .. k0 + q - 1 of rows r0 + q on, for q pivots; where
//     state->record is not null, it receives each pivot's row and column;
//   - rows r0 .. r0 + q - 1 become U's rows in columns k0 + width .. update_end - 1 (the columns
//     from update_end on wait for the caller's lu_substitute_mod).
// state->rank then grows by q and state->pivots is q. rows_from_r0 must be m - state->rank as
// the device will find it (m - k0 for a determinant, which has a pivot in every column so far):
// it sizes the launches. Where that many rows are at most tile_rows_limit (what
// lu_panel_prepare() returned on this device), the panel is eliminated in shared memory.
// A panel with more than kLuTopRows rows from r0 is eliminated on its top kLuTopRows rows first.
// The pivots are the same: a column's first nonzero entry from row r down lies in the top rows
// whenever any of them is nonzero, and their entries depend only on pivot rows, which are top
// rows too. Where every column finds its pivot there, each row below reduces its own entries by
// the top part's U (`top` holds it) over the whole GPU; where one does not, the same block
// eliminates all the rows, as above, in device memory.
// Contract: a, state and top in device memory; k0 + width <= update_end <= n. Only enqueues work
// on `stream`; launch errors are thrown as zgpu::Error.
void lu_panel_mod(MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, std::size_t rows_from_r0,
                  std::size_t tile_rows_limit, std::size_t update_end, LuState* state, LuPanelTop* top, cudaStream_t stream);

// Rows r0 .. r0 + q - 1 of a (a panel's pivot rows, their multipliers in columns k0 .. k0 + q - 1,
// q <= kLuPanel) become U's rows in columns begin .. end - 1: row r0 + t loses the sum over s < t
// of its multiplier s times row r0 + s. The rows must have lost every earlier panel's part
// already. Returns at once where state->stopped. Only enqueues work on `stream`.
void lu_substitute_mod(MatricesView a, std::size_t r0, std::size_t q, std::size_t k0, std::size_t begin, std::size_t end,
                       const LuState* state, cudaStream_t stream);

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
