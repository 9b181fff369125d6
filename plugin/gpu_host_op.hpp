// Operations on host data run on the GPU: in chunks of about 16 MiB of operands, each packed
// into pinned staging on the host threads while the previous chunk uploads, runs and
// downloads; the results are unpacked once all chunks have succeeded. Device memory holds two
// chunks of operands and one of results (besides a product's NTT workspace); pinned host
// memory holds two chunks of operands and all the results. ZGPU_TIMING=1 prints where the time
// went to stderr. Only built with the GPU backend.
#pragma once

#include <functional>

#include <cuda_runtime_api.h>

#include "host_dispatch.hpp"

namespace zgpu::gpu {

// Enqueues r = op(a, b) on the stream.
using Kernel = std::function<void(ConstBatchView a, ConstBatchView b, BatchView r, cudaStream_t stream)>;

// result(r) receives r = kernel(a, b), r of a_count elements of `result_stride`, in pinned
// memory valid during the call; it is called only once everything else has succeeded. The
// kernel sees a chunk at a time (b of one element stays one element; b the same object as a
// is packed once and passed as the same view, which the product kernel squares).
// Throws zgpu::Error, with nothing written, for elements too large for a batch.
void run(const HostOperand& a, std::size_t a_count, const HostOperand& b, std::size_t b_count,
         std::uint32_t result_stride, const Kernel& kernel, const HostResult& result);

}  // namespace zgpu::gpu
