// The products mod n on the 8-bit tensor cores (mat_mul_tensor.hpp). A call runs in passes,
// each over a group of products, or a band of rows of one product:
// 1. the entries lifted to (-n/2, n/2] and reduced modulo the t small moduli as bytes in
//    [-128, 127] (residues_kernel), the inner dimension padded with zeros to a multiple of 16,
//    b's side written transposed so that both operands of the GEMM run along it;
// 2. a strided-batched GEMM over the t x group products (cuBLAS, int8 in, int32 sums) for each
//    chunk of kTensorInnerChunk inner terms, the sums reduced mod m_j between chunks;
// 3. each entry rebuilt from its t sums by the CRT and reduced mod n (reconstruct_kernel).
#include "kernels/matrix/mat_mul_tensor.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/matrix/tensor_moduli.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

// cuBLAS's int8 kernels want the inner dimension and the leading dimensions in multiples of 16
// and 4 bytes; zero padding changes no sum.
constexpr std::size_t kPadInner = 16, kPadCols = 4;
constexpr unsigned kThreads = 256, kMaxGridY = 65535;
constexpr std::size_t kMaxBatch = 65535;

// The small moduli's constants, passed to the kernels by value. Remainders by m_j <= 256 come
// from magic_j = ceil(2^32 / m_j) = (2^32 + d) / m_j with 0 <= d < m_j: for y < 2^32,
// umulhi(y, magic_j) exceeds floor(y / m_j) by y d / (m_j 2^32) < 1 at most, so it is the
// quotient or one more, and one correction gives the remainder.
struct SmallModuli {
    unsigned count;
    std::uint32_t m[kMaxTensorModuli];
    std::uint32_t magic[kMaxTensorModuli];
    std::uint32_t pow16[kMaxTensorModuli][3];  // 2^16, 2^32 and 2^48 mod m_j
    std::uint32_t bias[kMaxTensorModuli];      // 2^31 mod m_j
    std::uint32_t inverse[kMaxTensorModuli];   // (M / m_j)^-1 mod m_j
    double reciprocal[kMaxTensorModuli];       // 1 / m_j
};

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// x^-1 mod m for x coprime to m, by the extended Euclidean algorithm. Not power_mod.hpp's
// inverse_mod, whose binary steps need an odd modulus: the first small modulus is 256.
std::uint32_t small_inverse(std::uint64_t x, std::uint64_t m)
{
    std::int64_t r0 = std::int64_t(m), r1 = std::int64_t(x % m), s0 = 0, s1 = 1;
    while (r1 != 0) {
        const std::int64_t q = r0 / r1;
        std::tie(r0, r1) = std::pair(r1, r0 - q * r1);
        std::tie(s0, s1) = std::pair(s1, s0 - q * s1);
    }
    return std::uint32_t((s0 % std::int64_t(m) + std::int64_t(m)) % std::int64_t(m));
}

// The constants of the first t small moduli, made once for each t.
const SmallModuli& small_moduli(unsigned t)
{
    static const std::array<SmallModuli, kMaxTensorModuli + 1> all = [] {
        std::array<SmallModuli, kMaxTensorModuli + 1> sets{};
        const auto list = tensor_moduli();
        for (unsigned count = 1; count <= kMaxTensorModuli; ++count) {
            SmallModuli& s = sets[count];
            s.count = count;
            for (unsigned j = 0; j < count; ++j) {
                const std::uint64_t m = list[j];
                s.m[j] = std::uint32_t(m);
                s.magic[j] = std::uint32_t(((std::uint64_t(1) << 32) + m - 1) / m);
                std::uint64_t power = 1;
                for (auto& p : s.pow16[j]) p = std::uint32_t(power = (power << 16) % m);
                s.bias[j] = std::uint32_t((std::uint64_t(1) << 31) % m);
                std::uint64_t cofactor = 1;
                for (unsigned i = 0; i < count; ++i)
                    if (i != j) cofactor = cofactor * list[i] % m;
                s.inverse[j] = small_inverse(cofactor, m);
                s.reciprocal[j] = 1.0 / double(m);
            }
        }
        return sets;
    }();
    return all[t];
}

