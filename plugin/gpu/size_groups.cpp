#include "plugin/gpu/size_groups.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <functional>
#include <numeric>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"

namespace zgpu::gpu {
namespace {

using adapters::kSizeBuckets;

// Merging a group into the next larger may cost this many bytes more: a pipeline run of less
// than its smallest chunk (1 MiB) costs more in fixed costs than its padding would.
constexpr std::uint64_t kMergeBytes = std::uint64_t(1) << 20;

// Elements below which mapping buckets to groups stays on one thread (a byte an element).
constexpr std::size_t kMapMinParallel = std::size_t(1) << 16;
// Runs below which their indices are written on one thread: runs of groups packed by index
// average under kRunPackingElements elements, so these are under 64 Ki indices.
constexpr std::size_t kIndexRunsMinParallel = 1024;

// Elements of a bucket (or group), and each operand's largest and smallest among them.
struct Stats {
    std::size_t count = 0;
    std::vector<std::uint64_t> max_limbs, min_limbs;

    std::uint64_t bytes() const
    {
        std::uint64_t total = 0;
        for (const std::uint64_t limbs : max_limbs) total += packed_bytes(count, limbs);
        return total;
    }
    void merge(const Stats& other)
    {
        count += other.count;
        for (std::size_t j = 0; j < max_limbs.size(); ++j) {
            max_limbs[j] = std::max(max_limbs[j], other.max_limbs[j]);
            min_limbs[j] = std::min(min_limbs[j], other.min_limbs[j]);
        }
    }
};

std::uint64_t padded_bytes(std::span<const HostOperand* const> operands, std::size_t count)
{
    std::uint64_t bytes = 0;
    for (const HostOperand* x : operands) bytes += packed_bytes(count, x->max_limbs);
    return bytes;
}

// Whether the histograms alone promise a split that pays: each operand's elements grouped by
// their own bucket, at the bucket's largest size. A guess (the groups key on an element's
// largest operand, and an element may be smaller than its bucket's largest), good enough to
// skip the pass over every element where sizes are about uniform.
bool histograms_promise_split(std::span<const HostOperand* const> operands, std::size_t count)
{
    std::uint64_t grouped = 0;
    for (const HostOperand* x : operands)
        for (std::size_t k = 0; k < kSizeBuckets; ++k)
            grouped += packed_bytes(x->buckets[k], std::min(adapters::bucket_limit(k), x->max_limbs));
    return split_pays(padded_bytes(operands, count), grouped);
}

// Reads every element's sizes, on all host threads: the bucket of its largest operand into
// bucket_of[i], and each bucket's Stats.
std::vector<Stats> bucket_elements(std::span<const HostOperand* const> operands, std::size_t count,
                                   std::vector<std::uint8_t>& bucket_of)
{
    const std::size_t m = operands.size();
    std::vector<std::atomic<std::size_t>> counts(kSizeBuckets);
    std::vector<std::atomic<std::uint64_t>> largest(kSizeBuckets * m), smallest(kSizeBuckets * m);
    for (auto& s : smallest) s = ~std::uint64_t(0);
    parallel_for(count, adapters::kPackMinParallel, [&](std::size_t begin, std::size_t end) {
        std::vector<std::size_t> local_counts(kSizeBuckets);
        std::vector<std::uint64_t> local_largest(kSizeBuckets * m, 0), local_smallest(kSizeBuckets * m, ~std::uint64_t(0));
        // Sizes a block at a time: one call into each operand's reader a block, not an element.
        constexpr std::size_t kBlock = 256;
        std::vector<std::uint64_t> limbs(m * kBlock);
        for (std::size_t first = begin; first < end; first += kBlock) {
            const std::size_t n = std::min(kBlock, end - first);
            for (std::size_t j = 0; j < m; ++j) operands[j]->limbs_of(first, std::span(limbs).subspan(j * kBlock, n));
            for (std::size_t i = 0; i < n; ++i) {
                std::uint64_t longest = 0;
                for (std::size_t j = 0; j < m; ++j) longest = std::max(longest, limbs[j * kBlock + i]);
                bucket_of[first + i] = std::uint8_t(adapters::size_bucket(longest));
            }
            // The extents run by run of one bucket, in registers: updating the bucket's extents
            // element by element chains each element's update to the last through memory.
            for (std::size_t i = 0, e; i < n; i = e) {
                const std::uint8_t k = bucket_of[first + i];
                for (e = i + 1; e < n && bucket_of[first + e] == k;) ++e;
                local_counts[k] += e - i;
                for (std::size_t j = 0; j < m; ++j) {
                    std::uint64_t high = 0, low = ~std::uint64_t(0);
                    for (std::size_t t = i; t < e; ++t) {
                        high = std::max(high, limbs[j * kBlock + t]);
                        low = std::min(low, limbs[j * kBlock + t]);
                    }
                    local_largest[k * m + j] = std::max(local_largest[k * m + j], high);
                    local_smallest[k * m + j] = std::min(local_smallest[k * m + j], low);
                }
            }
        }
        for (std::size_t k = 0; k < kSizeBuckets; ++k) {
            if (!local_counts[k]) continue;
            counts[k] += local_counts[k];
            for (std::size_t j = k * m; j < (k + 1) * m; ++j) {
                adapters::keep_better(largest[j], local_largest[j], std::greater<>());
                adapters::keep_better(smallest[j], local_smallest[j], std::less<>());
            }
        }
    });
    std::vector<Stats> buckets(kSizeBuckets);
    for (std::size_t k = 0; k < kSizeBuckets; ++k) {
        buckets[k].count = counts[k].load();
        for (std::size_t j = k * m; j < (k + 1) * m; ++j) {
            buckets[k].max_limbs.push_back(largest[j].load());
            buckets[k].min_limbs.push_back(smallest[j].load());
        }
    }
    return buckets;
}

// The end of the run of equal bytes that starts at `first`: eight bytes a step, as runs are
// long where the split pays most (a few huge values among many small ones).
std::size_t end_of_run(std::span<const std::uint8_t> bytes, std::size_t first)
{
    static_assert(std::endian::native == std::endian::little, "the first differing byte is the lowest");
    const std::uint8_t value = bytes[first];
    const std::uint64_t repeated = 0x0101010101010101ull * value;
    std::size_t i = first + 1;
    for (; i + 8 <= bytes.size(); i += 8) {
        std::uint64_t word;
        std::memcpy(&word, bytes.data() + i, 8);
        if (const std::uint64_t differ = word ^ repeated) return i + std::countr_zero(differ) / 8;
    }
    while (i < bytes.size() && bytes[i] == value) ++i;
    return i;
}

}  // namespace

bool split_pays(std::uint64_t padded_bytes, std::uint64_t grouped_bytes)
{
    return padded_bytes > 2 * grouped_bytes && padded_bytes - grouped_bytes >= kMinSavedBytes;
}

std::uint64_t packed_bytes(std::size_t count, std::uint64_t limbs)
{
    const std::uint32_t stride = size_class(std::uint32_t(std::min<std::uint64_t>(limbs, kMaxLimbs)));
    return count * (stride * sizeof(limb_t) + sizeof(std::int32_t));
}

std::optional<SizeGroups> plan_size_groups(std::span<const HostOperand* const> operands, std::size_t count)
{
    for (const HostOperand* x : operands)
        if (!x->too_large.empty()) return std::nullopt;
    if (operands.empty() || !histograms_promise_split(operands, count)) return std::nullopt;
    SizeGroups plan;
    plan.group_of.resize(count);
    const std::vector<Stats> buckets = bucket_elements(operands, count, plan.group_of);
    // Buckets into groups, smallest first; a group goes into the next where that costs little.
    std::vector<Stats> groups;
    std::array<std::uint8_t, kSizeBuckets> group_of_bucket{};
    for (std::size_t k = 0; k < kSizeBuckets; ++k) {
        if (!buckets[k].count) continue;
        if (!groups.empty()) {
            Stats merged = groups.back();
            merged.merge(buckets[k]);
            if (merged.bytes() < groups.back().bytes() + buckets[k].bytes() + kMergeBytes) {
                groups.back() = std::move(merged);
                group_of_bucket[k] = std::uint8_t(groups.size() - 1);
                continue;
            }
        }
        groups.push_back(buckets[k]);
        group_of_bucket[k] = std::uint8_t(groups.size() - 1);
    }
    std::uint64_t grouped = 0;
    for (const Stats& g : groups) grouped += g.bytes();
    if (groups.size() < 2 || !split_pays(padded_bytes(operands, count), grouped)) return std::nullopt;

    // Each element's group, then the runs of consecutive elements of one group: a pass over a
    // byte an element.
    parallel_for(count, kMapMinParallel, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) plan.group_of[i] = group_of_bucket[plan.group_of[i]];
    });
    std::vector<std::size_t> next(groups.size(), 0);  // each group's elements so far
    std::vector<std::size_t> runs_of(groups.size(), 0);
    for (std::size_t first = 0, end; first < count; first = end) {
        const std::uint8_t g = plan.group_of[first];
        end = end_of_run(plan.group_of, first);
        plan.runs.push_back({first, end - first, g, next[g]});
        next[g] += end - first;
        ++runs_of[g];
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        SizeGroup& group = plan.groups.emplace_back();
        group.count = groups[g].count;
        group.max_limbs = groups[g].max_limbs;
        group.min_limbs = groups[g].min_limbs;
        if (runs_of[g] * kRunPackingElements <= group.count) group.runs.reserve(runs_of[g]);
        else group.indices.resize(group.count);
    }
    // Runs of groups packed by runs are listed; the indices of the others are written, from
    // their runs, on all host threads.
    for (const GroupRun& run : plan.runs)
        if (plan.groups[run.group].indices.empty()) plan.groups[run.group].runs.push_back(run);
    parallel_for(plan.runs.size(), kIndexRunsMinParallel, [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r) {
            const GroupRun& run = plan.runs[r];
            std::vector<std::size_t>& indices = plan.groups[run.group].indices;
            if (!indices.empty()) std::iota(indices.begin() + run.offset, indices.begin() + run.offset + run.count, run.first);
        }
    });
    return plan;
}

}  // namespace zgpu::gpu
