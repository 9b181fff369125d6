// Operations on host data run on the GPU: in chunks of 1 to 8 MiB of operands, each packed
// into pinned staging on the host threads while earlier chunks upload, run and download, and
// unpacked while later ones do. A kernel writes one or more result batches a chunk (quotients
// and remainders). The chunks go round the devices in use (Runtime::in_use): a device for every
// four chunks that one device would cut, so that a call of a few chunks stays on one device,
// and a quarter of each device's share a chunk within those bounds. Each device used holds two chunks of operands and two of results (besides a
// product's NTT workspace and addmul's products of a chunk), its pinned host memory two of
// operands and three of results. ZGPU_TIMING=1 prints where the time went to stderr;
// ZGPU_GPU_MEMORY_LIMIT=<bytes> caps each device's memory for those slots (chunks shrink to fit,
// down to one element), so that tests can run vectors larger than the device's memory would
// allow. Only built with the GPU backend.
#pragma once

#include <functional>
#include <span>

#include "adapters/host_operand.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::gpu {

// One operand of an operation on host data: its elements, `count` of them (the call's count,
// or one shared by every element).
struct Operand {
    const HostOperand* data;
    std::size_t count;
};

// Enqueues results = op(operands) on runtime.stream(), with the runtime's device current, the
// operands' views in the order given to run(), the results' in the order of their strides.
using Kernel =
    std::function<void(std::span<const ConstBatchView> operands, std::span<const BatchView> results, Runtime& runtime)>;

// The results of a chunk for the elements from `first` on, in pinned memory valid during the call.
using ChunkResults = std::function<void(std::size_t first, std::span<const ConstBatchView> results)>;

// result(first, results) receives the kernel's results, one batch of each stride in
// result_strides: chunk after chunk, in order, each after its chunk's operands were packed,
// while later chunks are still on the GPU (once, with no elements, for an empty batch). The
// kernel is called on this thread for chunk after chunk, in order, and sees a chunk at a time (an
// operand of one element stays one element; an operand given twice, the same HostOperand, is
// packed once and passed as the same view, which the product kernel squares). Throws
// zgpu::Error, with nothing written, for elements too large for a batch and for a GPU failure
// before the first result; a GPU failure after it is reported on stderr and the remaining
// elements go to finish_on_host(first), so that no output is left half written; an empty
// finish_on_host (a caller that keeps the results aside) has it thrown instead. An exception
// from result() itself propagates. Returns the backend that finished the call: the CPU where
// the host computed the remaining elements.
// min_chunk: elements a chunk has at least (device memory limit permitting), for kernels that
// need many elements to fill the GPU whatever their bytes.
Backend run(std::span<const Operand> operands, std::size_t count, std::span<const std::uint32_t> result_strides,
            const Kernel& kernel, const ChunkResults& result, const FinishOnHost& finish_on_host, std::size_t min_chunk = 1);

// A kernel of one result, and run() for it: one result stride, result(first, r).
using OneResultKernel = std::function<void(std::span<const ConstBatchView> operands, BatchView r, Runtime& runtime)>;
Backend run(std::span<const Operand> operands, std::size_t count, std::uint32_t result_stride,
            const OneResultKernel& kernel, const HostResult& result, const FinishOnHost& finish_on_host,
            std::size_t min_chunk = 1);

}  // namespace zgpu::gpu
