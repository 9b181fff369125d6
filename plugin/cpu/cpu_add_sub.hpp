// The CPU backend of batched addition/subtraction: GMP's mpn layer, threaded over elements.
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::cpu {

// Same contract and results as kernels::add_sub (kernels/add_sub.hpp), on host memory.
void add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract);

}  // namespace zgpu::cpu
