// One panel of a blocked LU mod p (contract: lu_panel_mod.hpp), on one block of threads.
//
// A panel is narrow (kLuPanel columns) and tall (every row from r0 down), so one block takes it,
// and its cost is latency: a column is two synchronisations and one pass over the rows below.
//   - No inverse a column: the rows below lose their multiple of the pivot row without division
//     (x <- d x - m u for the pivot d, the row's entry m in the pivot column and the pivot row's
//     u), which scales every row below by d. The panel's pivots are inverted together at its end
//     (one inversion, 3 q products), and the multipliers m / d then take their place: each row's
//     scale cancels, as row and pivot carry the same product of earlier pivots.
//   - The pass that eliminates column c also finds column c + 1's pivot (its first nonzero).
//   - Each thread loads kBatch rows before it computes on them, so that their loads overlap, and
//     multiplies by the column's pivot and the pivot row's entry by Shoup's products (primes
//     below 2^62), with no division.
// The forward substitution that turns the pivot rows into U's rows is a kernel of its own over the
// whole GPU: each thread owns a column right of the panel and keeps its new U entries in
// registers, summing each row's products exactly in 32-bit digits (DigitSum) and reducing once.
//
// Cost a panel: (m - r0) kLuPanel^2 products mod p in the block, and (n - k1) kLuPanel^2 / 2
// digit products; the trailing update (n^3 / 3 multiply-adds over the whole LU) runs on the
// whole GPU in mat_submul_mod.
#include "kernels/matrix/lu_panel_mod.hpp"

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"
#include "kernels/modular/shoup_product.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kBatch = 8;                         // rows a thread loads before it computes
constexpr unsigned kSubstitutionThreads = 128;

// The panel's rows r0 .. m - 1 in shared memory, a row kTileStride words (distinct banks for a
// column's entries), where they fit in what the device lets a block opt in to (227 KiB on sm_90:
// 1700 rows), less the kernel's own static shared memory.
constexpr std::size_t kTileStride = kLuPanel + 1;
constexpr std::size_t kTileRowBytes = kTileStride * sizeof(limb_t);
constexpr std::size_t kStaticSharedBytes = 1024;  // at least the kernel's own (336 bytes on sm_90)

class Panel {
public:
    // On a's rows r0 on and columns k0 .. k1 - 1, in `tile` (shared memory) where it is not null.
    __device__ Panel(const MatricesView& a, const Modulus& p, std::size_t r0, std::size_t k0, std::size_t k1, limb_t* tile)
        : e_(a.data), m_(a.rows), n_(a.cols), stride_(a.row_stride), r0_(r0), k0_(k0), k1_(k1), p_(p),
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

    // Rows r and s from column k0 on: the panel's part, and the columns right of it in a.
    __device__ void swap_rows(std::size_t r, std::size_t s) const
    {
        const auto swap = [](limb_t& x, limb_t& y) {
            const limb_t t = x;
            x = y;
            y = t;
        };
        for (std::size_t j = k0_ + threadIdx.x; j < k1_; j += kThreads) swap(cell(r, j), cell(s, j));
        for (std::size_t j = k1_ + threadIdx.x; j < n_; j += kThreads) swap(at(r, j), at(s, j));
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
        const limb_t minus_u = p_.neg(cell(r, j));
        const bool shoup = p_.n < kShoupPrimeBound;
        const limb_t d_shoup = shoup ? shoup_companion(p_, d) : 0, minus_u_shoup = shoup ? shoup_companion(p_, minus_u) : 0;
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
                const limb_t y = shoup ? reduce_below_4p(mul_shoup_lazy(x[b], d, d_shoup, p_.n) + mul_shoup_lazy(m[b], minus_u, minus_u_shoup, p_.n), p_.n)
                                       : p_.add(p_.mul(d, x[b]), p_.mul(m[b], minus_u));
                cell(i, j) = y;
                if (j == c + 1 && y != 0 && !found) {
                    atomicMin(next, static_cast<unsigned long long>(i));
                    found = true;  // this thread's later rows are further down
                }
            }
        }
    }

    // Rows r0 on: the panel's columns in the order `order` gives (the q pivot columns first),
    // the multipliers of pivot t (rows below r0 + t) times inverse[t].
    __device__ void finish_multipliers(unsigned q, const std::uint32_t* order, const limb_t* inverse) const
    {
        const std::size_t width = k1_ - k0_;
        for (std::size_t i = r0_ + threadIdx.x; i < m_; i += kThreads) {
            limb_t row[kLuPanel];
#pragma unroll
            for (unsigned t = 0; t < kLuPanel; ++t)
                if (t < width) row[t] = cell(i, k0_ + t);
#pragma unroll
            for (unsigned t = 0; t < kLuPanel; ++t) {
                if (t >= width) break;
                const limb_t x = row[order[t]];
                cell(i, k0_ + t) = t < q && i > r0_ + t ? p_.mul(x, inverse[t]) : x;
            }
        }
    }

