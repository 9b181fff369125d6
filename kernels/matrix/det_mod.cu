// Determinants mod p by blocked Gaussian elimination, a block a matrix, kPanel columns at a time
// (right-looking LU with row swaps, as LAPACK's getrf):
//   1. the panel (columns k0..k1-1, every row from k0 down) is eliminated column by column: the
//      first row with a nonzero entry is swapped up (across columns k0 onwards), the determinant
//      takes the pivot, and each row below turns its entry into a multiplier and updates only
//      its own panel entries;
//   2. the panel's pivot rows beyond the panel become U's rows: row r loses the multiples of
//      rows k0..r-1 (a forward substitution by the panel's unit lower triangle);
//   3. the rows below subtract their multipliers times those rows, each entry once a panel: its
//      kPanel products summed exactly in 32-bit digits (DigitSum) and reduced once.
// The matrix stays in device memory (400 x 400 words is 1.25 MiB, beyond a block's shared
// memory); step 3 reads and writes the trailing matrix once a panel instead of once a column,
// and replaces kPanel reductions an entry by one.
//
// Cost: n^3 / 3 products a matrix, nearly all in step 3 at four 32 x 32-bit products each; n
// pivot inversions (binary, power_mod.hpp) and n^2 kPanel / 2 products mod p in steps 1 and 2.
// A block is four warps, so that four matrices share an SM and hide each other's waits for a
// pivot.
#include "kernels/matrix/det_mod.hpp"

#include <algorithm>

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 128, kWarp = 32, kWarps = kThreads / kWarp;
constexpr std::size_t kPanel = 16;

// One matrix's elimination: the block's threads work together; thread 0 returns the determinant.
// A column costs three synchronisations and one inversion; the next column's pivot is sought
// while its entries are updated.
class Elimination {
public:
    __device__ Elimination(limb_t* m, std::size_t n, std::size_t row_stride, const Modulus& p, unsigned* pivot, limb_t* inverse)
        : m_(m), n_(n), stride_(row_stride), p_(p), pivot_(pivot), inverse_(inverse)
    {
    }

    __device__ limb_t determinant()
    {
        limb_t d = 1 % p_.n;  // thread 0's
        if (threadIdx.x == 0) pivot_[0] = unsigned(n_);
        __syncthreads();
        for (std::size_t i = threadIdx.x; i < n_; i += kThreads)
            if (at(i, 0) != 0) atomicMin(&pivot_[0], unsigned(i));
        __syncthreads();
        for (std::size_t k0 = 0; k0 < n_; k0 += kPanel) {
            const std::size_t k1 = k0 + kPanel < n_ ? k0 + kPanel : n_;
            for (std::size_t c = k0; c < k1; ++c) {
                const std::size_t r = pivot_[c & 1];
                if (r == n_) return 0;  // no pivot: singular mod p (the block leaves together)
                if (threadIdx.x == 0) {
                    const limb_t v = at(r, c);  // before this thread swaps column c
                    d = p_.mul(r == c ? d : p_.neg(d), v);
                    *inverse_ = inverse_mod(p_, v);
                    pivot_[(c + 1) & 1] = unsigned(n_);
                }
                if (r != c) swap_rows(c, r, k0);
                __syncthreads();
                for (std::size_t i = c + 1 + threadIdx.x; i < n_; i += kThreads) at(i, c) = p_.mul(at(i, c), *inverse_);
                __syncthreads();
                eliminate_in_panel(c, k1);
                __syncthreads();
            }
            if (k1 == n_) break;
            finish_pivot_rows(k0, k1);
            update_trailing(k0, k1);
            __syncthreads();
        }
        return d;
    }

private:
    __device__ limb_t& at(std::size_t i, std::size_t j) const { return m_[i * stride_ + j]; }

    // Rows c and r across columns k0 onwards (the panel's multipliers too); thread 0 takes
    // column c.
    __device__ void swap_rows(std::size_t c, std::size_t r, std::size_t k0)
    {
        const auto swap = [&](std::size_t j) {
            const limb_t t = at(c, j);
            at(c, j) = at(r, j);
            at(r, j) = t;
        };
        for (std::size_t j = c + threadIdx.x; j < n_; j += kThreads) swap(j);
        for (std::size_t j = k0 + threadIdx.x; j < c; j += kThreads) swap(j);
    }

