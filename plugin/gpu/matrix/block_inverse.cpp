#include "plugin/gpu/matrix/block_inverse.hpp"

#include <random>
#include <vector>

#include "kernels/common/temporary.hpp"
#include "kernels/matrix/inverse_mod.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"

namespace zgpu::gpu {
namespace {

using kernels::ConstMatricesView;
using kernels::MatricesView;

// Block (row, col) of r x c of every matrix of the batch.
template <class View>
View blocks(View m, std::size_t row, std::size_t col, std::size_t r, std::size_t c)
{
    return {m.data + row * m.row_stride + col, r, c, m.row_stride, m.matrix_stride, m.count};
}

// A batch of `count` r x c matrices in stream-ordered temporary memory.
struct TemporaryMatrices {
    TemporaryMatrices(std::size_t r, std::size_t c, std::size_t count, cudaStream_t stream)
        : memory(r * c * count * sizeof(limb_t), stream), view{static_cast<limb_t*>(memory.data()), r, c, c, r * c, count}
    {
    }
    kernels::StreamMemory memory;
    MatricesView view;
};

struct Products {
    Runtime& runtime;
    const kernels::Modulus* moduli;
    unsigned bits;

    void mul(ConstMatricesView a, ConstMatricesView b, MatricesView c) const { mat_mul_mod(runtime, a, b, moduli, bits, c); }
    void submul(ConstMatricesView a, ConstMatricesView b, MatricesView c) const { mat_submul_mod(runtime, a, b, moduli, bits, c); }

    // out = m^-1, det *= det m.
    void invert(ConstMatricesView m, MatricesView out, limb_t* det) const
    {
        const cudaStream_t stream = runtime.stream();
        const std::size_t n = m.rows;
        if (n <= kernels::kSmallInverse) {
            kernels::copy_matrices(m, out, stream);
            return kernels::invert_small_mod(out, moduli, det, stream);
        }
        const std::size_t k = n / 2, l = n - k, count = m.count;
        const ConstMatricesView a = blocks(m, 0, 0, k, k), b = blocks(m, 0, k, k, l), c = blocks(m, k, 0, l, k), d = blocks(m, k, k, l, l);
        const MatricesView x11 = blocks(out, 0, 0, k, k), x12 = blocks(out, 0, k, k, l), x21 = blocks(out, k, 0, l, k),
                           x22 = blocks(out, k, k, l, l);
        invert(a, x11, det);
        const TemporaryMatrices e(k, l, count, stream), s(l, l, count, stream), f(l, k, count, stream);
        mul(x11, b, e.view);  // E = A^-1 B
        kernels::copy_matrices(d, s.view, stream);
        submul(c, e.view, s.view);  // S = D - C E
        invert(s.view, x22, det);
        mul(c, x11, f.view);  // F = C A^-1
        kernels::zero_matrices(x21, stream);
        submul(x22, f.view, x21);  // -S^-1 F
        kernels::zero_matrices(x12, stream);
        submul(e.view, x22, x12);  // -E S^-1
        submul(e.view, x21, x11);  // A^-1 + E S^-1 F
    }
};

// A unit triangular n x n matrix (upper or lower) of random entries below 2^61, `count` copies,
// on the device.
TemporaryMatrices random_unit_triangular(std::size_t n, std::size_t count, bool upper, std::mt19937_64& random, cudaStream_t stream)
{
    std::vector<limb_t> one(n * n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (i == j) one[i * n + j] = 1;
            else if ((j > i) == upper) one[i * n + j] = random() >> 3;
    TemporaryMatrices t(n, n, count, stream);
    // Pageable memory: each copy has taken it once the call returns.
    for (std::size_t b = 0; b < count; ++b)
        check(cudaMemcpyAsync(t.view.matrix(b), one.data(), n * n * sizeof(limb_t), cudaMemcpyHostToDevice, stream),
              "uploading a preconditioner");
    return t;
}

}  // namespace

void invert_by_blocks(Runtime& runtime, ConstMatricesView m, MatricesView out, const kernels::Modulus* moduli, unsigned modulus_bits,
                      limb_t* det)
{
    // Pageable memory: the copy has taken it once the call returns.
    const std::vector<limb_t> ones(m.count, 1);
    check(cudaMemcpyAsync(det, ones.data(), m.count * sizeof(limb_t), cudaMemcpyHostToDevice, runtime.stream()),
          "setting determinants to 1");
    Products{runtime, moduli, modulus_bits}.invert(m, out, det);
}

void invert_by_blocks_preconditioned(Runtime& runtime, ConstMatricesView m, MatricesView out, const kernels::Modulus* moduli,
                                     unsigned modulus_bits, limb_t* det)
{
    const cudaStream_t stream = runtime.stream();
    const std::size_t n = m.rows, count = m.count;
    std::mt19937_64 random(0x5eed5eedu + n);
    const TemporaryMatrices u = random_unit_triangular(n, count, true, random, stream),
                            l = random_unit_triangular(n, count, false, random, stream);
    const Products products{runtime, moduli, modulus_bits};
    const TemporaryMatrices t(n, n, count, stream), conditioned(n, n, count, stream);
    products.mul(u.view, m, t.view);
    products.mul(t.view, l.view, conditioned.view);  // U m L
    invert_by_blocks(runtime, conditioned.view, out, moduli, modulus_bits, det);
    products.mul(l.view, out, t.view);
    products.mul(t.view, u.view, out);  // m^-1 = L (U m L)^-1 U
}

}  // namespace zgpu::gpu
