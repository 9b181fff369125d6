// Products of matrices mod n as a tiled GEMM on the integer units: a block computes a BM x BN
// tile of one product of the batch. Stages of J inner terms go through shared memory (J columns
// of the tile's rows of a, transposed, and J rows of its columns of b), and each of the 128
// threads adds MM x MN products a term into exact sums in 32-bit digits (DigitSum: 4
// IMAD.WIDE.U32 and about 1.5 IADD3 a term, exact below 2^31 terms), reduced mod n once an
// entry at the end: no reduction in the inner loop, and any words as entries.
//
// Cost a term: 8 IMADs as the other kernels count them (four 32 x 32-bit products, low and
// high halves); shared memory (MM + MN) / (MM MN) = 1/2 word loaded a term with 4 x 4 entries
// a thread. Batches too small to give every SM blocks of 32 x 64 take smaller tiles (2 x 2 or
// 1 x 1 entries a thread): a 32 x 32 product on one block took 20 microseconds. One product
// with a long inner dimension and few such blocks runs its inner dimension in slices instead, a
// grid row each, whose products mod n a second kernel sums: one thread summing 2^24 terms one
// stage after another took seconds. The same kernel subtracts the product from c instead (an LU's
// trailing update), at one more subtraction an entry.
#include "kernels/matrix/mat_mul_mod.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/temporary.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 128, TM = 8, TN = 16, J = 16;
static_assert(TM * TN == kThreads);
// The largest tile (4 x 4 entries a thread), which the cost counts; smaller ones where a batch
// gives fewer blocks than this (two a streaming multiprocessor on an H100 or H200).
constexpr int kLargeEntries = 4;
constexpr std::size_t kFillBlocks = 264;
// Matrices of a batch a grid row each, the grid's y dimension at most this (more loop).
constexpr unsigned kMaxGridY = 65535;
// A sliced product's slices have this many inner terms at least, and its partial products take
// at most this many words.
constexpr std::size_t kSliceTerms = 4096, kMaxPartialWords = std::size_t(1) << 24;

template <bool Subtract, int MM, int MN>
__global__ void __launch_bounds__(kThreads, 2)
    mat_mul_mod_kernel(const ConstMatricesView a, const ConstMatricesView b, const Modulus* moduli, std::size_t modulus_step,
                       const MatricesView c)
{
    constexpr int BM = TM * MM, BN = TN * MN;
    __shared__ limb_t as[J][BM + 1];  // as[j][i] = a(row0 + i, k0 + j); +1: the transposing stores spread over banks
    __shared__ limb_t bs[J][BN];      // bs[j][i] = b(k0 + j, col0 + i)
    const int tid = threadIdx.x, tn = tid % TN, tm = tid / TN;
    const std::size_t col_tiles = (c.cols + BN - 1) / BN, inner = a.cols;
    const std::size_t row0 = blockIdx.x / col_tiles * BM, col0 = blockIdx.x % col_tiles * BN;
    for (std::size_t m = blockIdx.y; m < c.count; m += gridDim.y) {
        const limb_t *am = a.matrix(m), *bm = b.matrix(m);
        DigitSum acc[MM][MN];
        for (std::size_t k0 = 0; k0 < inner; k0 += J) {
            // Consecutive threads read consecutive words of a row of a, and of b.
            for (int e = tid; e < BM * J; e += kThreads) {
                const int i = e / J, j = e % J;
                const std::size_t row = row0 + i, k = k0 + j;
                as[j][i] = row < a.rows && k < inner ? am[row * a.row_stride + k] : 0;
            }
            for (int e = tid; e < J * BN; e += kThreads) {
                const int j = e / BN, i = e % BN;
                const std::size_t k = k0 + j, col = col0 + i;
                bs[j][i] = k < inner && col < b.cols ? bm[k * b.row_stride + col] : 0;
            }
            __syncthreads();
#pragma unroll 1
            for (int j = 0; j < J; ++j) {
                limb_t x[MM], y[MN];
#pragma unroll
                for (int i = 0; i < MM; ++i) x[i] = as[j][tm + TM * i];
#pragma unroll
                for (int q = 0; q < MN; ++q) y[q] = bs[j][tn + TN * q];
#pragma unroll
                for (int i = 0; i < MM; ++i)
#pragma unroll
                    for (int q = 0; q < MN; ++q) acc[i][q].add_product(x[i], y[q]);
            }
            __syncthreads();
        }
        const Modulus n = moduli[m * modulus_step];
        limb_t* cm = c.matrix(m);
#pragma unroll
        for (int i = 0; i < MM; ++i)
#pragma unroll
            for (int q = 0; q < MN; ++q) {
                const std::size_t row = row0 + tm + TM * i, col = col0 + tn + TN * q;
                if (row >= c.rows || col >= c.cols) continue;
                limb_t& entry = cm[row * c.row_stride + col];
                const limb_t product = n.reduce(acc[i][q].words());
                entry = Subtract ? n.sub(entry, product) : product;
            }
    }
}

