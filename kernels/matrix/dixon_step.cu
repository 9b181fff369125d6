// The kernels of dixon_step.hpp: a block an entry of the n x cols result, its threads sharing
// the entry's dot products. A step reads the inverse and a's residues once (about 8 (m + 1) n^2
// bytes, which the L2 cache holds at n = 1000); the block's sums are exact in DigitSum (fewer
// than 2^31 terms) and reduced once.
#include "kernels/matrix/dixon_step.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/modular/power_mod.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 128, kWarps = kThreads / 32;

// sum_k row[k] x[k x_stride] mod q over k < n, valid in thread 0; every thread of the block
// calls it. `partial` is the block's shared scratch of kWarps words.
__device__ limb_t block_dot_mod(const limb_t* row, const limb_t* x, std::size_t x_stride, std::size_t n, const Modulus& q,
                                limb_t* partial)
{
    DigitSum sum;
    for (std::size_t k = threadIdx.x; k < n; k += kThreads) sum.add_product(row[k], x[k * x_stride]);
    limb_t v = q.reduce(sum.words());
    for (unsigned offset = 16; offset > 0; offset >>= 1) v = q.add(v, __shfl_down_sync(0xffffffffu, v, offset));
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned w = 1; w < kWarps; ++w) v = q.add(v, partial[w]);
    __syncthreads();  // partial is free again
    return v;
}

__global__ void __launch_bounds__(kThreads)
    digit_kernel(const limb_t* inverse, const limb_t* r, std::size_t n, std::size_t cols, Modulus p, limb_t* y)
{
    __shared__ limb_t partial[kWarps];
    const std::size_t i = blockIdx.x / cols, c = blockIdx.x % cols;
    const limb_t v = block_dot_mod(inverse + i * n, r + c, cols, n, p, partial);
    if (threadIdx.x == 0) y[blockIdx.x] = v;
}

// d mod p from d's residues d_j mod q_j, |d| <= C: the mixed-radix digits of d + C.
__device__ limb_t residue_mod_p(const limb_t* d, const DixonModuli& m)
{
    limb_t digit[kDixonMaxModuli];
    limb_t r = m.p.neg(m.offset_mod_p);
    for (std::uint32_t j = 0; j < m.count; ++j) {
        const Modulus& q = m.q[j];
        limb_t v = q.add(d[j], q.n >> 1);  // C = -1/2 = (q_j - 1) / 2 mod q_j
        for (std::uint32_t l = 0; l < j; ++l) v = q.mul(q.sub(v, q.reduce(digit[l])), m.garner[j][l]);
        digit[j] = v;
        r = m.p.addmul(r, m.p.reduce(v), m.radix_mod_p[j]);
    }
    return r;
}

__global__ void __launch_bounds__(kThreads) residual_kernel(ConstMatricesView a, const limb_t* y, MatricesView d,
                                                            const DixonModuli moduli, limb_t* r, unsigned long long* finished)
{
    __shared__ limb_t partial[kWarps];
    const std::size_t cols = d.cols, i = blockIdx.x / cols, c = blockIdx.x % cols;
    limb_t residues[kDixonMaxModuli];
    for (std::uint32_t j = 0; j < moduli.count; ++j) {
        const Modulus& q = moduli.q[j];
        const limb_t ay = block_dot_mod(a.matrix(moduli.matrix[j]) + i * a.row_stride, y + c, cols, a.cols, q, partial);
        if (threadIdx.x == 0) {
            limb_t& dj = d.matrix(j)[i * d.row_stride + c];
            dj = q.mul(q.sub(dj, ay), moduli.p_inverse[j]);
            residues[j] = dj;
        }
    }
    if (threadIdx.x != 0) return;
    r[blockIdx.x] = residue_mod_p(residues, moduli);
    if (finished && blockIdx.x == 0) atomicAdd(finished, 1ull);
}

}  // namespace

DixonModuli dixon_moduli(limb_t p, std::span<const limb_t> q, std::span<const std::uint32_t> matrix)
{
    if (q.empty() || q.size() > kDixonMaxModuli || matrix.size() != q.size())
        throw Error("dixon_moduli: " + std::to_string(q.size()) + " residue moduli, not 1 to " + std::to_string(kDixonMaxModuli));
    DixonModuli m;
    m.p = make_modulus(p);
    m.count = std::uint32_t(q.size());
    limb_t radix = 1 % p;
    for (std::size_t j = 0; j < q.size(); ++j) {
        const Modulus& qj = m.q[j] = make_modulus(q[j]);
        m.matrix[j] = matrix[j];
        m.p_inverse[j] = inverse_mod(qj, qj.reduce(p));
        for (std::size_t l = 0; l < j; ++l) m.garner[j][l] = inverse_mod(qj, qj.reduce(q[l]));
        m.radix_mod_p[j] = radix;
        radix = m.p.mul(radix, m.p.reduce(q[j]));
    }
    // Q is odd: C = (Q - 1) / 2 = (Q - 1) (p + 1) / 2 mod p.
    m.offset_mod_p = m.p.mul(m.p.sub(radix, 1 % p), (p >> 1) + 1);
    return m;
}

void dixon_digit(const limb_t* inverse, const limb_t* r, std::size_t n, std::size_t cols, const Modulus& p, limb_t* y,
                 cudaStream_t stream)
{
    if (n == 0 || cols == 0) return;
    digit_kernel<<<unsigned(n * cols), kThreads, 0, stream>>>(inverse, r, n, cols, p, y);
    check_launch("dixon_digit");
}

void dixon_residual(ConstMatricesView a, const limb_t* y, MatricesView d, const DixonModuli& moduli, limb_t* r,
                    unsigned long long* finished, cudaStream_t stream)
{
    if (d.rows == 0 || d.cols == 0) return;
    residual_kernel<<<unsigned(d.rows * d.cols), kThreads, 0, stream>>>(a, y, d, moduli, r, finished);
    check_launch("dixon_residual");
}

}  // namespace zgpu::kernels
