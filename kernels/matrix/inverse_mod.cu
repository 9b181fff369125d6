// The kernels of inverse_mod.hpp. invert_small_mod keeps [a | I] in shared memory, one block a
// matrix: a column's pivot and its inverse on one thread, the row operations on all of them.
#include "kernels/matrix/inverse_mod.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads) invert_small_kernel(MatricesView a, const Modulus* moduli, limb_t* det)
{
    constexpr std::size_t kWidth = 2 * kSmallInverse;
    __shared__ limb_t aug[kSmallInverse][kWidth];
    __shared__ limb_t factor[kSmallInverse];
    __shared__ limb_t pivot_inverse;
    __shared__ int pivot_row;
    const Modulus p = moduli[blockIdx.x];
    limb_t* m = a.matrix(blockIdx.x);
    const unsigned n = unsigned(a.rows), width = 2 * n;
    for (unsigned e = threadIdx.x; e < n * width; e += kThreads) {
        const unsigned i = e / width, j = e % width;
        aug[i][j] = j < n ? m[i * a.row_stride + j] : limb_t(j - n == i);
    }
    limb_t determinant = 1;  // thread 0's
    __syncthreads();
    for (unsigned c = 0; c < n; ++c) {
        if (threadIdx.x == 0) {
            unsigned r = c;
            while (r < n && aug[r][c] == 0) ++r;
            pivot_row = r < n ? int(r) : -1;
            if (r < n) {
                determinant = p.mul(determinant, aug[r][c]);
                if (r != c) determinant = p.neg(determinant);
                pivot_inverse = inverse_mod(p, aug[r][c]);
            }
        }
        __syncthreads();
        const int r = pivot_row;
        if (r < 0) {
            if (threadIdx.x == 0) det[blockIdx.x] = 0;
            return;
        }
        // Row r, scaled, becomes row c; row c moves to row r.
        for (unsigned j = threadIdx.x; j < width; j += kThreads) {
            const limb_t top = aug[c][j];
            aug[c][j] = p.mul(aug[r][j], pivot_inverse);
            if (unsigned(r) != c) aug[r][j] = top;
        }
        __syncthreads();
        for (unsigned i = threadIdx.x; i < n; i += kThreads) factor[i] = i == c ? 0 : aug[i][c];
        __syncthreads();
        for (unsigned e = threadIdx.x; e < n * width; e += kThreads) {
            const unsigned i = e / width, j = e % width;
            if (factor[i] != 0) aug[i][j] = p.sub(aug[i][j], p.mul(factor[i], aug[c][j]));
        }
        __syncthreads();
    }
    for (unsigned e = threadIdx.x; e < n * n; e += kThreads) {
        const unsigned i = e / n, j = e % n;
        m[i * a.row_stride + j] = aug[i][n + j];
    }
    if (threadIdx.x == 0) det[blockIdx.x] = p.mul(det[blockIdx.x], determinant);
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
