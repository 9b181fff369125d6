#include "plugin/gpu/grouped_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "plugin/gpu/size_groups.hpp"

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

// Packs elements first .. first + out.count - 1 of a group packed by runs: each run's part as
// contiguous elements of x, on all host threads (each range finds its first run by offset).
void pack_runs(const HostOperand& x, std::span<const GroupRun> runs, std::size_t first, BatchView out)
{
    parallel_for(out.count, adapters::min_parallel_elements(out.stride), [&](std::size_t begin, std::size_t end) {
        auto run = std::upper_bound(runs.begin(), runs.end(), first + begin,
                                    [](std::size_t element, const GroupRun& r) { return element < r.offset; }) - 1;
        for (std::size_t done = begin; done < end; ++run) {
            const std::size_t skip = first + done - run->offset, n = std::min(run->count - skip, end - done);
            x.pack(run->first + skip, {out.element(done), out.sizes + done, n, out.stride});
            done += n;
        }
    });
}

// One group's operands: each elementwise operand seen through the group's runs or indices, with
// the group's extent; operands shared by all elements as given.
class GroupOperands {
public:
    GroupOperands(std::span<const Operand> operands, std::span<const HostOperand* const> elementwise, const SizeGroup& group)
    {
        parts_.reserve(elementwise.size());
        for (std::size_t j = 0; j < elementwise.size(); ++j) {
            const HostOperand* x = elementwise[j];
            HostOperand& part = parts_.emplace_back();
            part.max_limbs = group.max_limbs[j];
            part.min_limbs = group.min_limbs[j];
            if (group.indices.empty())
                part.pack = [x, &group](std::size_t first, BatchView out) { pack_runs(*x, group.runs, first, out); };
            else
                part.pack = [x, &group](std::size_t first, BatchView out) {
                    x->pack_indexed(std::span(group.indices).subspan(first), out);
                };
        }
        for (const Operand& x : operands) {
            const auto j = std::find(elementwise.begin(), elementwise.end(), x.data) - elementwise.begin();
            operands_.push_back(x.count == 1 ? x : Operand{&parts_[j], group.count});
        }
    }
    GroupOperands(const GroupOperands&) = delete;  // operands_ points into parts_
    GroupOperands& operator=(const GroupOperands&) = delete;
    std::span<const Operand> operands() const { return operands_; }

private:
    std::vector<HostOperand> parts_;
    std::vector<Operand> operands_;
};

// Runs one group's elements and keeps their results, in the group's order, in host memory. A
// GPU failure throws: nothing has been written yet.
LimbBatch run_group(const GroupOperands& group, std::size_t n, const ResultStride& group_stride, const OneResultKernel& kernel)
{
    const std::uint32_t stride = group_stride(group.operands());
    LimbBatch results(n, stride);
    run(group.operands(), n, stride, kernel, [&](std::size_t first, ConstBatchView r) { copy_results(r, results, first); },
        FinishOnHost());
    return results;
}

// The group of most elements: it runs last and hands its results on as they arrive.
std::size_t largest_group(const SizeGroups& plan)
{
    std::size_t largest = 0;
    for (std::size_t g = 1; g < plan.groups.size(); ++g)
        if (plan.groups[g].count > plan.groups[largest].count) largest = g;
    return largest;
}

}  // namespace

Backend run_by_size(std::span<const Operand> operands, std::size_t count, std::uint32_t result_stride,
                    const ResultStride& group_stride, const OneResultKernel& kernel, const HostResult& result,
                    const FinishOnHost& finish_on_host)
{
    for (const Operand& x : operands) x.data->require_packable();
    const std::vector<const HostOperand*> elementwise = elementwise_operands(operands);
    // With one element, every operand looks shared: nothing to split.
    const auto planning = std::chrono::steady_clock::now();
    const std::optional<SizeGroups> plan = count > 1 ? plan_size_groups(elementwise, count) : std::nullopt;
    if (!plan) return run(operands, count, result_stride, kernel, result, finish_on_host);
    if (settings::timing()) {
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - planning;
        std::fprintf(stderr, "zgpu: %zu elements in %zu size groups (%zu runs), planned in %.2f ms\n", count,
                     plan->groups.size(), plan->runs.size(), took.count());
    }

    // Every group but the largest runs first and keeps its results (few elements, or few bytes,
    // beside the largest). The largest then runs through the pipeline with results handed to the
    // caller as its chunks arrive, in order, interleaved with the kept ones: most results are
    // unpacked while later chunks are on the GPU, straight from pinned memory.
    const std::size_t streamed = largest_group(*plan);
    std::vector<LimbBatch> kept(plan->groups.size());
    for (std::size_t g = 0; g < plan->groups.size(); ++g)
        if (g != streamed)
            kept[g] = run_group(GroupOperands(operands, elementwise, plan->groups[g]), plan->groups[g].count, group_stride,
                                kernel);

    const std::vector<GroupRun>& runs = plan->runs;
    std::size_t next_run = 0, done_in_run = 0, delivered = 0;
    // Hands on runs in order while their elements are in: kept groups' at once, the streamed
    // group's up to `streamed_done` of its elements, from `chunk` (its elements chunk_first on).
    const auto deliver = [&](std::size_t streamed_done, std::size_t chunk_first, ConstBatchView chunk) {
        for (; next_run < runs.size(); ++next_run, done_in_run = 0) {
            const GroupRun& part = runs[next_run];
            const std::size_t from = part.offset + done_in_run;
            std::size_t n = part.count - done_in_run;
            ConstBatchView part_results;  // of elements from..from + n - 1 of the part's group
            if (part.group != streamed) {
                const ConstBatchView all = std::as_const(kept[part.group]).view();
                part_results = {all.element(from), all.sizes + from, n, all.stride};
            } else {
                n = std::min(n, streamed_done > from ? streamed_done - from : 0);
                if (n == 0) return;
                part_results = {chunk.element(from - chunk_first), chunk.sizes + (from - chunk_first), n, chunk.stride};
            }
            result(part.first + done_in_run, part_results);
            delivered += n;
            done_in_run += n;
            if (done_in_run < part.count) return;
        }
    };
    const GroupOperands largest(operands, elementwise, plan->groups[streamed]);
    const std::size_t n = plan->groups[streamed].count;
    const Backend backend = run(largest.operands(), n, group_stride(largest.operands()), kernel,
                                [&](std::size_t first, ConstBatchView r) { deliver(first + r.count, first, r); },
                                [&](std::size_t) { finish_on_host(delivered); });
    if (backend == Backend::gpu) deliver(n, n, {});
    return backend;
}

}  // namespace zgpu::gpu
