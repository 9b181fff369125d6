// The CPU backend of batched multiplication: GMP's mpn layer, threaded over elements.
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::cpu {

// Same contract and results as kernels::mul (kernels/mul.hpp), on host memory, any size.
void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b);

}  // namespace zgpu::cpu
