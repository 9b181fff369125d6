// One panel of a blocked LU mod p (contract: lu_panel_mod.hpp), on one block of threads.
//
// A panel is narrow (kLuPanel columns) and tall (every row from r0 down, or its top part), so
// one block takes it, and its cost is latency: a column is two synchronisations and one pass over the rows below.
//   - No inverse a column: the rows below lose their multiple of the pivot row without division
//     (x <- d x - m u for the pivot d, the row's entry m in the pivot column and the pivot row's
//     u), which scales every row below by d. The panel's pivots are inverted together at its end
//     (one inversion, 3 q products), and the multipliers m / d then take their place: each row's
//     scale cancels, as row and pivot carry the same product of earlier pivots. The pivot rows'
//     own entries are scaled back by the inverse of that product, so that U is true.
//   - The pass that eliminates column c also finds column c + 1's pivot (its first nonzero).
//   - Each thread loads kBatch rows before it computes on them, so that their loads overlap, and
//     multiplies by the column's pivot and the pivot row's entry by Shoup's products (primes
//     below 2^62), with no division.
// The forward substitution that turns the pivot rows into U's rows is a kernel of its own over the
// whole GPU: each thread owns a column right of the panel and keeps its new U entries in
// registers, summing each row's products exactly in 32-bit digits (DigitSum) and reducing once.
//
// A panel taller than kLuTopRows runs first on its top rows only: one block on a short panel is
// a few microseconds a column, where over 4096 rows in device memory it was about 30
// (bench/NOTES-matrices.md). The top part's row swaps reach the rest of the rows only once it
// has found every pivot, so that where it fails the same block starts again over all the rows
// from device memory. Otherwise the rows below each take their multipliers from the top part's
// true U, kLuPanel threads a row, over the whole GPU.
//
// Cost a panel: (m - r0) kLuPanel^2 products mod p, in the block or over the GPU, and (n - k1)
// kLuPanel^2 / 2 digit products; the trailing update (n^3 / 3 multiply-adds over the whole LU)
// runs on the whole GPU in mat_submul_mod.
#include "kernels/matrix/lu_panel_mod.hpp"

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"
#include "kernels/modular/shoup_product.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kBatch = 8;                         // rows a thread loads before it computes
constexpr unsigned kSubstitutionThreads = 128, kBelowThreads = 128;

// The panel's rows r0 .. m - 1 (or its top part's) in shared memory, a row kTileStride words
// (distinct banks for a column's entries), where they fit in what the device lets a block opt in to (227 KiB on sm_90:
// 1700 rows), less the kernel's own static shared memory.
constexpr std::size_t kTileStride = kLuPanel + 1;
constexpr std::size_t kTileRowBytes = kTileStride * sizeof(limb_t);
constexpr std::size_t kStaticSharedBytes = 1024;  // at least the kernel's own (592 bytes on sm_90)

class Panel {
public:
    // On a's rows r0 on and columns k0 .. k1 - 1, in `tile` (shared memory) where it is not null.
    // Where swap_whole is false, row swaps stay inside the panel.
    __device__ Panel(const MatricesView& a, const Modulus& p, std::size_t r0, std::size_t k0, std::size_t k1, limb_t* tile,
                     bool swap_whole)
        : e_(a.data), m_(a.rows), n_(a.cols), swap_whole_(swap_whole), stride_(a.row_stride), r0_(r0), k0_(k0), k1_(k1), p_(p),
          cells_(tile ? tile : a.data + r0 * a.row_stride + k0), cell_stride_(tile ? kTileStride : a.row_stride), tile_(tile)
    {
    }

    __device__ limb_t& at(std::size_t i, std::size_t j) const { return e_[i * stride_ + j]; }
    // Entry (i, j) of the panel: i >= r0, k0 <= j < k1.
    __device__ limb_t& cell(std::size_t i, std::size_t j) const { return cells_[(i - r0_) * cell_stride_ + (j - k0_)]; }

