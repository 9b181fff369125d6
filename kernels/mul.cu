// kernels::mul: the product algorithm by operand size.
#include "mul.hpp"

#include <algorithm>

#include "mul_classical.hpp"
#include "mul_ntt.hpp"

namespace zgpu::kernels {
namespace {

// The crossover, measured on an H200 (bench/results/, bench/NOTES-mul.md): the classical
// kernel up to this many limbs in the larger operand, the NTT above. At 4096 bits (64 limbs)
// the classical kernel ran 132 M products/s against the NTT's 49; at 8192 bits the NTT ran 42
// against 34.
constexpr std::uint32_t kClassicalUpToLimbs = 64;

bool use_ntt(ConstBatchView a, ConstBatchView b, MulAlgorithm algorithm)
{
    if (std::max(a.stride, b.stride) > kMulClassicalMaxLimbs) return true;
    if (algorithm != MulAlgorithm::automatic) return algorithm == MulAlgorithm::ntt;
    return std::max(a.stride, b.stride) > kClassicalUpToLimbs;
}

}  // namespace

MulWorkspace mul_workspace(ConstBatchView a, ConstBatchView b, bool broadcast_b, MulAlgorithm algorithm)
{
    return use_ntt(a, b, algorithm) ? mul_ntt_workspace(a, b, broadcast_b) : MulWorkspace{};
}

void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, MulAlgorithm algorithm,
         const NttTables& tables, std::span<std::uint32_t> workspace, cudaStream_t stream)
{
    if (a.count == 0) return;
    if (use_ntt(a, b, algorithm)) mul_ntt(a, b, r, broadcast_b, tables, workspace, stream);
    else mul_classical(a, b, r, broadcast_b, stream);
}

}  // namespace zgpu::kernels
