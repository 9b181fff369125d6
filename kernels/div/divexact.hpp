// Launcher of exact division: Hensel's one-thread or block kernel (divexact_hensel.hpp) or
// Newton's method (divexact_newton.hpp), by the quotients' length (the measured choice is in
// divexact.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/mul/mul_context.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The method: automatic by size, or one forced where it applies (hensel: the one-thread
// kernel, block: the block kernel, else Newton's method; newton: always), to compare them.
enum class DivAlgorithm { automatic, hensel, block, newton };

// q[i] = a[i] / b[i] (b[0] if broadcast) for nonzero divisors that divide exactly, as
// fmpz_divexact; for a pair that does not, q[i] is some element within the stride. With
// first_inexact (device memory) given, the division is checked: *first_inexact is lowered to
// the first i whose division is not exact.
// Contract: views in device memory, strides size classes; every quotient fits q.stride, and
// q.stride + max(q.stride, b.stride) <= kMaxLimbs. Newton's products are kernels::mul's with
// `products`; temporaries come from `stream`'s pool. Only enqueues work on `stream`.
void divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, DivAlgorithm algorithm,
              const MulContext& products, unsigned long long* first_inexact, cudaStream_t stream);

}  // namespace zgpu::kernels
