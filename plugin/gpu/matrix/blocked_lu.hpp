// The determinant of one matrix already in device memory by the blocked LU over the whole device
// (gpu_nmod_mat_lu.cpp), which pivots: where block recursion (block_inverse.hpp) gives 0 and so
// cannot tell a singular matrix from a singular leading block. Only plugin/gpu/ includes it.
#pragma once

#include "kernels/matrix/matrix_view.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// det(a) mod p for one square matrix a (entries below p, prime), which is overwritten. The
// caller holds the runtime's lease; the host waits for the result.
limb_t det_by_blocked_lu(Runtime& runtime, kernels::MatricesView a, limb_t p);

}  // namespace zgpu::gpu