void check_blas(const BlasFunctions& blas, cublasStatus_t status, const char* what)
{
    if (status != CUBLAS_STATUS_SUCCESS)
        throw Error(std::string("matrix products on the tensor cores: ") + what + ": " + blas.status_string(status));
}

// y mod m_j for any 32-bit y (the magic's note above).
__device__ std::uint32_t remainder(std::uint32_t y, const SmallModuli& s, unsigned j)
{
    const std::int32_t r = std::int32_t(y - __umulhi(y, s.magic[j]) * s.m[j]);  // in [-m_j, m_j)
    return std::uint32_t(r < 0 ? r + std::int32_t(s.m[j]) : r);
}

// A GEMM's 32-bit sum mod m_j: sum + 2^31 is a word, and 2^31 mod m_j comes off again.
__device__ std::uint32_t sum_mod(std::int32_t sum, const SmallModuli& s, unsigned j)
{
    const std::int32_t r = std::int32_t(remainder(std::uint32_t(sum) + 0x80000000u, s, j)) - std::int32_t(s.bias[j]);
    return std::uint32_t(r < 0 ? r + std::int32_t(s.m[j]) : r);
}

// Plane (j, b) of `planes` (j < s.count, b < x.count, in that order) holds matrix b's residues
// mod m_j: `outer` rows of `padded` bytes, a row for each of x's rows (or, Transpose, columns),
// zeros past x's. A thread takes four consecutive inner terms of one row, and stores each
// plane's four bytes as one word: a warp writes 128 consecutive bytes a plane.
template <bool Transpose>
__global__ void __launch_bounds__(kThreads) residues_kernel(ConstMatricesView x, const Modulus* moduli, SmallModuli s,
                                                            std::int8_t* planes, std::size_t outer, std::size_t padded)
{
    const std::size_t inner = Transpose ? x.rows : x.cols, filled = Transpose ? x.cols : x.rows, plane = outer * padded;
    const std::size_t k0 = (blockIdx.x * std::size_t(32) + threadIdx.x) * 4;
    if (k0 >= padded) return;
    for (std::size_t b = blockIdx.z; b < x.count; b += gridDim.z) {
        const Modulus modulus = moduli[b];
        const limb_t* matrix = x.matrix(b);
        for (std::size_t o = blockIdx.y * std::size_t(kThreads / 32) + threadIdx.y; o < outer; o += gridDim.y * std::size_t(kThreads / 32)) {
            std::uint32_t u[4][4];  // |the lifted entry| of each term in 16-bit pieces
            bool negative[4];
            for (int e = 0; e < 4; ++e) {
                const std::size_t k = k0 + e;
                limb_t v = 0;
                negative[e] = false;
                if (k < inner && o < filled) {
                    const limb_t w = modulus.reduce(Transpose ? matrix[k * x.row_stride + o] : matrix[o * x.row_stride + k]);
                    negative[e] = w > (modulus.n - 1) / 2;
                    v = negative[e] ? modulus.n - w : w;
                }
                for (int p = 0; p < 4; ++p) u[e][p] = std::uint32_t(v >> (16 * p) & 0xffff);
            }
            std::uint32_t* out = reinterpret_cast<std::uint32_t*>(planes + b * plane + o * padded + k0);
            for (unsigned j = 0; j < s.count; ++j) {
                const std::uint32_t m = s.m[j];
                std::uint32_t word = 0;
                for (int e = 0; e < 4; ++e) {
                    // Below 2^16 + 3 2^16 255 < 2^26.
                    std::uint32_t r = remainder(u[e][0] + u[e][1] * s.pow16[j][0] + u[e][2] * s.pow16[j][1] + u[e][3] * s.pow16[j][2], s, j);
                    if (negative[e] && r != 0) r = m - r;
                    const std::int32_t symmetric = r >= (m + 1) / 2 ? std::int32_t(r) - std::int32_t(m) : std::int32_t(r);
                    word |= (std::uint32_t(symmetric) & 0xff) << (8 * e);
                }
                out[j * x.count * plane / 4] = word;
            }
        }
    }
}

