#include "plugin/gpu/matrix/product_mod.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <type_traits>
#include <utility>

#include <cublas_v2.h>

#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/matrix/mat_mul_tensor.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// cuBLAS, loaded when the tensor cores are first wanted rather than linked: linking it loads
// its libraries (600 MB with cuBLASLt) into every program that loads zgpu, 0.2 s and 200 MB of
// memory a process on the developer machine, the FLINT plugin's passed-on calls included.
struct BlasLibrary {
    decltype(&cublasCreate) create = nullptr;
    decltype(&cublasDestroy) destroy = nullptr;
    kernels::BlasFunctions functions;
};

// Loaded once; empty where the library or a function is missing, which is said once on stderr.
const std::optional<BlasLibrary>& blas_library()
{
    static const std::optional<BlasLibrary> loaded = []() -> std::optional<BlasLibrary> {
        void* library = dlopen(ZGPU_CUBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        BlasLibrary blas;
        const auto find = [&](auto& function, const char* name) {
            if (library) function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
            return function != nullptr;
        };
        // cublas_v2.h names the first three by macros for these symbols.
        if (find(blas.create, "cublasCreate_v2") && find(blas.destroy, "cublasDestroy_v2") &&
            find(blas.functions.set_stream, "cublasSetStream_v2") && find(blas.functions.gemm, "cublasGemmStridedBatchedEx") &&
            find(blas.functions.status_string, "cublasGetStatusString"))
            return blas;
        const char* why = dlerror();
        std::fprintf(stderr, "zgpu: %s did not load (%s); matrix products mod n run on the integer units\n", ZGPU_CUBLAS_LIBRARY,
                     why ? why : "a function is missing");
        return std::nullopt;
    }();
    return loaded;
}

// The device's cuBLAS handle, made on first use and kept by its runtime.
struct BlasHandle {
    explicit BlasHandle(const BlasLibrary& library) : blas(library)
    {
        if (blas.create(&blas.functions.handle) != CUBLAS_STATUS_SUCCESS) throw Error("cuBLAS did not start on the device");
    }
    BlasHandle(BlasHandle&& other) noexcept : blas(std::exchange(other.blas, BlasLibrary{})) {}
    BlasHandle& operator=(BlasHandle&&) = delete;
    ~BlasHandle()
    {
        if (blas.functions.handle) blas.destroy(blas.functions.handle);  // at exit the driver may be gone: no check
    }
    BlasLibrary blas;
};

// The runtime's functions and handle, or nothing where cuBLAS is missing.
const kernels::BlasFunctions* blas(Runtime& runtime)
{
    const std::optional<BlasLibrary>& library = blas_library();
    if (!library) return nullptr;
    return &runtime.kept<BlasHandle>([&] { return BlasHandle(*library); }).blas.functions;
}

// The tensor path pays a fixed cost an entry of a, b and c (their residues as bytes, the CRT of
// the t sums) and about 65 microseconds a call however small; the integer units pay about a
// nanosecond-fraction a term, and their smaller tiles keep every SM busy down to small batches.
// On the H200 one product of 256 x 256 x 256 took 0.041 ms on the integer units and 0.071 on the
// tensor cores, of 512 0.162 and 0.101, and 64 products of 256 1.01 and 0.56
// (bench/NOTES-matrices.md). The GEMMs want rows and columns to fill their tiles. Long inner
// dimensions go to the tensor cores even in small products: each thread of the integer units
// sums its terms one after another, about 15 ns a term.
constexpr std::size_t kTensorFromInner = 256, kTensorFromSide = 32, kIntegerUnitsUpToTerms = std::size_t(1) << 24,
                      kIntegerUnitsUpToInner = 4096;

// cuBLAS's functions where the product goes to the tensor cores and cuBLAS loads; else null.
const kernels::BlasFunctions* tensor_cores_for(Runtime& runtime, kernels::ConstMatricesView a, kernels::MatricesView c)
{
    return mat_mul_on_tensor_cores(c.rows, a.cols, c.cols, c.count) ? blas(runtime) : nullptr;
}

}  // namespace

void start_tensor_products(Runtime& runtime) { blas(runtime); }

bool mat_mul_on_tensor_cores(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count)
{
    if (inner < kTensorFromInner || std::min(rows, cols) < kTensorFromSide) return false;
    const double terms = double(rows) * double(inner) * double(cols) * double(count);
    return terms > double(kIntegerUnitsUpToTerms) || inner > kIntegerUnitsUpToInner;
}

void mat_mul_mod(Runtime& runtime, kernels::ConstMatricesView a, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                 unsigned modulus_bits, kernels::MatricesView c)
{
    const kernels::BlasFunctions* functions = tensor_cores_for(runtime, a, c);
    if (!functions) return kernels::mat_mul_mod(a, b, moduli, c, runtime.stream());
    kernels::mat_mul_mod_tensor(*functions, a, b, moduli, modulus_bits, c, runtime.stream());
}

RightOperandProducts::RightOperandProducts(Runtime& runtime, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                                           unsigned modulus_bits, std::size_t band_rows)
    : runtime_(runtime), b_(b), moduli_(moduli), modulus_bits_(modulus_bits),
      blas_(mat_mul_on_tensor_cores(band_rows, b.rows, b.cols, b.count) ? blas(runtime) : nullptr)
{
    if (blas_ && kernels::TensorRightOperand::bytes(b.rows, b.cols, b.count, modulus_bits) <= kernels::kTensorPassBytes)
        tensor_.emplace(b, moduli, modulus_bits, runtime.stream());
}

void RightOperandProducts::multiply(kernels::ConstMatricesView a, kernels::MatricesView c) const
{
    if (!tensor_) return mat_mul_mod(runtime_, a, b_, moduli_, modulus_bits_, c);
    kernels::mat_mul_mod_tensor(*blas_, a, *tensor_, c, runtime_.stream());
}

void mat_submul_mod(Runtime& runtime, kernels::ConstMatricesView a, kernels::ConstMatricesView b, const kernels::Modulus* moduli,
                    unsigned modulus_bits, kernels::MatricesView c)
{
    const kernels::BlasFunctions* functions = tensor_cores_for(runtime, a, c);
    if (!functions) return kernels::mat_submul_mod(a, b, moduli, c, runtime.stream());
    kernels::mat_submul_mod_tensor(*functions, a, b, moduli, modulus_bits, c, runtime.stream());
}

}  // namespace zgpu::gpu