    // The panel's entries right of column c in the rows below it lose their multiple of row c,
    // kPanel threads a row; column c + 1's pivot is the first of those rows left nonzero there.
    __device__ void eliminate_in_panel(std::size_t c, std::size_t k1)
    {
        const std::size_t j = c + 1 + threadIdx.x % kPanel;
        if (j >= k1) return;
        for (std::size_t i = c + 1 + threadIdx.x / kPanel; i < n_; i += kThreads / kPanel) {
            const limb_t x = p_.sub(at(i, j), p_.mul(at(i, c), at(c, j)));
            at(i, j) = x;
            if (j == c + 1 && x != 0) atomicMin(&pivot_[j & 1], unsigned(i));
        }
    }

    // Rows k0 + 1..k1 - 1 past the panel: row r -= sum over c in [k0, r) of m(r, c) row c, a row
    // at a time (each needs the rows above it final), a thread a column.
    __device__ void finish_pivot_rows(std::size_t k0, std::size_t k1)
    {
        for (std::size_t r = k0 + 1; r < k1; ++r) {
            for (std::size_t j = k1 + threadIdx.x; j < n_; j += kThreads) {
                DigitSum s;
                for (std::size_t c = k0; c < r; ++c) s.add_product(at(r, c), at(c, j));
                at(r, j) = p_.sub(at(r, j), p_.reduce(s.words()));
            }
            __syncthreads();
        }
    }

    // Every entry (i, j) with i, j >= k1 -= sum over the panel's columns c of m(i, c) u(c, j): a
    // warp a row, its multipliers in registers, its lanes along the row reading u's rows. Column
    // k1's pivot is the first row left nonzero there.
    __device__ void update_trailing(std::size_t k0, std::size_t k1)
    {
        const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
        for (std::size_t i = k1 + warp; i < n_; i += kWarps) {
            limb_t f[kPanel];
#pragma unroll
            for (std::size_t c = 0; c < kPanel; ++c) f[c] = at(i, k0 + c);
            for (std::size_t j = k1 + lane; j < n_; j += kWarp) {
                DigitSum s;
#pragma unroll
                for (std::size_t c = 0; c < kPanel; ++c) s.add_product(f[c], at(k0 + c, j));
                const limb_t x = p_.sub(at(i, j), p_.reduce(s.words()));
                at(i, j) = x;
                if (j == k1 && x != 0) atomicMin(&pivot_[k1 & 1], unsigned(i));
            }
        }
    }

    limb_t* m_;
    std::size_t n_, stride_;
    Modulus p_;
    unsigned* pivot_;  // shared: the pivot rows of the current column and the next
    limb_t* inverse_;  // shared: the current pivot's inverse
};

__global__ void __launch_bounds__(kThreads, 4)
    det_mod_kernel(const MatricesView a, const Modulus* moduli, limb_t* det, unsigned long long* finished)
{
    __shared__ unsigned pivot[2];
    __shared__ limb_t inverse;
    for (std::size_t b = blockIdx.x; b < a.count; b += gridDim.x) {
        Elimination e(a.matrix(b), a.rows, a.row_stride, moduli[b], pivot, &inverse);
        const limb_t d = e.determinant();
        if (threadIdx.x == 0) {
            det[b] = d;
            if (finished) atomicAdd(finished, 1ull);
        }
        __syncthreads();
    }
}

}  // namespace

void det_mod(MatricesView a, const Modulus* moduli, limb_t* det, cudaStream_t stream, unsigned long long* finished)
{
    if (a.count == 0) return;
    const unsigned blocks = unsigned(std::min<std::size_t>(a.count, 1u << 20));
    det_mod_kernel<<<blocks, kThreads, 0, stream>>>(a, moduli, det, finished);
    check_launch("det_mod");
}

double det_mod_steps(std::size_t n, std::size_t count) { return double(n) * double(n) * double(n) / 3 * double(count); }

}  // namespace zgpu::kernels