private:
    __device__ void copy(bool in) const
    {
        if (tile_) {
            const std::size_t width = k1_ - k0_;
            for (std::size_t e = threadIdx.x; e < (m_ - r0_) * width; e += kThreads) {
                const std::size_t i = r0_ + e / width, j = k0_ + e % width;
                if (in) cell(i, j) = at(i, j);
                else at(i, j) = cell(i, j);
            }
        }
        __syncthreads();
    }

    limb_t* e_;
    std::size_t m_, n_, stride_, r0_, k0_, k1_;
    Modulus p_;
    limb_t* cells_;
    std::size_t cell_stride_;
    limb_t* tile_;
};

// Thread 0's end of a panel: inverse[t] = 1 / pivot[t] for t < q by one inversion (Montgomery's
// trick), and the determinant times the true pivots: pivot t was found on a row scaled by the
// product of the pivots before it.
__device__ limb_t invert_pivots(const Modulus& p, const limb_t* pivot, unsigned q, limb_t* inverse, limb_t det)
{
    limb_t prefix[kLuPanel + 1];
    prefix[0] = 1 % p.n;
    for (unsigned t = 0; t < q; ++t) prefix[t + 1] = p.mul(prefix[t], pivot[t]);
    limb_t inverse_prefix = inverse_mod(p, prefix[q]);  // 1 / (pivot[0] ... pivot[t]) for t = q - 1 down
    for (unsigned t = q; t-- > 0;) {
        inverse[t] = p.mul(inverse_prefix, prefix[t]);
        inverse_prefix = p.mul(inverse_prefix, pivot[t]);  // now 1 / prefix[t]
        det = p.mul(det, p.mul(pivot[t], inverse_prefix));
    }
    return det;
}

__global__ void __launch_bounds__(kThreads)
    lu_panel_kernel(const MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, std::size_t tile_rows,
                    LuState* state)
{
    extern __shared__ limb_t tile[];
    __shared__ unsigned long long next_pivot[2];  // column c's pivot row in slot c % 2
    __shared__ limb_t pivot[kLuPanel], inverse[kLuPanel];
    __shared__ std::uint32_t order[kLuPanel];  // the panel's pivot columns, then the others
    if (state->stopped) return;
    const Modulus p = state->p;
    const std::size_t m = a.rows, r0 = state->rank, k1 = k0 + width;
    const Panel panel(a, p, r0, k0, k1, m - r0 <= tile_rows ? tile : nullptr);
    panel.load();
    std::size_t r = r0;
    unsigned q = 0;
    limb_t det = state->det;  // thread 0's
    bool searched = false;    // whether the last elimination found this column's pivot
    std::uint32_t pivot_columns = 0;
    for (std::size_t c = k0; c < k1 && r < m; ++c) {
        unsigned long long* slot = &next_pivot[c & 1];
        const std::size_t s = searched ? std::size_t(*slot) : panel.pivot_row(r, c, slot);
        searched = false;
        if (s == m) {
            if (stop_without_pivot) {
                if (threadIdx.x == 0) {
                    state->stopped = 1;
                    state->det = 0;
                }
                return;
            }
            continue;
        }
        pivot_columns |= 1u << (c - k0);
        // Column c + 1's slot was column c - 1's, which every thread has read.
        if (threadIdx.x == 0) next_pivot[(c + 1) & 1] = m;
        if (s != r) panel.swap_rows(r, s);
        __syncthreads();
        const limb_t d = panel.cell(r, c);
        if (threadIdx.x == 0) {
            pivot[q] = d;
            if (s != r) det = p.neg(det);
        }
        panel.eliminate(r, c, d, &next_pivot[(c + 1) & 1]);
        __syncthreads();
        searched = true;
        ++r;
        ++q;
    }
    if (threadIdx.x == 0) {
        unsigned next = 0;
        for (unsigned t = 0; t < width; ++t)
            if (pivot_columns >> t & 1) order[next++] = t;
        for (unsigned t = 0; t < width; ++t)
            if (!(pivot_columns >> t & 1)) order[next++] = t;
        det = invert_pivots(p, pivot, q, inverse, det);
    }
    __syncthreads();
    panel.finish_multipliers(q, order, inverse);
    __syncthreads();
    panel.store();
    if (threadIdx.x == 0) {
        state->rank = r;
        state->pivots = q;
        state->det = det;
    }
}

