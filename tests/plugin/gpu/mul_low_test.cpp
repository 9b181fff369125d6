// Low products on the GPU (kernels::mul_low with the runtime's context: r = a b mod B^n with
// the product's sign), which the 2-adic division multiplies with, against GMP: on the
// tensor-core kernel, which computes only the tiles below n, and cut from full products
// elsewhere.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "batch_checks.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "random_integers.hpp"
#include "zgpu/device_batch.hpp"
#ifdef ZGPU_WITH_CUDA
#include "kernels/mul/mul_context.hpp"
#include "plugin/gpu/gpu_mul.hpp"
#endif

namespace zgpu::testing {
namespace {

struct LowShape {
    std::uint32_t a_limbs, b_limbs, r_limbs;
};

// Every tensor-kernel shape a low product can take (1 to 64 tiles, r's stride not a multiple of
// 16 limbs or below one tile, b longer than r, long operands with a short r), the kernel's edges
// (8 and 512 limbs), and products it does not take (6 limbs, 1024 limbs: cut from whole
// products). Run with the automatic choice (the classical kernel below 32 limbs, cut from whole
// products too) and with the tensor-core kernel forced.
const std::vector<LowShape> kShapes = {{8, 8, 1},       {8, 8, 2},       {512, 512, 8},  {512, 512, 64},
                                       {8, 8, 8},       {8, 8, 12},      {16, 8, 16},    {32, 16, 32},    {64, 64, 64},
                                       {128, 64, 128},  {64, 64, 40},    {144, 128, 144}, {160, 160, 160}, {256, 256, 256},
                                       {512, 256, 512}, {512, 512, 512}, {512, 512, 960}, {288, 512, 72},
                                       {6, 6, 6},       {1024, 512, 1024}};

// Each shape runs with ZGPU_MUL_ALGORITHM set; it is unset however the test ends.
class MulLow : public ::testing::Test {
protected:
    void TearDown() override { unsetenv("ZGPU_MUL_ALGORITHM"); }
};

TEST_F(MulLow, MatchesGmpOnEveryShape)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    IntegerSource source(61);
    for (const char* algorithm : {"auto", "tensor"}) {
        for (const auto& [a_limbs, b_limbs, r_limbs] : kShapes) {
            setenv("ZGPU_MUL_ALGORITHM", algorithm, 1);
            for (const bool broadcast : {false, true}) {
                const std::size_t n = 67;
                MpzArray a(n), b(broadcast ? 1 : n), expected(n);
                for (std::size_t i = 0; i < n; ++i) {
                    // All-ones operands (the largest column sums), random ones, shorter ones, zero.
                    const Shape shape = i % 3 == 0 ? Shape::all_ones : Shape::random;
                    if (i % 11 == 4) mpz_set_ui(a[i], 0);
                    else source.set(a[i], i % 5 == 2 ? a_limbs / 2 + 1 : a_limbs, shape, i % 2);
                    if (i < b.size()) source.set(b[i], i % 7 == 1 ? b_limbs - 1 : b_limbs, shape, i % 4 == 1);
                }
                for (std::size_t i = 0; i < n; ++i) {
                    mpz_t magnitude;
                    mpz_init(magnitude);
                    mpz_mul(magnitude, a[i], b[broadcast ? 0 : i]);
                    const int sign = mpz_sgn(magnitude);
                    mpz_abs(magnitude, magnitude);
                    mpz_fdiv_r_2exp(expected[i], magnitude, 64 * r_limbs);
                    if (sign < 0) mpz_neg(expected[i], expected[i]);
                    mpz_clear(magnitude);
                }
                const std::string context = std::to_string(a_limbs) + " x " + std::to_string(b_limbs) + " mod B^" +
                                            std::to_string(r_limbs) + (broadcast ? ", shared b, " : ", ") + algorithm;
                const DeviceBatch da = DeviceBatch::upload(adapters::pack_mpz_array(a.data(), n).view(), Backend::gpu);
                const DeviceBatch db = DeviceBatch::upload(adapters::pack_mpz_array(b.data(), b.size()).view(), Backend::gpu);
                ASSERT_EQ(da.stride(), a_limbs) << context;
                ASSERT_EQ(db.stride(), b_limbs) << context;
                ASSERT_EQ(size_class(r_limbs), r_limbs) << context;
                DeviceBatch r(Backend::gpu, n, r_limbs, DeviceBatch::Uninitialized{});
                auto& runtime = gpu::Runtime::get();
                {
                    const gpu::Runtime::Lease lease(runtime);
                    kernels::mul_low(da.view(), db.view(), r.view(), broadcast, gpu::mul_context(runtime), runtime.stream());
                }
                expect_batch_equals(r.download(), expected, context);
            }
        }
    }
#endif
}

}  // namespace
}  // namespace zgpu::testing
