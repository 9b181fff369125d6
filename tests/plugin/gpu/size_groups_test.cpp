// The size-group planner, on the host: when it splits and when not, that its groups cover every
// element once in ascending order, and that the runs it delivers results in are in order.
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "plugin/gpu/size_groups.hpp"
#include "random_integers.hpp"
#include "zgpu/mpz_adapter.hpp"

namespace zgpu::testing {
namespace {

using gpu::plan_size_groups;
using gpu::SizeGroups;

// `count` values of `small` limbs, `huge_count` of them (at shuffled positions) of `huge` limbs.
struct Mixed {
    Mixed(std::size_t count, std::uint32_t small, std::size_t huge_count, std::uint32_t huge, std::uint64_t seed)
        : values(count), huge_at(count)
    {
        std::iota(huge_at.begin(), huge_at.end(), std::size_t(0));
        std::shuffle(huge_at.begin(), huge_at.end(), std::mt19937_64(seed));
        huge_at.resize(huge_count);
        IntegerSource source(seed);
        for (std::size_t i = 0; i < count; ++i) source.set(values[i], i % 7 ? small : 0, Shape::random, i % 3 == 0);
        for (const std::size_t i : huge_at) source.set(values[i], huge, Shape::all_ones, i % 2);
    }
    HostOperand operand() const { return host_operand(adapters::MpzReader(values.data()), values.size(), "x"); }

