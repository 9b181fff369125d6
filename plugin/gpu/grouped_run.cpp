#include "plugin/gpu/grouped_run.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "plugin/gpu/size_groups.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// The operands of `count` elements, each once (an operand given twice is one: squares).
std::vector<const HostOperand*> elementwise_operands(std::span<const Operand> operands)
{
    std::vector<const HostOperand*> distinct;
    for (const Operand& x : operands)
        if (x.count != 1 && std::find(distinct.begin(), distinct.end(), x.data) == distinct.end()) distinct.push_back(x.data);
    return distinct;
}

// Copies results r into elements first.. of `out` (same stride), on the host threads.
void copy_results(ConstBatchView r, LimbBatch& out, std::size_t first)
{
    const std::uint32_t stride = r.stride;
    parallel_for(r.count, adapters::min_parallel_elements(stride), [&](std::size_t begin, std::size_t end) {
        std::memcpy(out.limbs().data() + (first + begin) * stride, r.element(begin), (end - begin) * stride * sizeof(limb_t));
        std::memcpy(out.sizes().data() + first + begin, r.sizes + begin, (end - begin) * sizeof(std::int32_t));
    });
}

// Runs the kernel on one group's elements; returns their results, in the group's order.
LimbBatch run_group(std::span<const Operand> operands, std::span<const HostOperand* const> elementwise,
                    const SizeGroup& group, const ResultStride& group_stride, const OneResultKernel& kernel)
{
    const std::size_t n = group.indices.size();
    // The group's view of each elementwise operand: its extent, and packing through the indices.
    std::vector<HostOperand> parts;
    parts.reserve(elementwise.size());
    for (std::size_t j = 0; j < elementwise.size(); ++j) {
        const HostOperand* x = elementwise[j];
        parts.push_back({group.max_limbs[j], group.min_limbs[j], {}, [x, &group](std::size_t first, BatchView out) {
                             x->pack_indexed(std::span(group.indices).subspan(first), out);
                         }});
    }
    std::vector<Operand> group_operands;
    for (const Operand& x : operands) {
        if (x.count == 1) {
            group_operands.push_back(x);
            continue;
        }
        const auto j = std::find(elementwise.begin(), elementwise.end(), x.data) - elementwise.begin();
        group_operands.push_back({&parts[j], n});
    }
    const std::uint32_t stride = group_stride(group_operands);
    LimbBatch results(n, stride);
    run(group_operands, n, stride, kernel, [&](std::size_t first, ConstBatchView r) { copy_results(r, results, first); },
        [n](std::size_t first) {
            throw Error("the GPU failed after " + std::to_string(first) + " of the " + std::to_string(n) +
                        " elements of a size group; nothing was written");
        });
    return results;
}

}  // namespace

Backend run_by_size(std::span<const Operand> operands, std::size_t count, std::uint32_t result_stride,
                    const ResultStride& group_stride, const OneResultKernel& kernel, const HostResult& result,
                    const FinishOnHost& finish_on_host)
{
    for (const Operand& x : operands) x.data->require_packable();
    const std::vector<const HostOperand*> elementwise = elementwise_operands(operands);
    // With one element, every operand looks shared: nothing to split.
    const std::optional<SizeGroups> plan = count > 1 ? plan_size_groups(elementwise, count) : std::nullopt;
    if (!plan) return run(operands, count, result_stride, kernel, result, finish_on_host);
    std::vector<LimbBatch> results;
    for (const SizeGroup& group : plan->groups) results.push_back(run_group(operands, elementwise, group, group_stride, kernel));
    for (const GroupRun& part : runs_in_order(*plan)) {
        const ConstBatchView all = std::as_const(results[part.group]).view();
        result(part.first, {all.element(part.offset), all.sizes + part.offset, part.count, all.stride});
    }
    return Backend::gpu;
}

}  // namespace zgpu::gpu
