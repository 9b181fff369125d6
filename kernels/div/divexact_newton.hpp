// Launcher of exact division by Newton's 2-adic inverse, for long quotients: the elementwise
// steps of div_steps.hpp between low products (the method and its cost: divexact_newton.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/mul/mul_context.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// The contract of divexact_hensel (divexact_hensel.hpp) for any quotient stride with
// q.stride + max(q.stride, b.stride) <= kMaxLimbs: q[i] = a[i] / b[i] (b[0] if broadcast), and
// with first_inexact given, *first_inexact lowered to the first i where q[i] b[i] != a[i]. The
// products are kernels::mul's with `products`; temporaries come from `stream`'s pool.
void divexact_newton(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, const MulContext& products,
                     unsigned long long* first_inexact, cudaStream_t stream);

}  // namespace zgpu::kernels
