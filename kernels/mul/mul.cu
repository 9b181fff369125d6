// kernels::mul: the product algorithm by operand size.
#include "kernels/mul/mul.hpp"

#include <algorithm>
#include <string>

#include "kernels/mul/mul_classical.hpp"
#include "kernels/mul/mul_ntt.hpp"
#include "kernels/mul/mul_tensor.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

// The crossovers, measured on an H200 (bench/results/, bench/NOTES-mul.md), by the limbs of
// the larger operand: the tensor-core kernel from kTensorFromLimbs where it applies (both
// operands of kMulTensorMinLimbs .. kMulTensorMaxLimbs limbs); elsewhere the classical kernel up
// to kClassicalUpToLimbs, the NTT above. M products/s, classical / tensor / NTT: 1024 bits 3063 /
// 1203 / 97, 2048 bits 506 / 726 / 76, 16384 bits 7.5 / 44.3 / 20.5, 32768 bits - / 13.2 / 10.0.
constexpr std::uint32_t kTensorFromLimbs = 32, kClassicalUpToLimbs = 64;

enum class Kernel { classical, tensor, ntt };

Kernel automatic_kernel(ConstBatchView a, ConstBatchView b)
{
    const std::uint32_t larger = std::max(a.stride, b.stride);
    if (larger >= kTensorFromLimbs && mul_tensor_applies(a, b)) return Kernel::tensor;
    return larger <= kClassicalUpToLimbs ? Kernel::classical : Kernel::ntt;
}

// A forced algorithm where it applies, else the automatic choice.
Kernel kernel_for(ConstBatchView a, ConstBatchView b, MulAlgorithm algorithm)
{
    switch (algorithm) {
    case MulAlgorithm::classical:
        if (std::max(a.stride, b.stride) <= kMulClassicalMaxLimbs) return Kernel::classical;
        break;
    case MulAlgorithm::tensor:
        if (mul_tensor_applies(a, b)) return Kernel::tensor;
        break;
    case MulAlgorithm::ntt: return Kernel::ntt;
    case MulAlgorithm::automatic: break;
    }
    return automatic_kernel(a, b);
}

}  // namespace

bool mul_computes_low_products(ConstBatchView a, ConstBatchView b, MulAlgorithm algorithm)
{
    return kernel_for(a, b, algorithm) == Kernel::tensor;
}

MulWorkspace mul_workspace(ConstBatchView a, ConstBatchView b, bool broadcast_b, MulAlgorithm algorithm)
{
    return kernel_for(a, b, algorithm) == Kernel::ntt ? mul_ntt_workspace(a, b, broadcast_b) : MulWorkspace{};
}

void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, MulAlgorithm algorithm,
         const NttTables& tables, std::span<std::uint32_t> workspace, cudaStream_t stream)
{
    if (a.count == 0) return;
    const Kernel kernel = kernel_for(a, b, algorithm);
    if (r.stride < a.stride + b.stride && kernel != Kernel::tensor)
        throw Error("mul: internal error: a low product (" + std::to_string(r.stride) + " limbs) on a kernel that computes whole ones");
    switch (kernel) {
    case Kernel::classical: return mul_classical(a, b, r, broadcast_b, stream);
    case Kernel::tensor: return mul_tensor(a, b, r, broadcast_b, stream);
    case Kernel::ntt: return mul_ntt(a, b, r, broadcast_b, tables, workspace, stream);
    }
}

}  // namespace zgpu::kernels