    // Copies the panel into the tile, or back; ends with a barrier.
    __device__ void load() const { copy(true); }
    __device__ void store() const { copy(false); }

    // The first row from r down with a nonzero entry in column c, or m; all threads get it.
    __device__ std::size_t pivot_row(std::size_t r, std::size_t c, unsigned long long* shared) const
    {
        if (threadIdx.x == 0) *shared = m_;
        __syncthreads();
        for (std::size_t i = r + threadIdx.x; i < m_; i += kThreads)
            if (cell(i, c) != 0) {
                atomicMin(shared, static_cast<unsigned long long>(i));
                break;  // this thread's rows only grow
            }
        __syncthreads();
        return std::size_t(*shared);
    }

    // Rows r and s: the panel's part, and the rest of them in a (where the panel swaps them
    // whole: the multipliers left of the panel go with their rows, for the blocked LU's later
    // updates).
    __device__ void swap_rows(std::size_t r, std::size_t s) const
    {
        const auto swap = [](limb_t& x, limb_t& y) {
            const limb_t t = x;
            x = y;
            y = t;
        };
        for (std::size_t j = k0_ + threadIdx.x; j < k1_; j += kThreads) swap(cell(r, j), cell(s, j));
        if (!swap_whole_) return;
        for (std::size_t j = threadIdx.x; j < n_ - (k1_ - k0_); j += kThreads) {
            const std::size_t column = j < k0_ ? j : j + (k1_ - k0_);
            swap(at(r, column), at(s, column));
        }
    }

    // The panel's entries right of column c, below row r: x <- d x - m u (d the pivot, m the
    // row's entry in column c, u the pivot row's). The threads split into groups of one a column,
    // each group down a share of the rows. The first row left nonzero in column c + 1 goes to
    // *next.
    __device__ void eliminate(std::size_t r, std::size_t c, limb_t d, unsigned long long* next) const
    {
        const unsigned columns = unsigned(k1_ - c - 1), groups = columns ? kThreads / columns : 0;
        if (threadIdx.x >= groups * columns) return;
        const std::size_t j = c + 1 + threadIdx.x % columns;
        const EliminationStep step(p_, d, cell(r, j));
        bool found = false;
        for (std::size_t i0 = r + 1 + threadIdx.x / columns; i0 < m_; i0 += kBatch * groups) {
            limb_t x[kBatch], m[kBatch];
#pragma unroll
            for (unsigned b = 0; b < kBatch; ++b) {
                const std::size_t i = i0 + b * groups;
                if (i < m_) x[b] = cell(i, j), m[b] = cell(i, c);
            }
#pragma unroll
            for (unsigned b = 0; b < kBatch; ++b) {
                const std::size_t i = i0 + b * groups;
                if (i >= m_) break;
                const limb_t y = step(x[b], m[b]);
                cell(i, j) = y;
                if (j == c + 1 && y != 0 && !found) {
                    atomicMin(next, static_cast<unsigned long long>(i));
                    found = true;  // this thread's later rows are further down
                }
            }
        }
    }