// Rows r0 .. r0 + q - 1 from column k1 on become U's rows: row r0 + t loses the sum over s < t of
// m(r0 + t, k0 + s) times U's row r0 + s. A thread a column, over the whole GPU; the block first
// reads the multipliers into shared memory, and each thread its column's q entries at once, so
// that the substitution waits for memory once, not once a row.
__global__ void __launch_bounds__(kSubstitutionThreads)
    lu_forward_substitution_kernel(const MatricesView a, std::size_t k0, std::size_t k1, const LuState* state)
{
    __shared__ limb_t multiplier[kLuPanel][kLuPanel];
    if (state->stopped) return;
    const Modulus p = state->p;
    const unsigned q = unsigned(state->pivots);
    const std::size_t r0 = state->rank - q;
    const auto at = [&](std::size_t i, std::size_t c) -> limb_t& { return a.data[i * a.row_stride + c]; };
    for (unsigned e = threadIdx.x; e < q * q; e += kSubstitutionThreads)
        if (e % q < e / q) multiplier[e / q][e % q] = at(r0 + e / q, k0 + e % q);
    __syncthreads();
    const std::size_t j = k1 + std::size_t(blockIdx.x) * kSubstitutionThreads + threadIdx.x;
    if (j >= a.cols) return;
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
                  std::size_t tile_rows_limit, LuState* state, cudaStream_t stream)
{
    const std::size_t tile_rows = rows_from_r0 <= tile_rows_limit ? rows_from_r0 : 0;
    const std::size_t tile_bytes = tile_rows * kTileRowBytes;
    lu_panel_kernel<<<1, kThreads, tile_bytes, stream>>>(a, k0, width, stop_without_pivot, tile_rows, state);
    check_launch("lu_panel_mod");
    const std::size_t k1 = k0 + width;
    if (k1 == a.cols) return;
    const std::size_t blocks = (a.cols - k1 + kSubstitutionThreads - 1) / kSubstitutionThreads;
    lu_forward_substitution_kernel<<<unsigned(blocks), kSubstitutionThreads, 0, stream>>>(a, k0, k1, state);
    check_launch("lu_panel_mod: forward substitution");
}

LuTrailingUpdate lu_trailing_update(MatricesView a, std::size_t r0, std::size_t pivots, std::size_t k0, std::size_t k1)
{
    const std::size_t below = r0 + pivots, stride = a.row_stride;
    const auto block = [&](std::size_t row, std::size_t col, std::size_t rows, std::size_t cols) {
        return MatricesView{a.data + row * stride + col, rows, cols, stride, 0, 1};
    };
    return {block(below, k0, a.rows - below, pivots), block(r0, k1, pivots, a.cols - k1), block(below, k1, a.rows - below, a.cols - k1)};
}

}  // namespace zgpu::kernels
