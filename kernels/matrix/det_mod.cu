// Determinants mod p by Gaussian elimination, a block a matrix: for each column k the block
// finds the first row at or below k with a nonzero entry (a minimum over the threads), swaps it
// up, multiplies the determinant by the pivot and scales column k below it by the pivot's
// inverse, then subtracts multiples of row k from the rows below, a thread an entry. The
// matrix stays in device memory (400 x 400 words is 1.25 MiB, beyond a block's shared memory);
// the entries a step touches, (n - k)^2, are read and written once.
//
// Cost: n^3 / 3 products mod p a matrix (Modulus::mul: a 64 x 64 -> 128-bit product and a
// Möller–Granlund reduction), and n pivot inversions of about 2 log2 p products each.
#include "kernels/matrix/det_mod.hpp"

#include <algorithm>

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 256;

__device__ limb_t pow_mod(const Modulus& m, limb_t x, limb_t e)
{
    limb_t r = 1 % m.n;
    for (; e; e >>= 1) {
        if (e & 1) r = m.mul(r, x);
        x = m.mul(x, x);
    }
    return r;
}

__global__ void __launch_bounds__(kThreads) det_mod_kernel(const MatricesView a, const Modulus* moduli, limb_t* det)
{
    __shared__ unsigned pivot;
    __shared__ limb_t inverse;
    const std::size_t n = a.rows;
    for (std::size_t b = blockIdx.x; b < a.count; b += gridDim.x) {
        limb_t* m = a.matrix(b);
        const Modulus p = moduli[b];
        const auto at = [&](std::size_t i, std::size_t j) -> limb_t& { return m[i * a.row_stride + j]; };
        limb_t d = 1 % p.n;  // the determinant so far (thread 0's)
        for (std::size_t k = 0; k < n; ++k) {
            if (threadIdx.x == 0) pivot = unsigned(n);
            __syncthreads();
            for (std::size_t i = k + threadIdx.x; i < n; i += kThreads)
                if (at(i, k) != 0) atomicMin(&pivot, unsigned(i));
            __syncthreads();
            const std::size_t r = pivot;
            if (r == n) {  // no pivot: singular mod p
                d = 0;
                break;
            }
            if (r != k) {
                for (std::size_t j = k + threadIdx.x; j < n; j += kThreads) {
                    const limb_t t = at(k, j);
                    at(k, j) = at(r, j);
                    at(r, j) = t;
                }
                d = p.neg(d);
            }
            __syncthreads();
            if (threadIdx.x == 0) {
                const limb_t v = at(k, k);
                d = p.mul(d, v);
                inverse = pow_mod(p, v, p.n - 2);
            }
            __syncthreads();
            // Column k below the pivot becomes the rows' multipliers.
            for (std::size_t i = k + 1 + threadIdx.x; i < n; i += kThreads) at(i, k) = p.mul(at(i, k), inverse);
            __syncthreads();
            // A warp a row, its lanes along the row: row k is read by every warp (from cache).
            for (std::size_t i = k + 1 + threadIdx.x / 32; i < n; i += kThreads / 32) {
                const limb_t f = at(i, k);
                for (std::size_t j = k + 1 + threadIdx.x % 32; j < n; j += 32) at(i, j) = p.sub(at(i, j), p.mul(f, at(k, j)));
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) det[b] = d;
        __syncthreads();
    }
}

}  // namespace

void det_mod(MatricesView a, const Modulus* moduli, limb_t* det, cudaStream_t stream)
{
    if (a.count == 0) return;
    const unsigned blocks = unsigned(std::min<std::size_t>(a.count, 1u << 20));
    det_mod_kernel<<<blocks, kThreads, 0, stream>>>(a, moduli, det);
    check_launch("det_mod");
}

double det_mod_steps(std::size_t n, std::size_t count) { return double(n) * double(n) * double(n) / 3 * double(count); }

}  // namespace zgpu::kernels
