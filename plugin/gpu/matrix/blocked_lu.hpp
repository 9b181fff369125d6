// Determinants of matrices already in device memory by the blocked LU over the whole device
// (gpu_nmod_mat_lu.cpp), one matrix after another: for a few primes and large matrices, where
// det_mod's block a matrix would leave most of the device idle. Only plugin/gpu/ includes it.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "kernels/matrix/matrix_view.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// det of matrix b of `a` (square, entries below moduli[b]) modulo moduli[b], prime, for each b <
// moduli.size(); a is overwritten. The caller holds the runtime's lease; the host waits for each
// matrix, then tells matrix_done (where not empty).
std::vector<limb_t> dets_by_blocked_lu(Runtime& runtime, kernels::MatricesView a, std::span<const limb_t> moduli,
                                       const std::function<void()>& matrix_done);

}  // namespace zgpu::gpu