// c = the sum of `parts` partial products mod n (c minus it where Subtract): partial p of c's
// entry (i, j) at p * words + i * cols + j.
template <bool Subtract>
__global__ void sum_slices_kernel(const limb_t* partial, std::size_t parts, const Modulus* moduli, const MatricesView c)
{
    const Modulus n = moduli[0];
    const std::size_t words = c.rows * c.cols;
    for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < words; e += std::size_t(gridDim.x) * blockDim.x) {
        limb_t sum = 0;
        for (std::size_t part = 0; part < parts; ++part) sum = n.add(sum, partial[part * words + e]);
        limb_t& entry = c.data[e / c.cols * c.row_stride + e % c.cols];
        entry = Subtract ? n.sub(entry, sum) : sum;
    }
}

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// Tiles of TM x TN threads of `entries` x `entries` each over c, one matrix of the batch.
std::size_t tiles(const MatricesView& c, int entries)
{
    return (c.rows + TM * entries - 1) / (TM * entries) * ((c.cols + TN * entries - 1) / (TN * entries));
}

// modulus_step 1: matrix m of the batch modulo moduli[m]; 0: all modulo moduli[0].
template <bool Subtract, int Entries>
void launch_tiles(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, std::size_t modulus_step, MatricesView c,
                  cudaStream_t stream)
{
    const dim3 grid(unsigned(tiles(c, Entries)), unsigned(std::min<std::size_t>(c.count, kMaxGridY)));
    mat_mul_mod_kernel<Subtract, Entries, Entries><<<grid, kThreads, 0, stream>>>(a, b, moduli, modulus_step, c);
}

// Slices a product of one matrix (c.count 1) takes: 0 where it runs whole.
std::size_t inner_slices(ConstMatricesView a, MatricesView c)
{
    if (c.count != 1 || tiles(c, 1) >= kFillBlocks || a.cols < 2 * kSliceTerms) return 0;
    return std::min(a.cols / kSliceTerms, kMaxPartialWords / (c.rows * c.cols));
}

// The product in `slices` slices of the inner dimension (the last may be shorter), each into
// its own partial product mod n, then their sum into c.
template <bool Subtract>
void launch_sliced(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, std::size_t slices,
                   cudaStream_t stream)
{
    const std::size_t inner = a.cols, length = (inner + slices - 1) / slices, full = inner / length, rest = inner - full * length;
    const std::size_t words = c.rows * c.cols, parts = full + (rest > 0);
    const StreamMemory memory(parts * words * sizeof(limb_t), stream);
    auto* partial = static_cast<limb_t*>(memory.data());
    const ConstMatricesView a_slices{a.data, a.rows, length, a.row_stride, length, full};
    const ConstMatricesView b_slices{b.data, length, b.cols, b.row_stride, length * b.row_stride, full};
    launch_tiles<false, 1>(a_slices, b_slices, moduli, 0, {partial, c.rows, c.cols, c.cols, words, full}, stream);
    if (rest > 0)
        launch_tiles<false, 1>(a.block(0, full * length, a.rows, rest), b.block(full * length, 0, rest, b.cols), moduli, 0,
                               {partial + full * words, c.rows, c.cols, c.cols, words, 1}, stream);
    const unsigned blocks = unsigned(std::min<std::size_t>((words + kThreads - 1) / kThreads, 1024));
    sum_slices_kernel<Subtract><<<blocks, kThreads, 0, stream>>>(partial, parts, moduli, c);
}

template <bool Subtract>
void launch(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, cudaStream_t stream)
{
    if (c.count == 0 || c.rows == 0 || c.cols == 0) return;
    // The digit sums are exact below 2^31 terms.
    if (a.cols >= (std::size_t(1) << 31))
        throw Error("mat_mul_mod: an inner dimension of " + std::to_string(a.cols) + " exceeds the 2^31 - 1 terms a sum takes");
    const std::size_t batch = std::min<std::size_t>(c.count, kMaxGridY);
    const int entries = tiles(c, kLargeEntries) * batch >= kFillBlocks ? kLargeEntries : tiles(c, 2) * batch >= kFillBlocks ? 2 : 1;
    if (tiles(c, entries) > 0x7fffffffu)
        throw Error("mat_mul_mod: " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + " is too large");
    if (const std::size_t slices = inner_slices(a, c); slices >= 2) launch_sliced<Subtract>(a, b, moduli, c, slices, stream);
    else if (entries == kLargeEntries) launch_tiles<Subtract, kLargeEntries>(a, b, moduli, 1, c, stream);
    else if (entries == 2) launch_tiles<Subtract, 2>(a, b, moduli, 1, c, stream);
    else launch_tiles<Subtract, 1>(a, b, moduli, 1, c, stream);
    check_launch(Subtract ? "mat_submul_mod" : "mat_mul_mod");
}

}  // namespace

void mat_mul_mod(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, cudaStream_t stream)
{
    launch<false>(a, b, moduli, c, stream);
}

void mat_submul_mod(ConstMatricesView a, ConstMatricesView b, const Modulus* moduli, MatricesView c, cudaStream_t stream)
{
    launch<true>(a, b, moduli, c, stream);
}

double mat_mul_mod_terms(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count)
{
    return double(round_up(rows, TM * kLargeEntries)) * double(round_up(inner, J)) * double(round_up(cols, TN * kLargeEntries)) *
           double(count);
}

}  // namespace zgpu::kernels
