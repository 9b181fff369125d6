// run() (pipeline.hpp) over elements of very different sizes: split into groups of similar
// size (size_groups.hpp) where that pays, each group a run() of its own, so that a few huge
// elements do not pad every other element to their size. Only built with the GPU backend.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "plugin/gpu/pipeline.hpp"

namespace zgpu::gpu {

// The result stride for some elements, from run()'s operands restricted to them (max_limbs and
// min_limbs those of the elements; operands shared by all elements as given).
using ResultStride = std::function<std::uint32_t(std::span<const Operand> operands)>;

// As run(operands, count, result_stride, ...), with run()'s contract, where plan_size_groups()
// does not split the operands (then it is exactly run()). Where it does, each group runs with
// stride group_stride(its operands): every group but the largest first, its results kept in
// host memory, then the largest, whose chunks go to result() as they arrive, in order, together
// with the kept results before and among them (one call for each run of consecutive elements of
// one group, so many calls of few elements each where sizes alternate). A GPU failure before
// the largest group's first results throws zgpu::Error with nothing written; after, the host
// computes the elements not yet given, through finish_on_host(first), as run() does. Throws
// before anything runs for elements too large for a batch.
Backend run_by_size(std::span<const Operand> operands, std::size_t count, std::uint32_t result_stride,
                    const ResultStride& group_stride, const OneResultKernel& kernel, const HostResult& result,
                    const FinishOnHost& finish_on_host);

}  // namespace zgpu::gpu