    // Rows r0 on: the panel's columns in the order `order` gives (the q pivot columns first),
    // the multipliers of pivot t (rows below r0 + t) times inverse[t], and pivot row t's own
    // entries (U's) times row_scale[t], which undoes the scaling of the elimination.
    __device__ void finish_rows(unsigned q, const std::uint32_t* order, const limb_t* inverse, const limb_t* row_scale) const
    {
        const std::size_t width = k1_ - k0_;
        for (std::size_t i = r0_ + threadIdx.x; i < m_; i += kThreads) {
            limb_t row[kLuPanel];
#pragma unroll
            for (unsigned t = 0; t < kLuPanel; ++t)
                if (t < width) row[t] = cell(i, k0_ + t);
            const std::size_t pivot_row = i - r0_;  // where below q, row i is pivot row pivot_row
#pragma unroll
            for (unsigned t = 0; t < kLuPanel; ++t) {
                if (t >= width) break;
                const limb_t x = row[order[t]];
                cell(i, k0_ + t) = t < pivot_row ? (t < q ? p_.mul(x, inverse[t]) : x)
                                   : pivot_row < q ? p_.mul(x, row_scale[pivot_row]) : x;
            }
        }
    }

private:
    __device__ void copy(bool in) const
    {
        if (tile_) {  // below 2^32 entries: 32-bit divisions, not 64-bit ones
            const unsigned width = unsigned(k1_ - k0_), entries = unsigned(m_ - r0_) * width;
            for (unsigned e = threadIdx.x; e < entries; e += kThreads) {
                const std::size_t i = r0_ + e / width, j = k0_ + e % width;
                if (in) cell(i, j) = at(i, j);
                else at(i, j) = cell(i, j);
            }
        }
        __syncthreads();
    }

    limb_t* e_;
    std::size_t m_, n_;
    bool swap_whole_;
    std::size_t stride_, r0_, k0_, k1_;
    Modulus p_;
    limb_t* cells_;
    std::size_t cell_stride_;
    limb_t* tile_;
};

// Thread 0's end of a panel: inverse[t] = 1 / pivot[t] for t < q by one inversion (Montgomery's
// trick), and the determinant times the true pivots: pivot t was found on a row scaled by the
// product of the pivots before it. row_scale[t] is the inverse of that product (pivot row t's
// true entries are its entries times it); where true_inverse is not null, true_inverse[t] is the
// inverse of the true pivot.
__device__ limb_t invert_pivots(const Modulus& p, const limb_t* pivot, unsigned q, limb_t* inverse, limb_t det, limb_t* row_scale,
                                limb_t* true_inverse)
{
    limb_t prefix[kLuPanel + 1];
    prefix[0] = 1 % p.n;
    for (unsigned t = 0; t < q; ++t) prefix[t + 1] = p.mul(prefix[t], pivot[t]);
    limb_t inverse_prefix = inverse_mod(p, prefix[q]);  // 1 / (pivot[0] ... pivot[t]) for t = q - 1 down
    for (unsigned t = q; t-- > 0;) {
        inverse[t] = p.mul(inverse_prefix, prefix[t]);
        inverse_prefix = p.mul(inverse_prefix, pivot[t]);  // now 1 / prefix[t]
        det = p.mul(det, p.mul(pivot[t], inverse_prefix));
        row_scale[t] = inverse_prefix;
        if (true_inverse) true_inverse[t] = p.mul(prefix[t], inverse[t]);
    }
    return det;
}

// The block's working data in shared memory, besides the tile.
struct PanelShared {
    unsigned long long next_pivot[2];  // column c's pivot row in slot c % 2
    limb_t pivot[kLuPanel], inverse[kLuPanel], row_scale[kLuPanel];
    std::uint32_t order[kLuPanel];     // the panel's pivot columns, then the others
    std::uint64_t swapped[kLuPanel];   // the row each pivot came from
};

