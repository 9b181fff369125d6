// The kernels of inverse_mod.hpp. invert_small_mod keeps [a | I] in shared memory, one block a
// matrix, and eliminates without division (row_i <- d row_i - a_ic row_r): each column costs one
// barrier and no inverse; the rows' diagonal entries are inverted together at the end.
#include "kernels/matrix/inverse_mod.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"
#include "kernels/modular/shoup_product.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 256, kWarps = kThreads / 32, kRowsAWarp = kSmallInverse / kWarps;
// Words a row of [a | I] takes in shared memory: odd, so that a column's words fall in
// different banks.
constexpr unsigned kRowWords = 2 * kSmallInverse + 1;
static_assert(kSmallInverse <= 32, "a warp's ballot finds the pivot among the rows");

struct WarpInverses {
    limb_t inverse;  // lane l's x^-1
    limb_t product;  // of every lane's x
};

// Lane l's x^-1 for a nonzero x from every lane, by Montgomery's trick: the product's one
// inverse times the products of the other lanes' x (prefix and suffix products by shuffles).
__device__ WarpInverses warp_inverses(const Modulus& p, limb_t x, unsigned lane)
{
    limb_t prefix = x, suffix = x;
    for (unsigned d = 1; d < 32; d <<= 1) {
        const limb_t below = __shfl_up_sync(~0u, prefix, d), above = __shfl_down_sync(~0u, suffix, d);
        if (lane >= d) prefix = p.mul(prefix, below);
        if (lane + d < 32) suffix = p.mul(suffix, above);
    }
    const limb_t product = __shfl_sync(~0u, prefix, 31);
    limb_t product_inverse = lane == 0 ? inverse_mod(p, product) : 0;
    product_inverse = __shfl_sync(~0u, product_inverse, 0);
    const limb_t before = __shfl_up_sync(~0u, prefix, 1), after = __shfl_down_sync(~0u, suffix, 1);
    const limb_t others = p.mul(lane > 0 ? before : 1, lane < 31 ? after : 1);
    return {p.mul(product_inverse, others), product};
}

// Warp w owns rows w, w + 8, w + 16, w + 24 (it alone writes them); lane l columns l and l + 32.
// Column c's pivot is the first unused row with a nonzero entry there; every warp finds it by a
// ballot over a copy of the column that the step before wrote (so that no warp reads a row
// another warp is writing). The step multiplies every other row by the pivot d and subtracts
// a_ic times the pivot row.
//
// Where step k's pivot d_k sits in row r_k, that row ends as D_rk = d_k d_(k+1) ... d_(n-1) in
// column k (later steps only multiply it), every other entry of its left half 0. So the inverse's
// row k is row r_k's right half over D_rk, and as each step multiplies the determinant by
// d_k^(n-1): det a = sign prod_i D_i / (d_0 ... d_(n-1))^(n-1) = sign prod_i D_i / D_r0^(n-1), the
// sign that of k -> r_k.
__global__ void __launch_bounds__(kThreads) invert_small_kernel(MatricesView a, const Modulus* moduli, limb_t* det)
{
    __shared__ limb_t aug[kSmallInverse][kRowWords];
    __shared__ limb_t column[2][kSmallInverse];  // column c of every row, for step c's ballot
    __shared__ limb_t inverses[kSmallInverse];   // of the rows' D_i
    __shared__ unsigned column_of[kSmallInverse];
    const Modulus p = moduli[blockIdx.x];
    limb_t* m = a.matrix(blockIdx.x);
    const unsigned n = unsigned(a.rows), width = 2 * n, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (unsigned e = threadIdx.x; e < n * width; e += kThreads) {
        const unsigned i = e / width, j = e % width;
        aug[i][j] = j < n ? m[i * a.row_stride + j] : limb_t(j - n == i);
        if (j == 0) column[0][i] = aug[i][0];
    }
    __syncthreads();
    unsigned used = 0, inversions = 0, first_pivot_row = 0;  // the same in every thread
    for (unsigned c = 0; c < n; ++c) {
        const unsigned candidates = __ballot_sync(~0u, lane < n && !(used >> lane & 1) && column[c & 1][lane] != 0);
        if (candidates == 0) {
            if (threadIdx.x == 0) det[blockIdx.x] = 0;
            return;
        }
        const unsigned r = __ffs(candidates) - 1;
        inversions += __popc(~used & ((1u << r) - 1));
        used |= 1u << r;
        if (c == 0) first_pivot_row = r;
        if (threadIdx.x == 0) column_of[r] = c;
        // All of the warp's rows loaded, then updated, then stored: eight independent products
        // in flight a thread, where one row after another left each waiting on the last.
        const limb_t d = aug[r][c];
        const bool has_low = lane < width, has_high = lane + 32 < width;  // columns of [a | I]
        const EliminationStep low_step(p, d, has_low ? aug[r][lane] : 0), high_step(p, d, has_high ? aug[r][lane + 32] : 0);
        limb_t low[kRowsAWarp], high[kRowsAWarp];
#pragma unroll
        for (unsigned k = 0; k < kRowsAWarp; ++k) {
            const unsigned i = warp + kWarps * k;
            if (i < n && i != r) {
                const limb_t factor = aug[i][c];
                low[k] = low_step(has_low ? aug[i][lane] : 0, factor);
                high[k] = high_step(has_high ? aug[i][lane + 32] : 0, factor);
            }
        }
        __syncwarp();  // every lane has read its rows' column c before any is written
#pragma unroll
        for (unsigned k = 0; k < kRowsAWarp; ++k) {
            const unsigned i = warp + kWarps * k;
            if (i >= n) continue;
            if (i != r) {
                if (has_low) aug[i][lane] = low[k];
                if (has_high) aug[i][lane + 32] = high[k];
            }
            if (lane == c + 1) column[(c + 1) & 1][i] = aug[i][lane];
        }
        __syncthreads();
    }
    if (warp == 0) {
        const limb_t diagonal = lane < n ? aug[lane][column_of[lane]] : 1;
        const WarpInverses w = warp_inverses(p, diagonal, lane);
        if (lane < n) inverses[lane] = w.inverse;
        const limb_t first_inverse = __shfl_sync(~0u, w.inverse, first_pivot_row);
        if (lane == 0) {
            limb_t value = p.mul(w.product, pow_mod(p, first_inverse, n - 1));
            if (inversions & 1) value = p.neg(value);
            det[blockIdx.x] = p.mul(det[blockIdx.x], value);
        }
    }
    __syncthreads();
    for (unsigned e = threadIdx.x; e < n * n; e += kThreads) {
        const unsigned i = e / n, j = e % n;
        m[column_of[i] * a.row_stride + j] = p.mul(aug[i][n + j], inverses[i]);
    }
}

