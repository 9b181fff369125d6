// One panel of a blocked LU mod p (contract: lu_panel_mod.hpp), on one block of threads.
//
// A panel is narrow (kLuPanel columns) and tall (every row from r0 down), so one block takes it:
// a column costs four synchronisations (pivot search, swap and inverse, multipliers,
// elimination) and (m - r) (k1 - c) products mod p. The forward substitution that turns the
// pivot rows into U's rows needs no synchronisation: each thread owns columns right of the panel
// and keeps its column's new U entries in registers, summing each row's products exactly in
// 32-bit digits (DigitSum) and reducing once.
//
// Cost a panel: (m - r0) kLuPanel^2 / 2 products mod p in the block, and (n - k1) kLuPanel^2 / 2
// digit products; the trailing update (n^3 / 3 multiply-adds over the whole LU) runs on the
// whole GPU in mat_submul_mod.
#include "kernels/matrix/lu_panel_mod.hpp"

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kRowsAtOnce = kThreads / kLuPanel;  // rows of the elimination a pass

class Panel {
public:
    __device__ Panel(const MatricesView& a, const Modulus& p) : e_(a.data), m_(a.rows), n_(a.cols), stride_(a.row_stride), p_(p) {}

    __device__ limb_t& at(std::size_t i, std::size_t j) const { return e_[i * stride_ + j]; }

    // The first row from r down with a nonzero entry in column c, or m; all threads get it.
    __device__ std::size_t pivot_row(std::size_t r, std::size_t c, unsigned long long* shared) const
    {
        if (threadIdx.x == 0) *shared = m_;
        __syncthreads();
        for (std::size_t i = r + threadIdx.x; i < m_; i += kThreads)
            if (at(i, c) != 0) {
                atomicMin(shared, static_cast<unsigned long long>(i));
                break;  // this thread's rows only grow
            }
        __syncthreads();
        return std::size_t(*shared);
    }

    // Rows r and s from column k0 on; thread 0 takes column c first (it has read the pivot there).
    __device__ void swap_rows(std::size_t r, std::size_t s, std::size_t k0, std::size_t c) const
    {
        const auto swap = [&](std::size_t j) {
            const limb_t t = at(r, j);
            at(r, j) = at(s, j);
            at(s, j) = t;
        };
        for (std::size_t j = c + threadIdx.x; j < n_; j += kThreads) swap(j);
        for (std::size_t j = k0 + threadIdx.x; j < c; j += kThreads) swap(j);
    }

    // Entries below row r in column c become multipliers.
    __device__ void multipliers(std::size_t r, std::size_t c, limb_t inverse) const
    {
        for (std::size_t i = r + 1 + threadIdx.x; i < m_; i += kThreads) at(i, c) = p_.mul(at(i, c), inverse);
    }

    // The panel's entries right of column c, below row r, lose their multiple of row r: kLuPanel
    // threads a row, along it.
    __device__ void eliminate(std::size_t r, std::size_t c, std::size_t k1) const
    {
        const std::size_t j = c + 1 + threadIdx.x % kLuPanel;
        if (j >= k1) return;
        const limb_t u = at(r, j);
        for (std::size_t i = r + 1 + threadIdx.x / kLuPanel; i < m_; i += kRowsAtOnce) at(i, j) = p_.sub(at(i, j), p_.mul(at(i, c), u));
    }

    // Rows r0 on: the panel's columns in the order `order` gives (pivot columns first).
    __device__ void reorder_columns(std::size_t r0, std::size_t k0, std::size_t width, const std::uint32_t* order) const
    {
        for (std::size_t i = r0 + threadIdx.x; i < m_; i += kThreads) {
            limb_t row[kLuPanel];
            for (std::size_t t = 0; t < width; ++t) row[t] = at(i, k0 + order[t]);
            for (std::size_t t = 0; t < width; ++t) at(i, k0 + t) = row[t];
        }
    }

    // Rows r0 .. r0 + q - 1 from column k1 on: row r0 + t loses sum over s < t of m(r0 + t, k0 + s)
    // times U's row r0 + s, a thread a column.
    __device__ void forward_substitution(std::size_t r0, unsigned q, std::size_t k0, std::size_t k1) const
    {
        for (std::size_t j = k1 + threadIdx.x; j < n_; j += kThreads) {
            limb_t u[kLuPanel];
#pragma unroll
            for (unsigned t = 0; t < kLuPanel; ++t) {
                if (t >= q) break;
                DigitSum s;
#pragma unroll
                for (unsigned k = 0; k < t; ++k) s.add_product(at(r0 + t, k0 + k), u[k]);
                u[t] = p_.sub(at(r0 + t, j), p_.reduce(s.words()));
                at(r0 + t, j) = u[t];
            }
        }
    }

private:
    limb_t* e_;
    std::size_t m_, n_, stride_;
    Modulus p_;
};

__global__ void __launch_bounds__(kThreads)
    lu_panel_kernel(const MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, LuState* state)
{
    __shared__ unsigned long long pivot;
    __shared__ limb_t inverse;
    __shared__ std::uint32_t order[kLuPanel];  // the panel's pivot columns, then the others
    if (state->stopped) return;
    const Modulus p = state->p;
    const Panel panel(a, p);
    const std::size_t r0 = state->rank, k1 = k0 + width;
    std::size_t r = r0;
    unsigned q = 0;
    limb_t det = state->det;  // thread 0's
    bool pivot_column[kLuPanel] = {};
    for (std::size_t c = k0; c < k1 && r < a.rows; ++c) {
        const std::size_t s = panel.pivot_row(r, c, &pivot);
        if (s == a.rows) {
            if (stop_without_pivot) {
                if (threadIdx.x == 0) {
                    state->stopped = 1;
                    state->det = 0;
                }
                return;
            }
            __syncthreads();  // every thread has read `pivot` before the next column resets it
            continue;
        }
        pivot_column[c - k0] = true;
        if (threadIdx.x == 0) {
            const limb_t v = panel.at(s, c);  // before this thread swaps column c
            det = p.mul(s == r ? det : p.neg(det), v);
            inverse = inverse_mod(p, v);
        }
        if (s != r) panel.swap_rows(r, s, k0, c);
        __syncthreads();
        panel.multipliers(r, c, inverse);
        __syncthreads();
        panel.eliminate(r, c, k1);
        __syncthreads();
        ++r;
        ++q;
    }
    if (q < width) {
        if (threadIdx.x == 0) {
            unsigned next = 0;
            for (unsigned t = 0; t < width; ++t)
                if (pivot_column[t]) order[next++] = t;
            for (unsigned t = 0; t < width; ++t)
                if (!pivot_column[t]) order[next++] = t;
        }
        __syncthreads();
        panel.reorder_columns(r0, k0, width, order);
        __syncthreads();
    }
    panel.forward_substitution(r0, q, k0, k1);
    if (threadIdx.x == 0) {
        state->rank = r;
        state->pivots = q;
        state->det = det;
    }
}

}  // namespace

void lu_panel_mod(MatricesView a, std::size_t k0, std::size_t width, bool stop_without_pivot, LuState* state, cudaStream_t stream)
{
    lu_panel_kernel<<<1, kThreads, 0, stream>>>(a, k0, width, stop_without_pivot, state);
    check_launch("lu_panel_mod");
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