// The block's elimination of `panel` (from row state->rank to the panel's last). A top part
// returns false where a column has no pivot in its rows, having written nothing outside shared
// memory: its row swaps reach the rest of the rows only at its end.
__device__ bool eliminate_panel(const MatricesView& a, const Panel& panel, std::size_t m, std::size_t k0, std::size_t width,
                                bool top_part, bool stop_without_pivot, LuState* state, LuPanelTop* top, PanelShared& shared)
{
    const Modulus p = state->p;
    const std::size_t r0 = state->rank, k1 = k0 + width;
    panel.load();
    std::size_t r = r0;
    unsigned q = 0;
    limb_t det = state->det;  // thread 0's
    bool searched = false;    // whether the last elimination found this column's pivot
    std::uint32_t pivot_columns = 0;
    for (std::size_t c = k0; c < k1 && r < m; ++c) {
        unsigned long long* slot = &shared.next_pivot[c & 1];
        const std::size_t s = searched ? std::size_t(*slot) : panel.pivot_row(r, c, slot);
        searched = false;
        if (s == m) {
            if (top_part) return false;
            if (stop_without_pivot) {
                if (threadIdx.x == 0) {
                    state->stopped = 1;
                    state->det = 0;
                }
                return true;
            }
            continue;
        }
        pivot_columns |= 1u << (c - k0);
        // Column c + 1's slot was column c - 1's, which every thread has read.
        if (threadIdx.x == 0) {
            shared.next_pivot[(c + 1) & 1] = m;
            shared.swapped[q] = s;
        }
        if (s != r) panel.swap_rows(r, s);
        __syncthreads();
        const limb_t d = panel.cell(r, c);
        if (threadIdx.x == 0) {
            shared.pivot[q] = d;
            if (s != r) det = p.neg(det);
        }
        panel.eliminate(r, c, d, &shared.next_pivot[(c + 1) & 1]);
        __syncthreads();
        searched = true;
        ++r;
        ++q;
    }
    if (threadIdx.x == 0) {
        unsigned next = 0;
        for (unsigned t = 0; t < width; ++t)
            if (pivot_columns >> t & 1) shared.order[next++] = t;
        for (unsigned t = 0; t < width; ++t)
            if (!(pivot_columns >> t & 1)) shared.order[next++] = t;
        det = invert_pivots(p, shared.pivot, q, shared.inverse, det, shared.row_scale, top_part ? top->inverse : nullptr);
        if (top_part) top->failed = 0;
        if (state->record)
            for (unsigned t = 0; t < q; ++t) state->record[r0 + t] = {shared.swapped[t], k0 + shared.order[t]};
    }
    __syncthreads();
    if (top_part) {
        // Every pivot was found: the swaps reach the rows outside the panel, in their order (a
        // thread a column), and the rows below get U's true rows.
        for (unsigned t = 0; t < q; ++t) {
            if (shared.swapped[t] == r0 + t) continue;
            limb_t* x = a.data + (r0 + t) * a.row_stride;
            limb_t* y = a.data + shared.swapped[t] * a.row_stride;
            for (std::size_t e = threadIdx.x; e < a.cols - width; e += kThreads) {
                const std::size_t j = e < k0 ? e : e + width;
                const limb_t v = x[j];
                x[j] = y[j];
                y[j] = v;
            }
        }
        for (unsigned e = threadIdx.x; e < q * q; e += kThreads)
            if (e % q > e / q) top->u[e / q][e % q] = p.mul(panel.cell(r0 + e / q, k0 + e % q), shared.row_scale[e / q]);
        __syncthreads();
    }
    panel.finish_rows(q, shared.order, shared.inverse, shared.row_scale);
    __syncthreads();
    panel.store();
    if (threadIdx.x == 0) {
        state->rank = r;
        state->pivots = q;
        state->det = det;
    }
    return true;
}

// One block's elimination of a panel: of its top part first (top_part), and of all its rows,
// in device memory, where that part lacks a pivot; or of all its rows.
__global__ void __launch_bounds__(kThreads)
    lu_panel_kernel(const MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, std::size_t tile_rows,
                    bool top_part, LuState* state, LuPanelTop* top)
{
    extern __shared__ limb_t tile[];
    __shared__ PanelShared shared;
    if (state->stopped) return;
    const Modulus p = state->p;
    const std::size_t r0 = state->rank, k1 = k0 + width;
    if (top_part) {
        MatricesView scope = a;
        if (r0 + kLuTopRows < a.rows) scope.rows = r0 + kLuTopRows;
        if (eliminate_panel(a, Panel(scope, p, r0, k0, k1, tile, false), scope.rows, k0, width, true, stop_without_pivot, state, top,
                            shared))
            return;
        if (threadIdx.x == 0) top->failed = 1;  // the rows below keep their entries
        __syncthreads();
        eliminate_panel(a, Panel(a, p, r0, k0, k1, nullptr, true), a.rows, k0, width, false, stop_without_pivot, state, top, shared);
        return;
    }
    eliminate_panel(a, Panel(a, p, r0, k0, k1, a.rows - r0 <= tile_rows ? tile : nullptr, true), a.rows, k0, width, false,
                    stop_without_pivot, state, top, shared);
}