// The sums of the GEMMs so far, in [0, m_j) again, before the next chunk adds to them: `planes`
// planes of `plane` sums each, `group` planes a modulus.
__global__ void reduce_sums_kernel(std::int32_t* sums, std::size_t plane, std::size_t group, std::size_t planes, SmallModuli s)
{
    for (std::size_t z = blockIdx.y; z < planes; z += gridDim.y) {
        const unsigned j = unsigned(z / group);
        std::int32_t* p = sums + z * plane;
        for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < plane; i += std::size_t(gridDim.x) * blockDim.x)
            p[i] = std::int32_t(sum_mod(p[i], s, j));
    }
}

// weights[b (t + 1) + j] = (M / m_j) mod n_b for j < t, and M mod n_b at j = t.
__global__ void weights_kernel(const Modulus* moduli, std::size_t count, SmallModuli s, limb_t* weights)
{
    const std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (b >= count) return;
    const Modulus modulus = moduli[b];
    limb_t* w = weights + b * (s.count + 1);
    for (unsigned j = 0; j < s.count; ++j) {
        limb_t cofactor = 1;
        for (unsigned i = 0; i < s.count; ++i)
            if (i != j) cofactor = modulus.mul(cofactor, modulus.reduce(limb_t(s.m[i])));
        w[j] = cofactor;
    }
    w[s.count] = modulus.mul(w[0], modulus.reduce(limb_t(s.m[0])));
}

// c's entries from the sums: e_j = (sum_j mod m_j) (M / m_j)^-1 mod m_j, the product's lifted
// value sum_j e_j M / m_j - q M with q the integer nearest to sum_j e_j / m_j (tensor_moduli.hpp),
// and mod n: sum_j e_j weights_j - q weights_t. The sum of e_j weights_j (below 24 2^8 2^64)
// is kept as two sums of e_j times the weights' 32-bit halves, each below 2^45, and reduced
// once. A block row of threads takes a row of one product. Subtract: c's entries lose the
// product instead of taking it.
template <bool Subtract>
__global__ void __launch_bounds__(kThreads) reconstruct_kernel(const std::int32_t* sums, std::size_t ldc, std::size_t group,
                                                               const Modulus* moduli, const limb_t* weights, SmallModuli s, MatricesView c)
{
    const std::size_t plane = c.rows * ldc, modulus_stride = group * plane;
    for (std::size_t row_of_all = blockIdx.y; row_of_all < c.count * c.rows; row_of_all += gridDim.y) {
        const std::size_t b = row_of_all / c.rows, row = row_of_all % c.rows;
        const Modulus modulus = moduli[b];
        const limb_t* w = weights + b * (s.count + 1);
        for (std::size_t col = blockIdx.x * std::size_t(kThreads) + threadIdx.x; col < c.cols; col += gridDim.x * std::size_t(kThreads)) {
            const std::int32_t* sum = sums + b * plane + row * ldc + col;
            std::uint64_t low = 0, high = 0;
            double fractions = 0;
            for (unsigned j = 0; j < s.count; ++j) {
                const std::uint32_t e = remainder(sum_mod(sum[j * modulus_stride], s, j) * s.inverse[j], s, j);
                fractions += double(e) * s.reciprocal[j];
                low += std::uint64_t(e) * std::uint32_t(w[j]);
                high += std::uint64_t(e) * std::uint32_t(w[j] >> 32);
            }
            // high 2^32 + low as two words, then mod n.
            const limb_t word0 = low + (high << 32), word1 = (high >> 32) + (word0 < low);
            const limb_t value = modulus.reduce(modulus.reduce(word1), word0);
            const limb_t q = limb_t(llrint(fractions));
            const limb_t product = modulus.sub(value, modulus.mul(modulus.reduce(q), w[s.count]));
            limb_t& out = c.matrix(b)[row * c.row_stride + col];
            out = Subtract ? modulus.sub(out, product) : product;
        }
    }
}