    MpzArray values;
    std::vector<std::size_t> huge_at;
};

// Every element in exactly one group, ascending in each, group_of consistent, and each group's
// extents those of its elements.
std::uint64_t limbs_of(const HostOperand& x, std::size_t i)
{
    std::uint64_t limbs = 0;
    x.limbs_of(i, std::span(&limbs, 1));
    return limbs;
}

// A group's elements, ascending, from its runs or its indices (exactly one of them is listed).
std::vector<std::size_t> elements_of(const gpu::SizeGroup& group)
{
    EXPECT_NE(group.runs.empty(), group.indices.empty());
    if (!group.indices.empty()) return group.indices;
    std::vector<std::size_t> elements;
    for (const gpu::GroupRun& run : group.runs) {
        EXPECT_EQ(run.offset, elements.size());
        for (std::size_t t = 0; t < run.count; ++t) elements.push_back(run.first + t);
    }
    return elements;
}

void expect_partition(const SizeGroups& plan, std::span<const HostOperand* const> operands, std::size_t count)
{
    ASSERT_EQ(plan.group_of.size(), count);
    std::vector<int> seen(count);
    for (std::size_t g = 0; g < plan.groups.size(); ++g) {
        const std::vector<std::size_t> elements = elements_of(plan.groups[g]);
        ASSERT_FALSE(elements.empty());
        EXPECT_EQ(elements.size(), plan.groups[g].count);
        EXPECT_TRUE(std::is_sorted(elements.begin(), elements.end()));
        for (std::size_t j = 0; j < operands.size(); ++j) {
            std::uint64_t largest = 0, smallest = ~std::uint64_t(0);
            for (const std::size_t i : elements) {
                largest = std::max(largest, limbs_of(*operands[j], i));
                smallest = std::min(smallest, limbs_of(*operands[j], i));
            }
            EXPECT_EQ(plan.groups[g].max_limbs[j], largest) << "group " << g << ", operand " << j;
            EXPECT_EQ(plan.groups[g].min_limbs[j], smallest) << "group " << g << ", operand " << j;
        }
        for (const std::size_t i : elements) {
            ++seen[i];
            EXPECT_EQ(plan.group_of[i], g);
        }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

TEST(SizeGroups, MeasureCountsElementsBySizeBucket)
{
    const Mixed mixed(1000, 3, 5, 300, 1);
    const HostOperand x = mixed.operand();
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < 1000; ++i) zeros += mpz_sgn(mixed.values[i]) == 0;
    EXPECT_EQ(x.buckets[adapters::size_bucket(0)], zeros);
    EXPECT_EQ(x.buckets[adapters::size_bucket(300)], 5u);
    EXPECT_EQ(std::accumulate(x.buckets.begin(), x.buckets.end(), std::size_t(0)), 1000u);
    EXPECT_EQ(adapters::size_bucket(1), 1u);
    EXPECT_EQ(adapters::size_bucket(2), 2u);
    EXPECT_EQ(adapters::size_bucket(3), 2u);
    EXPECT_EQ(adapters::size_bucket(kMaxLimbs), adapters::kSizeBuckets - 1);
    EXPECT_EQ(adapters::bucket_limit(adapters::kSizeBuckets - 1), kMaxLimbs);
    EXPECT_EQ(limbs_of(x, mixed.huge_at[0]), 300u);
}

TEST(SizeGroups, SplitsOnlyWhenPaddingWastesMuch)
{
    EXPECT_TRUE(gpu::split_pays(3 * gpu::kMinSavedBytes, gpu::kMinSavedBytes));
    EXPECT_FALSE(gpu::split_pays(2 * gpu::kMinSavedBytes, gpu::kMinSavedBytes)) << "not over twice";
    EXPECT_FALSE(gpu::split_pays(gpu::kMinSavedBytes, 1)) << "saves less than kMinSavedBytes";
    EXPECT_EQ(gpu::packed_bytes(10, 17), 10u * (18 * 8 + 4));

    const Mixed uniform(1 << 16, 40, 0, 0, 2);
    const HostOperand u = uniform.operand();
    const HostOperand* one[] = {&u};
    EXPECT_FALSE(plan_size_groups(one, 1 << 16).has_value()) << "uniform sizes (zeros aside)";

    const Mixed few(2000, 1, 2, 2000, 3);  // padded: 32.8 MB, under kMinSavedBytes to save
    const HostOperand f = few.operand();
    const HostOperand* small[] = {&f};
    EXPECT_FALSE(plan_size_groups(small, 2000).has_value()) << "too little to save";

    const Mixed mixed(1 << 16, 1, 4, 1 << 14, 4);
    const HostOperand m = mixed.operand();
    const HostOperand* split[] = {&m};
    const auto plan = plan_size_groups(split, 1 << 16);
    ASSERT_TRUE(plan.has_value());
    expect_partition(*plan, split, 1 << 16);
    ASSERT_EQ(plan->groups.size(), 2u) << "zeros merge with the one-limb values";
    EXPECT_EQ(plan->groups[1].count, 4u);
    EXPECT_EQ(plan->groups[1].indices.size(), 4u) << "four scattered elements: packed by index";
    EXPECT_LE(plan->groups[0].runs.size(), 5u) << "the rest in at most five runs: packed by runs";
    EXPECT_EQ(plan->groups[1].max_limbs[0], 1u << 14);
    EXPECT_EQ(plan->groups[0].max_limbs[0], 1u);
}

TEST(SizeGroups, PairsGroupByTheLargerOperandOfEachElement)
{
    const std::size_t count = 1 << 16;
    const Mixed a(count, 1, 4, 1 << 14, 5), b(count, 2, 3, 1 << 13, 6);  // huge at different places
    const HostOperand pa = a.operand(), pb = b.operand();
    const HostOperand* both[] = {&pa, &pb};
    const auto plan = plan_size_groups(both, count);
    ASSERT_TRUE(plan.has_value());
    expect_partition(*plan, both, count);
    const std::uint8_t small_group = plan->group_of[0] == plan->group_of[a.huge_at[0]] ? plan->group_of[1] : plan->group_of[0];
    for (const std::size_t i : a.huge_at) EXPECT_NE(plan->group_of[i], small_group) << i;
    for (const std::size_t i : b.huge_at) EXPECT_NE(plan->group_of[i], small_group) << i;
}

TEST(SizeGroups, RunsCoverTheElementsInOrder)
{
    const std::size_t count = 1 << 16;
    const Mixed mixed(count, 1, 30, 1 << 12, 7);
    const HostOperand m = mixed.operand();
    const HostOperand* one[] = {&m};
    const auto plan = plan_size_groups(one, count);
    ASSERT_TRUE(plan.has_value());
    std::vector<std::vector<std::size_t>> elements;
    for (const gpu::SizeGroup& group : plan->groups) elements.push_back(elements_of(group));
    std::size_t next = 0;
    for (const gpu::GroupRun& run : plan->runs) {
        ASSERT_EQ(run.first, next);
        ASSERT_GT(run.count, 0u);
        for (std::size_t t = 0; t < run.count; ++t) ASSERT_EQ(elements[run.group][run.offset + t], run.first + t);
        next += run.count;
    }
    EXPECT_EQ(next, count);
}

// Sizes that alternate (one huge, three small) leave every run short: both groups are packed by
// index.
TEST(SizeGroups, AlternatingSizesPackByIndex)
{
    const std::size_t count = 1 << 13;
    MpzArray values(count);
    IntegerSource source(8);
    for (std::size_t i = 0; i < count; ++i) source.set(values[i], i % 4 ? 1 : 1 << 10, Shape::random, false);
    const HostOperand x = host_operand(adapters::MpzReader(values.data()), count, "x");
    const HostOperand* one[] = {&x};
    const auto plan = plan_size_groups(one, count);
    ASSERT_TRUE(plan.has_value());
    expect_partition(*plan, one, count);
    EXPECT_EQ(plan->runs.size(), count / 2);
    for (const gpu::SizeGroup& group : plan->groups) EXPECT_TRUE(group.runs.empty());
}

TEST(SizeGroups, TooLargeElementsAreNotPlanned)
{
    HostOperand x;
    x.too_large = "x[0] is too large";
    const HostOperand* one[] = {&x};
    EXPECT_FALSE(plan_size_groups(one, 10).has_value());
}

}  // namespace
}  // namespace zgpu::testing