// After a top part that found every pivot: each row below it turns its panel entries into
// multipliers, reducing them by U's rows in turn (l_t = x_t / u_tt, then x_j -= l_t u_tj for
// j > t). A row is kLuPanel lanes, one a column, which take l_t from lane t: one lane a row
// left each row a chain of 136 dependent products, and far too few threads to hide them.
__global__ void __launch_bounds__(kBelowThreads)
    lu_below_top_kernel(const MatricesView a, std::size_t k0, std::size_t width, const LuState* state, const LuPanelTop* top)
{
    __shared__ limb_t u[kLuPanel][kLuPanel], inverse[kLuPanel];
    if (state->stopped || top->failed) return;
    const Modulus p = state->p;
    for (unsigned e = threadIdx.x; e < width * width; e += kBelowThreads) {
        const unsigned t = e / unsigned(width), j = e % unsigned(width);
        if (j > t) u[t][j] = top->u[t][j];
        if (j == t) inverse[t] = top->inverse[t];
    }
    __syncthreads();
    const unsigned lane = threadIdx.x % kLuPanel;
    const std::size_t i = state->rank - width + kLuTopRows + (std::size_t(blockIdx.x) * kBelowThreads + threadIdx.x) / kLuPanel;
    const bool mine = i < a.rows && lane < width;  // every lane takes part in the shuffles
    limb_t* entry = a.data + i * a.row_stride + k0 + lane;
    limb_t x = mine ? *entry : 0;
    for (unsigned t = 0; t < width; ++t) {
        const limb_t l = p.mul(__shfl_sync(0xffffffffu, x, int(t), int(kLuPanel)), inverse[t]);
        if (lane == t) x = l;
        else if (lane > t) x = p.sub(x, p.mul(l, u[t][lane]));
    }
    if (mine) *entry = x;
}

// A panel's pivot rows r0 .. r0 + q - 1; q = kRowsOfLastPanel stands for the last panel's, which
// only the state knows (the rank's pivot counts are found on the device).
constexpr std::size_t kRowsOfLastPanel = ~std::size_t(0);
struct PivotRows {
    std::size_t r0, q;
};

// The pivot rows become U's rows in columns [begin, end): row r0 + t loses the sum over s < t of
// m(r0 + t, k0 + s) times U's row r0 + s. A thread a column, over the whole GPU; the block first
// reads the multipliers into shared memory, and each thread its column's q entries at once, so
// that the substitution waits for memory once, not once a row.
__global__ void __launch_bounds__(kSubstitutionThreads)
    lu_forward_substitution_kernel(const MatricesView a, std::size_t k0, PivotRows rows, std::size_t begin, std::size_t end,
                                   const LuState* state)
{
    __shared__ limb_t multiplier[kLuPanel][kLuPanel];
    if (state->stopped) return;
    const Modulus p = state->p;
    const bool last = rows.q == kRowsOfLastPanel;
    const unsigned q = unsigned(last ? state->pivots : rows.q);
    const std::size_t r0 = last ? state->rank - q : rows.r0;
    const auto at = [&](std::size_t i, std::size_t c) -> limb_t& { return a.data[i * a.row_stride + c]; };
    for (unsigned e = threadIdx.x; e < q * q; e += kSubstitutionThreads)
        if (e % q < e / q) multiplier[e / q][e % q] = at(r0 + e / q, k0 + e % q);
    __syncthreads();
    const std::size_t j = begin + std::size_t(blockIdx.x) * kSubstitutionThreads + threadIdx.x;
    if (j >= end) return;
    limb_t u[kLuPanel];
#pragma unroll
    for (unsigned t = 0; t < kLuPanel; ++t)
        if (t < q) u[t] = at(r0 + t, j);
#pragma unroll
    for (unsigned t = 1; t < kLuPanel; ++t) {
        if (t >= q) break;
        DigitSum s;
#pragma unroll
        for (unsigned k = 0; k < t; ++k) s.add_product(multiplier[t][k], u[k]);
        u[t] = p.sub(u[t], p.reduce(s.words()));
    }
#pragma unroll
    for (unsigned t = 1; t < kLuPanel; ++t)
        if (t < q) at(r0 + t, j) = u[t];
}