// Enough blocks to keep an H200's 132 SMs busy 16 deep; the kernel's loop strides over the rest.
unsigned grid_for(std::size_t total)
{
    return unsigned(std::min<std::size_t>((total + kThreads - 1) / kThreads, std::size_t(132) * 16));
}

// x's matrices first .. first + count - 1, rows row0 .. row0 + rows - 1.
template <class View>
View part(const View& x, std::size_t first, std::size_t count, std::size_t row0, std::size_t rows)
{
    return {x.matrix(first) + row0 * x.row_stride, rows, x.cols, x.row_stride, x.matrix_stride, count};
}

template <bool Transpose>
void residues(ConstMatricesView x, const Modulus* moduli, const SmallModuli& s, std::int8_t* planes, std::size_t outer,
              std::size_t padded, cudaStream_t stream)
{
    const std::size_t k_blocks = (padded + 127) / 128;
    if (k_blocks > 0x7fffffffu) throw Error("matrix products on the tensor cores: " + std::to_string(k_blocks) + " blocks exceed one launch");
    const dim3 grid(unsigned(k_blocks), unsigned(std::min<std::size_t>((outer + kThreads / 32 - 1) / (kThreads / 32), kMaxGridY)),
                    unsigned(std::min<std::size_t>(x.count, kMaxGridY)));
    residues_kernel<Transpose><<<grid, dim3(32, kThreads / 32), 0, stream>>>(x, moduli, s, planes, outer, padded);
    check_launch("matrix products on the tensor cores: residues launch");
}

