// Matrix products mod n on the GPU, on the integer units (kernels/matrix/mat_mul_mod.hpp) and on
// the 8-bit tensor cores (kernels/matrix/mat_mul_tensor.hpp), against a plain reference (128-bit
// products reduced a term at a time): any words as entries (all ones included), every modulus
// size, the tiles' and the padding's edges, row strides wider than the rows, a batch with a
// modulus a matrix, more matrices than the grid's rows; for the tensor cores the tightest sums
// of a GEMM at the inner chunk's length and past it, the largest products the CRT rebuilds,
// passes in groups and bands, and b prepared once for bands of a's rows; mat_submul_mod on an LU's
// trailing block.
#include <algorithm>
#include <bit>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "kernels/matrix/lu_panel_mod.hpp"
#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/matrix/mat_mul_tensor.hpp"
#include "kernels/matrix/tensor_moduli.hpp"
#include "kernels/modular/ntt_primes.hpp"

namespace zgpu::testing {
namespace {

struct Shape {
    std::size_t rows, inner, cols, count;
};

// An operand's entries: random words, all ones, or a value chosen for the bounds.
using Entries = std::function<limb_t(std::mt19937_64&)>;
const Entries kRandom = [](std::mt19937_64& random) { return limb_t(random()); };
const Entries kAllOnes = [](std::mt19937_64&) { return ~limb_t(0); };
Entries constant(limb_t x)
{
    return [x](std::mt19937_64&) { return x; };
}

std::vector<limb_t> words(std::size_t size, std::mt19937_64& random, const Entries& entries)
{
    std::vector<limb_t> w(size);
    for (limb_t& x : w) x = entries(random);
    return w;
}

// The product on the integer units, or on the tensor cores in passes of at most pass_bytes;
// there with b prepared once (kernels::TensorRightOperand) where band_rows > 0, and a's rows in
// bands of that many, each its own call.
struct Units {
    bool tensor = false;
    std::size_t pass_bytes = kernels::kTensorPassBytes;
    std::size_t band_rows = 0;
};

limb_t reference_entry(const limb_t* a, const limb_t* b, std::size_t i, std::size_t j, const Shape& s, std::size_t a_stride,
                       std::size_t b_stride, limb_t n)
{
    unsigned __int128 sum = 0;
    for (std::size_t k = 0; k < s.inner; ++k)
        sum = (sum + (unsigned __int128)a[i * a_stride + k] * b[k * b_stride + j] % n) % n;
    return limb_t(sum);
}

class BlasHandle {
public:
    BlasHandle() { EXPECT_EQ(cublasCreate(&handle_), CUBLAS_STATUS_SUCCESS); }
    ~BlasHandle() { cublasDestroy(handle_); }
    BlasHandle(const BlasHandle&) = delete;
    BlasHandle& operator=(const BlasHandle&) = delete;
    cublasHandle_t get() const { return handle_; }

private:
    cublasHandle_t handle_ = nullptr;
};

void check_products(const Shape& s, const std::vector<limb_t>& moduli, const Entries& a_entries, const Entries& b_entries,
                    std::uint64_t seed, Units units = {})
{
    std::mt19937_64 random(seed);
    const std::size_t a_stride = s.inner + 3, b_stride = s.cols + 1, c_stride = s.cols + 2;
    const std::size_t a_size = s.rows * a_stride, b_size = s.inner * b_stride, c_size = s.rows * c_stride;
    const std::vector<limb_t> a = words(a_size * s.count, random, a_entries), b = words(b_size * s.count, random, b_entries);
    std::vector<kernels::Modulus> m;
    limb_t largest = 0;
    for (std::size_t t = 0; t < s.count; ++t) {
        m.push_back(kernels::make_modulus(moduli[t % moduli.size()]));
        largest = std::max(largest, m.back().n);
    }
    DeviceArray<limb_t> da(a), db(b), dc(std::vector<limb_t>(c_size * s.count, 0x5a5a5a5a5a5a5a5aull));
    DeviceArray<kernels::Modulus> dm(m);
    const kernels::ConstMatricesView av{da.data(), s.rows, s.inner, a_stride, a_size, s.count};
    const kernels::ConstMatricesView bv{db.data(), s.inner, s.cols, b_stride, b_size, s.count};
    const kernels::MatricesView cv{dc.data(), s.rows, s.cols, c_stride, c_size, s.count};
    if (units.tensor) {
        const BlasHandle handle;
        const kernels::BlasFunctions blas{handle.get(), &cublasSetStream, &cublasGemmStridedBatchedEx, &cublasGetStatusString};
        const unsigned bits = unsigned(std::bit_width(largest));
        if (units.band_rows == 0) {
            kernels::mat_mul_mod_tensor(blas, av, bv, dm.data(), bits, cv, nullptr, units.pass_bytes);
        } else {
            const kernels::TensorRightOperand prepared(bv, dm.data(), bits, nullptr);
            for (std::size_t row0 = 0; row0 < s.rows; row0 += units.band_rows) {
                const std::size_t r = std::min(units.band_rows, s.rows - row0);
                kernels::mat_mul_mod_tensor(blas, {av.data + row0 * a_stride, r, s.inner, a_stride, a_size, s.count}, prepared,
                                            {cv.data + row0 * c_stride, r, s.cols, c_stride, c_size, s.count}, nullptr,
                                            units.pass_bytes);
            }
        }
    } else {
        kernels::mat_mul_mod(av, bv, dm.data(), cv, nullptr);
    }
    const std::vector<limb_t> c = dc.download();
    for (std::size_t t = 0; t < s.count; ++t)
        for (std::size_t i = 0; i < s.rows; ++i) {
            for (std::size_t j = 0; j < s.cols; ++j)
                ASSERT_EQ(c[t * c_size + i * c_stride + j],
                          reference_entry(a.data() + t * a_size, b.data() + t * b_size, i, j, s, a_stride, b_stride, m[t].n))
                    << "matrix " << t << " entry (" << i << ", " << j << "), shape " << s.rows << " x " << s.inner << " x "
                    << s.cols << " mod " << m[t].n << (units.tensor ? " (tensor cores)" : "");
            for (std::size_t j = s.cols; j < c_stride; ++j)
                ASSERT_EQ(c[t * c_size + i * c_stride + j], 0x5a5a5a5a5a5a5a5aull) << "written past a row";
        }
}

class MatMulMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

TEST_F(MatMulMod, AnyWordsModuloEveryModulusSize)
{
    const std::vector<limb_t> moduli = {2, 3, 1000003, kernels::ntt_primes(1)[0], (limb_t(1) << 63) + 29, ~limb_t(0) - 58, ~limb_t(0)};
    for (const limb_t n : moduli)
        for (const Entries& entries : {kRandom, kAllOnes}) check_products({33, 40, 65, 1}, {n}, entries, entries, n);
}

TEST_F(MatMulMod, TileEdges)
{
    for (const std::size_t rows : {1, 31, 32, 33})
        for (const std::size_t inner : {1, 15, 16, 17})
            for (const std::size_t cols : {1, 63, 64, 65})
                check_products({rows, inner, cols, 1}, {kernels::ntt_primes(1)[0]}, kRandom, kRandom, rows * inner + cols);
}

TEST_F(MatMulMod, EveryTileSizeAtItsEdges)
{
    // 264 blocks or more take tiles of 32 x 64 entries, then 16 x 32, else 8 x 16: each shape one
    // entry past a tile both ways, in a batch that picks that tile.
    const std::vector<limb_t> primes = kernels::ntt_primes(66);
    check_products({33, 17, 65, 66}, primes, kRandom, kRandom, 4);
    check_products({17, 17, 33, 66}, primes, kRandom, kRandom, 5);
    check_products({9, 17, 17, 1}, {primes[0]}, kRandom, kRandom, 6);
    check_products({7, 33, 15, 1}, {~limb_t(0)}, kAllOnes, kAllOnes, 7);
}

TEST_F(MatMulMod, LongInnerDimensionsOfFewEntriesInSlices)
{
    // One product with few entries and 8192 inner terms or more runs its inner dimension in
    // slices of 4096 or more: equal ones, a shorter last one, every word 2^64 - 1.
    check_products({1, 8192, 1, 1}, {(limb_t(1) << 62) - 57}, kRandom, kRandom, 8);
    check_products({3, 20001, 5, 1}, {~limb_t(0) - 58}, kAllOnes, kAllOnes, 9);
    check_products({1, 1 << 20, 2, 1}, {~limb_t(0)}, kAllOnes, kAllOnes, 10);
    check_products({40, 9000, 17, 1}, {kernels::ntt_primes(1)[0]}, kRandom, kRandom, 11);
    check_products({2, 8191, 2, 1}, {3}, kRandom, kRandom, 12);  // whole: one slice short of two
    // Subtracted from c, in slices of 4097 and 4096 (8193 terms): c - a b.
    const Shape s{2, 8193, 3, 1};
    const limb_t n = ~limb_t(0) - 58;
    std::mt19937_64 random(13);
    const std::vector<limb_t> a = words(s.rows * s.inner, random, kRandom), b = words(s.inner * s.cols, random, kAllOnes);
    std::vector<limb_t> c(s.rows * s.cols);
    for (limb_t& x : c) x = random() % n;
    DeviceArray<limb_t> da(a), db(b), dc(c);
    DeviceArray<kernels::Modulus> dm(std::vector<kernels::Modulus>{kernels::make_modulus(n)});
    kernels::mat_submul_mod({da.data(), s.rows, s.inner, s.inner, 0, 1}, {db.data(), s.inner, s.cols, s.cols, 0, 1}, dm.data(),
                            {dc.data(), s.rows, s.cols, s.cols, 0, 1}, nullptr);
    const std::vector<limb_t> got = dc.download();
    for (std::size_t i = 0; i < s.rows; ++i)
        for (std::size_t j = 0; j < s.cols; ++j) {
            const limb_t product = reference_entry(a.data(), b.data(), i, j, s, s.inner, s.cols, n), before = c[i * s.cols + j];
            EXPECT_EQ(got[i * s.cols + j], before >= product ? before - product : before + (n - product)) << "entry " << i << ", " << j;
        }
}

TEST_F(MatMulMod, LongInnerSumsOfAllOnes)
{
    // 5000 terms of (2^64 - 1)^2: the digit sums' top digits carry thousands.
    check_products({3, 5000, 70, 1}, {~limb_t(0) - 58}, kAllOnes, kAllOnes, 1);
}

TEST_F(MatMulMod, BatchesWithAModulusAMatrix)
{
    check_products({17, 20, 30, 7}, kernels::ntt_primes(7), kRandom, kRandom, 2);
    // More matrices than the grid has rows (65535).
    check_products({1, 2, 1, 70000}, {2, 3, 5, ~limb_t(0)}, kRandom, kRandom, 3);
}

TEST_F(MatMulMod, TensorCoresModuloEveryModulusSize)
{
    const std::vector<limb_t> moduli = {2, 3, 255, 256, 257, 1000003, (limb_t(1) << 31) - 1, limb_t(1) << 32, kernels::ntt_primes(1)[0],
                                        (limb_t(1) << 63) + 29, ~limb_t(0) - 58, ~limb_t(0)};
    for (const limb_t n : moduli)
        for (const Entries& entries : {kRandom, kAllOnes, constant(n - 1)})
            check_products({33, 40, 65, 1}, {n}, entries, entries, n, {true});
}

TEST_F(MatMulMod, TensorCoresAtThePaddingsEdges)
{
    for (const std::size_t rows : {1, 3, 4, 5})
        for (const std::size_t inner : {1, 15, 16, 17, 33})
            for (const std::size_t cols : {1, 3, 4, 5, 130})
                check_products({rows, inner, cols, 2}, {kernels::ntt_primes(1)[0], 257}, kRandom, kRandom, rows * inner + cols, {true});
}

TEST_F(MatMulMod, TensorCoresAtTheBoundsOfTheirSums)
{
    const limb_t p = kernels::ntt_primes(1)[0];
    const std::size_t chunk = kernels::kTensorInnerChunk;
    // 128 is -128 mod 256 (the first small modulus): every term adds 2^14, the most a GEMM's
    // 32-bit sum takes, over a whole chunk, then one chunk and one term, then two chunks and more.
    for (const std::size_t inner : {chunk, chunk + 1, 2 * chunk + 5})
        check_products({1, inner, 2, 1}, {p}, constant(128), constant(128), inner, {true});
    // The largest |c| = inner ((n - 1) / 2)^2 the CRT rebuilds, of both signs, for the largest
    // moduli: entries (n - 1) / 2 lift to themselves, (n + 1) / 2 to -(n - 1) / 2.
    for (const limb_t n : {~limb_t(0) - 58, ~limb_t(0)})
        for (const limb_t b : {(n - 1) / 2, (n + 1) / 2})
            check_products({2, 3000, 3, 1}, {n}, constant((n - 1) / 2), constant(b), n + b, {true});
}

TEST_F(MatMulMod, TensorCoresInGroupsAndBands)
{
    // Passes of a few KiB: one product at a time in bands of rows, and groups of products.
    check_products({37, 50, 41, 5}, kernels::ntt_primes(5), kRandom, kRandom, 4, {true, 32 << 10});
    check_products({7, 20, 9, 9}, {3, 1000003, ~limb_t(0)}, kRandom, kRandom, 5, {true, 60 << 10});
    check_products({17, 20, 30, 7}, kernels::ntt_primes(7), kRandom, kRandom, 6, {true});
    check_products({1, 2, 1, 70000}, {2, 3, 5, ~limb_t(0)}, kRandom, kRandom, 7, {true});
}

TEST_F(MatMulMod, TensorCoresByAPreparedRightOperandInBandsOfRows)
{
    // Bands that divide the rows and do not, one row a band, a band of all rows; within each
    // call, passes of a few KiB; every modulus size; the tightest sums past a chunk.
    const std::size_t whole = kernels::kTensorPassBytes, chunk = kernels::kTensorInnerChunk;
    const limb_t p = kernels::ntt_primes(1)[0], n = (limb_t(1) << 63) + 29;
    check_products({37, 50, 41, 5}, kernels::ntt_primes(5), kRandom, kRandom, 8, {true, whole, 10});
    check_products({12, 33, 17, 3}, {2, 257, ~limb_t(0)}, kAllOnes, kRandom, 9, {true, whole, 1});
    check_products({40, 64, 9, 4}, kernels::ntt_primes(4), kRandom, kRandom, 10, {true, 16 << 10, 40});
    check_products({33, 40, 65, 1}, {n}, constant(n - 1), kAllOnes, 11, {true, whole, 8});
    check_products({3, chunk + 1, 2, 1}, {p}, constant(128), constant(128), 12, {true, whole, 2});
}

TEST_F(MatMulMod, SubtractsFromAnLuTrailingBlockOfTheSameMatrix)
{
    // The views lu_trailing_update names after a panel: l left of the block, u above it, all in
    // one matrix with a row stride wider than its rows; nothing outside the block changes. On the
    // integer units, and on the tensor cores in bands of a few rows (the block's rows written
    // before the next band's l is read).
    const std::size_t rows = 70, cols = 90, stride = 93, r0 = 5, k0 = 10, k1 = 26;
    const BlasHandle handle;
    const kernels::BlasFunctions blas{handle.get(), &cublasSetStream, &cublasGemmStridedBatchedEx, &cublasGetStatusString};
    for (const bool tensor : {false, true})
        for (const limb_t n : {limb_t(3), kernels::ntt_primes(1)[0], ~limb_t(0) - 58})
            for (const std::size_t pivots : {std::size_t(1), std::size_t(11), std::size_t(16)}) {
                std::mt19937_64 random(n + pivots);
                std::vector<limb_t> before(rows * stride);
                for (limb_t& x : before) x = random() % n;
                DeviceArray<limb_t> d(before);
                DeviceArray<kernels::Modulus> dm(std::vector<kernels::Modulus>{kernels::make_modulus(n)});
                const kernels::LuTrailingUpdate update = kernels::lu_trailing_update({d.data(), rows, cols, stride, 0, 1}, r0, pivots, k0, k1);
                if (tensor)
                    kernels::mat_submul_mod_tensor(blas, update.l, update.u, dm.data(), unsigned(std::bit_width(n)), update.a, nullptr, 4096);
                else
                    kernels::mat_submul_mod(update.l, update.u, dm.data(), update.a, nullptr);
                const std::vector<limb_t> after = d.download();
                const std::size_t below = r0 + pivots;
                for (std::size_t i = 0; i < rows; ++i)
                    for (std::size_t j = 0; j < stride; ++j) {
                        limb_t expected = before[i * stride + j];
                        if (i >= below && j >= k1 && j < cols) {
                            unsigned __int128 sum = 0;
                            for (std::size_t t = 0; t < pivots; ++t)
                                sum = (sum + (unsigned __int128)before[i * stride + k0 + t] * before[(r0 + t) * stride + j]) % n;
                            expected = expected >= limb_t(sum) ? expected - limb_t(sum) : expected + (n - limb_t(sum));
                        }
                        ASSERT_EQ(after[i * stride + j], expected)
                            << "entry (" << i << ", " << j << ") mod " << n << ", " << pivots << " pivots" << (tensor ? ", tensor cores" : "");
                    }
            }
}

}  // namespace
}  // namespace zgpu::testing