// Launches the substitution over columns [begin, end), if any.
void substitute(MatricesView a, std::size_t k0, PivotRows rows, std::size_t begin, std::size_t end, const LuState* state,
                cudaStream_t stream)
{
    if (begin >= end) return;
    const std::size_t blocks = (end - begin + kSubstitutionThreads - 1) / kSubstitutionThreads;
    lu_forward_substitution_kernel<<<unsigned(blocks), kSubstitutionThreads, 0, stream>>>(a, k0, rows, begin, end, state);
    check_launch("lu_panel_mod: forward substitution");
}

}  // namespace

std::size_t lu_panel_prepare()
{
    int device = 0, optin = 0;
    check(cudaGetDevice(&device), "lu_panel_mod: the current device");
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "lu_panel_mod: shared memory");
    if (std::size_t(optin) <= kStaticSharedBytes) return 0;
    const std::size_t rows = (std::size_t(optin) - kStaticSharedBytes) / kTileRowBytes;
    check(cudaFuncSetAttribute(lu_panel_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(rows * kTileRowBytes)),
          "lu_panel_mod: shared memory");
    return rows;
}

void lu_panel_mod(MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, std::size_t rows_from_r0,
                  std::size_t tile_rows_limit, std::size_t update_end, LuState* state, LuPanelTop* top, cudaStream_t stream)
{
    const bool top_part = rows_from_r0 > kLuTopRows && kLuTopRows <= tile_rows_limit;
    const std::size_t tile_rows = top_part ? kLuTopRows : rows_from_r0 <= tile_rows_limit ? rows_from_r0 : 0;
    lu_panel_kernel<<<1, kThreads, tile_rows * kTileRowBytes, stream>>>(a, k0, width, stop_without_pivot, tile_rows, top_part, state, top);
    check_launch("lu_panel_mod");
    if (top_part) {
        const std::size_t lanes = (rows_from_r0 - kLuTopRows) * kLuPanel;
        lu_below_top_kernel<<<unsigned((lanes + kBelowThreads - 1) / kBelowThreads), kBelowThreads, 0, stream>>>(a, k0, width, state, top);
        check_launch("lu_panel_mod: rows below the top");
    }
    substitute(a, k0, {0, kRowsOfLastPanel}, k0 + width, update_end, state, stream);
}

void lu_substitute_mod(MatricesView a, std::size_t r0, std::size_t q, std::size_t k0, std::size_t begin, std::size_t end,
                       const LuState* state, cudaStream_t stream)
{
    if (q > 1) substitute(a, k0, {r0, q}, begin, end, state, stream);
}

LuTrailingUpdate lu_trailing_update(MatricesView a, std::size_t r0, std::size_t pivots, std::size_t k0, std::size_t k1)
{
    const std::size_t below = r0 + pivots;
    return {a.block(below, k0, a.rows - below, pivots), a.block(r0, k1, pivots, a.cols - k1), a.block(below, k1, a.rows - below, a.cols - k1)};
}

}  // namespace zgpu::kernels