// c = a b or c -= a b (subtract) for a's `count` matrices and b's planes `bp` (and weights w)
// of as many, a band of `band` rows at a time: a's residues as bytes, the GEMMs chunk by chunk
// of the inner dimension, and the reconstruction.
void multiply_planes(const BlasFunctions& blas, ConstMatricesView a, const std::int8_t* bp, const limb_t* w, const SmallModuli& s,
                     std::size_t padded, std::size_t ldc, std::size_t band, const Modulus* moduli, MatricesView c,
                     cudaStream_t stream, bool subtract)
{
    const std::size_t rows = c.rows, cols = c.cols, g = c.count, t = s.count;
    StreamMemory a_planes(g * band * t * padded, stream), sums(g * band * t * ldc * sizeof(std::int32_t), stream);
    auto* ap = static_cast<std::int8_t*>(a_planes.data());
    auto* sp = static_cast<std::int32_t*>(sums.data());
    check_blas(blas, blas.set_stream(blas.handle, stream), "binding the stream");
    for (std::size_t row0 = 0; row0 < rows; row0 += band) {
        const std::size_t r = std::min(band, rows - row0);
        residues<false>(part(a, 0, g, row0, r), moduli, s, ap, r, padded, stream);
        for (std::size_t k0 = 0; k0 < padded; k0 += kTensorInnerChunk) {
            const std::size_t k = std::min(kTensorInnerChunk, padded - k0);
            const std::int32_t one = 1, beta = k0 == 0 ? 0 : 1;
            // Column-major C (ldc x r) = B^T A^T: c's rows, row-major, with b's residues (a
            // row a column of b) as the transposed first operand and a's as the second. At
            // most kMaxBatch GEMMs a call.
            const std::size_t a_plane = r * padded, b_plane = ldc * padded, c_plane = r * ldc;
            for (std::size_t z = 0; z < t * g; z += kMaxBatch)
                check_blas(blas,
                           blas.gemm(blas.handle, CUBLAS_OP_T, CUBLAS_OP_N, int(ldc), int(r), int(k), &one, bp + z * b_plane + k0,
                                     CUDA_R_8I, int(padded), (long long)b_plane, ap + z * a_plane + k0, CUDA_R_8I, int(padded),
                                     (long long)a_plane, &beta, sp + z * c_plane, CUDA_R_32I, int(ldc), (long long)c_plane,
                                     int(std::min(kMaxBatch, t * g - z)), CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
                           "the 8-bit GEMM");
            if (k0 + k < padded) {
                const dim3 grid(grid_for(r * ldc), unsigned(std::min<std::size_t>(t * g, kMaxGridY)));
                reduce_sums_kernel<<<grid, kThreads, 0, stream>>>(sp, r * ldc, g, t * g, s);
                check_launch("matrix products on the tensor cores: reduction launch");
            }
        }
        const MatricesView out = part(c, 0, g, row0, r);
        const dim3 grid(unsigned((cols + kThreads - 1) / kThreads), unsigned(std::min<std::size_t>(g * r, kMaxGridY)));
        if (subtract)
            reconstruct_kernel<true><<<grid, kThreads, 0, stream>>>(sp, ldc, g, moduli, w, s, out);
        else
            reconstruct_kernel<false><<<grid, kThreads, 0, stream>>>(sp, ldc, g, moduli, w, s, out);
        check_launch("matrix products on the tensor cores: reconstruction launch");
    }
}

// The GEMMs' shape limits: cuBLAS takes dimensions, leading dimensions and the batch as int.
void check_shape(std::size_t rows, std::size_t inner, std::size_t cols)
{
    if (std::max({round_up(inner, kPadInner), round_up(cols, kPadCols), rows}) > std::size_t(INT_MAX))
        throw Error("matrix products on the tensor cores: " + std::to_string(rows) + " x " + std::to_string(inner) + " x " +
                    std::to_string(cols) + " pass cuBLAS's 2^31 - 1");
}

// weights[b (t + 1) + j] for each of `count` moduli (weights_kernel).
void make_weights(const Modulus* moduli, std::size_t count, const SmallModuli& s, limb_t* weights, cudaStream_t stream)
{
    weights_kernel<<<unsigned((count + 127) / 128), 128, 0, stream>>>(moduli, count, s, weights);
    check_launch("matrix products on the tensor cores: weights launch");
}

// Both products: c = a b, or c -= a b (subtract), b's planes made a group of products at a time.
void tensor_product(const BlasFunctions& blas, ConstMatricesView a, ConstMatricesView b, const Modulus* moduli,
                    unsigned modulus_bits, MatricesView c, cudaStream_t stream, std::size_t pass_bytes, bool subtract)
{
    const std::size_t rows = c.rows, inner = a.cols, cols = c.cols, count = c.count;
    if (rows == 0 || inner == 0 || cols == 0 || count == 0) {  // zeros, or nothing
        if (subtract) return;
        return mat_mul_mod(a, b, moduli, c, stream);
    }
    check_shape(rows, inner, cols);
    const unsigned t = tensor_moduli_count(modulus_bits, inner);
    const SmallModuli s = small_moduli(t);
    const std::size_t padded = round_up(inner, kPadInner), ldc = round_up(cols, kPadCols);
    // A pass holds b's residues for its products, a's for its rows, and their sums.
    const std::size_t b_bytes = t * ldc * padded, row_bytes = t * (padded + ldc * sizeof(std::int32_t));
    std::size_t group = 1, band = rows;
    if (b_bytes + rows * row_bytes <= pass_bytes)
        group = std::min(count, pass_bytes / (b_bytes + rows * row_bytes));
    else
        band = std::clamp<std::size_t>((pass_bytes > b_bytes ? pass_bytes - b_bytes : 0) / row_bytes, 1, rows);

    StreamMemory weights(count * (t + 1) * sizeof(limb_t), stream), b_planes(group * b_bytes, stream);
    auto* w = static_cast<limb_t*>(weights.data());
    make_weights(moduli, count, s, w, stream);
    auto* bp = static_cast<std::int8_t*>(b_planes.data());
    for (std::size_t first = 0; first < count; first += group) {
        const std::size_t g = std::min(group, count - first);
        residues<true>(part(b, first, g, 0, b.rows), moduli + first, s, bp, ldc, padded, stream);
        multiply_planes(blas, part(a, first, g, 0, rows), bp, w + first * (t + 1), s, padded, ldc, band, moduli + first,
                        part(c, first, g, 0, rows), stream, subtract);
    }
}

}  // namespace

