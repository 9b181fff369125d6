// Launcher of the batched signed multiplication (full products): classical, tensor-core or NTT
// by size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <cuda_runtime_api.h>

#include "kernels/ntt/ntt_tables.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

enum class MulAlgorithm { automatic, classical, tensor, ntt };

// Device workspace of a product launch, in 32-bit words: `minimum` runs it one product at a
// time, `whole_batch` in one pass. Zero for products that need none.
struct MulWorkspace {
    std::size_t minimum = 0, whole_batch = 0;
};
MulWorkspace mul_workspace(ConstBatchView a, ConstBatchView b, bool broadcast_b, MulAlgorithm algorithm);

// r[i] = a[i] * b[i] for i < a.count, the full signed product; with b.count == 1 and
// broadcast_b, r[i] = a[i] * b[0] (a scalar times a vector). `algorithm` automatic picks by
// size (the crossover table is in mul.cu); a forced algorithm runs where it applies (classical:
// strides up to kMulClassicalMaxLimbs; tensor: mul_tensor.hpp), the automatic choice elsewhere.
// With a and b the very same view (not broadcast) the NTT squares: one forward transform a
// product instead of two.
// Where mul_computes_low_products(a, b, algorithm), r may be shorter: r[i] is then the low
// product, sign(a[i] b[i]) (|a[i] b[i]| mod B^r.stride) (B = 2^64), in about the time of its
// limbs alone.
// Contract: views in device memory; every stride a size class; a.stride + b.stride at most
// kMaxLimbs; r.stride >= a.stride + b.stride but for low products; r does not overlap a, b or the workspace, which
// holds at least mul_workspace(...).minimum words (more lets larger chunks of the batch run
// at once). Every limb of r up to its stride and every size of r is written. Only enqueues
// work on `stream`.
void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, MulAlgorithm algorithm,
         const NttTables& tables, std::span<std::uint32_t> workspace, cudaStream_t stream);

// Whether mul takes an r shorter than a.stride + b.stride for these operands: where the product
// runs on the tensor-core kernel, which computes only the 16-limb tiles below r's stride.
bool mul_computes_low_products(ConstBatchView a, ConstBatchView b, MulAlgorithm algorithm);

// Largest operand stride of the classical kernel.
inline constexpr std::uint32_t kMulClassicalMaxLimbs = 256;

}  // namespace zgpu::kernels
