// Splitting an operation on host data by element size. A batch has one stride, that of its
// largest element, so a vector of many small elements and a few huge ones costs on the GPU path
// as if every element were huge (and may not fit device memory). The planner decides, from the
// operands' size histograms and then each element's size, whether running the elements in
// groups of similar size pays, and forms the groups. Pure host code, so that it is tested
// without a GPU; plugin/gpu/grouped_run.hpp runs the groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "adapters/host_operand.hpp"

namespace zgpu::gpu {

// The rule: split only where the padded operands take more than twice the bytes of the grouped
// ones and at least kMinSavedBytes more. Each group is a pipeline run of its own (a few
// chunks, CUDA calls, buffers) and its results are copied once more on the host, which costs
// about as much as moving a few tens of MiB over PCIe; below that, and for vectors of nearly
// uniform size, one padded run is as fast. Operand bytes stand for the call's: every result
// stride (products, sums, quotients) grows with its operands'.
inline constexpr std::uint64_t kMinSavedBytes = std::uint64_t(32) << 20;
bool split_pays(std::uint64_t padded_bytes, std::uint64_t grouped_bytes);

// Bytes of `count` packed elements of at most `limbs` limbs: each a size class of limbs and a
// size.
std::uint64_t packed_bytes(std::size_t count, std::uint64_t limbs);

// A run of consecutive elements of one group: elements first .. first + count - 1 are that
// group's elements offset .. offset + count - 1.
struct GroupRun {
    std::size_t first, count, group, offset;
};

// Elements of one group and each operand's largest and smallest among them (in the order of
// the planner's operands). Where the group's elements lie in long runs (a vector of small
// values among which a few huge ones), `runs` lists them and a chunk packs run by run, as
// contiguous elements; otherwise `indices` lists every element, ascending, and a chunk packs
// through them.
struct SizeGroup {
    std::size_t count = 0;
    std::vector<std::uint64_t> max_limbs, min_limbs;
    std::vector<GroupRun> runs;         // where packed by runs, else empty
    std::vector<std::size_t> indices;   // where packed by index, else empty
};

// A group packs by runs where its runs average at least this many elements: each run is a call
// into the operand's packer, which costs about as much as packing a few elements by index.
inline constexpr std::size_t kRunPackingElements = 64;

struct SizeGroups {
    std::vector<SizeGroup> groups;       // smallest elements first
    std::vector<std::uint8_t> group_of;  // each element's group
    std::vector<GroupRun> runs;          // all runs, covering elements 0, 1, ... in order
};

// Groups elements 0 .. count - 1 of `operands` (each of `count` elements, each given once;
// operands shared by all elements are not split) by the size bucket of each element's largest
// operand, merging a group into the next larger where that costs under a MiB, when split_pays()
// says so; nullopt otherwise, and where an element is too large for a batch. Decides first from
// the operands' histograms (one pass less where they say no: uniform vectors pay nothing),
// then from every element's sizes, read in parallel.
std::optional<SizeGroups> plan_size_groups(std::span<const HostOperand* const> operands, std::size_t count);

}  // namespace zgpu::gpu
