// The one dispatch of operations on host data: choose the backend, run there, record which
// backend finished the call; and the shapes the choices weigh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "adapters/host_operand.hpp"
#include "plugin/host_ops/host_choice.hpp"
#include "zgpu/backend.hpp"

namespace zgpu {

// The automatic choice: the GPU where there is one and it pays (host_choice.hpp); ZGPU_BACKEND
// forces either.
Backend choose(bool gpu_pays);

// Runs the operation on `backend`: on_gpu() returns the backend that finished the call (the CPU
// where the host finished what a failing GPU left), on_cpu() runs it on the host threads. The
// backend that ran is recorded for zgpu_last_backend: on the GPU once on_gpu() returned, on the
// host before on_cpu() runs.
void run_on(Backend backend, const std::function<Backend()>& on_gpu, const std::function<void()>& on_cpu);

// The stride of a's elements times b's: the sum of their strides, as a size class.
std::uint32_t product_stride(const HostOperand& a, const HostOperand& b);

// Whether the product's stride stays within kMaxLimbs, as a batch needs.
bool product_fits_batch(const HostOperand& a, const HostOperand& b);

// For the choice: b moves once when shared, and not at all when it is a (squares: packed once).
HostShape shape_of(const HostOperand& a, const HostOperand& b, std::size_t count, std::size_t b_count);

}  // namespace zgpu