void mat_mul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, ConstMatricesView b, const Modulus* moduli,
                        unsigned modulus_bits, MatricesView c, cudaStream_t stream, std::size_t pass_bytes)
{
    tensor_product(blas, a, b, moduli, modulus_bits, c, stream, pass_bytes, false);
}

std::size_t TensorRightOperand::bytes(std::size_t inner, std::size_t cols, std::size_t count, unsigned modulus_bits)
{
    const std::size_t t = tensor_moduli_count(modulus_bits, std::max<std::size_t>(inner, 1));
    return count * (t * round_up(cols, kPadCols) * round_up(inner, kPadInner) + (t + 1) * sizeof(limb_t));
}

TensorRightOperand::TensorRightOperand(ConstMatricesView b, const Modulus* moduli, unsigned modulus_bits, cudaStream_t stream)
    : b_(b), moduli_(moduli), t_(tensor_moduli_count(modulus_bits, std::max<std::size_t>(b.rows, 1))),
      padded_(round_up(b.rows, kPadInner)), ldc_(round_up(b.cols, kPadCols))
{
    if (b.rows == 0 || b.cols == 0 || b.count == 0) return;
    check_shape(1, b.rows, b.cols);
    const SmallModuli& s = small_moduli(t_);
    planes_ = StreamMemory(b.count * t_ * ldc_ * padded_, stream);
    weights_ = StreamMemory(b.count * (t_ + 1) * sizeof(limb_t), stream);
    make_weights(moduli, b.count, s, static_cast<limb_t*>(weights_.data()), stream);
    residues<true>(b, moduli, s, static_cast<std::int8_t*>(planes_.data()), ldc_, padded_, stream);
}

void mat_mul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, const TensorRightOperand& b, MatricesView c,
                        cudaStream_t stream, std::size_t pass_bytes)
{
    if (c.rows == 0 || a.cols == 0 || c.cols == 0 || c.count == 0) return mat_mul_mod(a, b.b_, b.moduli_, c, stream);
    check_shape(c.rows, a.cols, c.cols);
    const std::size_t row_bytes = c.count * b.t_ * (b.padded_ + b.ldc_ * sizeof(std::int32_t));
    const std::size_t band = std::clamp<std::size_t>(pass_bytes / row_bytes, 1, c.rows);
    multiply_planes(blas, a, static_cast<const std::int8_t*>(b.planes_.data()), static_cast<const limb_t*>(b.weights_.data()),
                    small_moduli(b.t_), b.padded_, b.ldc_, band, b.moduli_, c, stream, false);
}

void mat_submul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, ConstMatricesView b, const Modulus* moduli,
                           unsigned modulus_bits, MatricesView c, cudaStream_t stream, std::size_t pass_bytes)
{
    tensor_product(blas, a, b, moduli, modulus_bits, c, stream, pass_bytes, true);
}

double mat_mul_tensor_terms(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count, unsigned modulus_bits)
{
    if (rows == 0 || inner == 0 || cols == 0 || count == 0) return 0;
    return double(tensor_moduli_count(modulus_bits, inner)) * double(count) * double(rows) * double(round_up(cols, kPadCols)) *
           double(round_up(inner, kPadInner));
}

}  // namespace zgpu::kernels
