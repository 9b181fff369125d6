#include "plugin/gpu/matrix/product_mod.hpp"

#include <algorithm>
#include <utility>

#include <cublas_v2.h>

#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/matrix/mat_mul_tensor.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// The device's cuBLAS handle, made on first use and kept by its runtime.
struct BlasHandle {
    BlasHandle()
    {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw Error("cuBLAS did not start on the device");
    }
    BlasHandle(BlasHandle&& other) noexcept : handle(std::exchange(other.handle, nullptr)) {}
    BlasHandle& operator=(BlasHandle&&) = delete;
    ~BlasHandle()
    {
        if (handle) cublasDestroy(handle);  // at exit the driver may be gone: no check
    }
    cublasHandle_t handle = nullptr;
};

// The tensor path pays a fixed cost an entry of a, b and c (their residues as bytes, the CRT of
// the t sums) and little a term; the integer units pay about a nanosecond-fraction a term. On
// the H200 the two met near 256 inner terms (bench/NOTES-matrices.md); the GEMMs want rows and
// columns to fill their tiles.
constexpr std::size_t kTensorFromInner = 256, kTensorFromSide = 32;

cublasHandle_t blas(Runtime& runtime) { return runtime.kept<BlasHandle>([] { return BlasHandle(); }).handle; }

}  // namespace

void start_tensor_products(Runtime& runtime) { blas(runtime); }

bool mat_mul_on_tensor_cores(std::size_t rows, std::size_t inner, std::size_t cols)
{
    return inner >= kTensorFromInner && std::min(rows, cols) >= kTensorFromSide;
}

void mat_mul_mod(Runtime& runtime, kernels::ConstMatricesView a, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                 unsigned modulus_bits, kernels::MatricesView c)
{
    if (!mat_mul_on_tensor_cores(c.rows, a.cols, c.cols)) return kernels::mat_mul_mod(a, b, moduli, c, runtime.stream());
    kernels::mat_mul_mod_tensor(blas(runtime), a, b, moduli, modulus_bits, c, runtime.stream());
}

}  // namespace zgpu::gpu