__global__ void copy_kernel(ConstMatricesView a, MatricesView c)
{
    const std::size_t cells = c.rows * c.cols;
    for (std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < cells; e += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t i = e / c.cols, j = e % c.cols;
        c.matrix(blockIdx.y)[i * c.row_stride + j] = a.matrix(blockIdx.y)[i * a.row_stride + j];
    }
}

__global__ void zero_kernel(MatricesView c)
{
    const std::size_t cells = c.rows * c.cols;
    for (std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < cells; e += std::size_t(gridDim.x) * blockDim.x)
        c.matrix(blockIdx.y)[(e / c.cols) * c.row_stride + e % c.cols] = 0;
}

// A grid over the cells of each matrix (y: the matrix), at most 1024 blocks across.
dim3 cells_grid(const MatricesView& c)
{
    const std::size_t blocks = (c.rows * c.cols + kThreads - 1) / kThreads;
    return dim3(unsigned(blocks < 1024 ? blocks : 1024), unsigned(c.count));
}

}  // namespace

void invert_small_mod(MatricesView a, const Modulus* moduli, limb_t* det, cudaStream_t stream)
{
    if (a.count == 0 || a.rows == 0) return;
    if (a.rows != a.cols || a.rows > kSmallInverse) throw Error("invert_small_mod: matrices of " + std::to_string(a.rows) + " x " +
                                                                std::to_string(a.cols) + ", not square of at most 32 rows");
    invert_small_kernel<<<unsigned(a.count), kThreads, 0, stream>>>(a, moduli, det);
    check_launch("invert_small_mod");
}

void copy_matrices(ConstMatricesView a, MatricesView c, cudaStream_t stream)
{
    if (c.count == 0 || c.rows == 0 || c.cols == 0) return;
    copy_kernel<<<cells_grid(c), kThreads, 0, stream>>>(a, c);
    check_launch("copy_matrices");
}

void zero_matrices(MatricesView c, cudaStream_t stream)
{
    if (c.count == 0 || c.rows == 0 || c.cols == 0) return;
    zero_kernel<<<cells_grid(c), kThreads, 0, stream>>>(c);
    check_launch("zero_matrices");
}

}  // namespace zgpu::kernels
