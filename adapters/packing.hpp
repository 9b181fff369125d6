// Generic packing of integers held by some library into a limb batch, and back, on all host
// threads. Each adapter supplies a reader or a writer for its own integer type:
//   reader.size(i)        signed limb count of element i (GMP convention)
//   reader.copy(i, dst)   writes the |size(i)| magnitude limbs of element i to dst
//   writer(i, size, src)  sets element i from a signed size and |size| magnitude limbs
// and optionally prefetch(i, count), called before element i is read or written (elements
// below count exist), to fetch elements further on into cache.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "base/parallel.hpp"
#include "adapters/streaming_copy.hpp"
#include "zgpu/error.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::adapters {

// Conversions cost tens of nanoseconds an element, and more with every limb: below this many
// one-limb elements, threads cost more than they save.
inline constexpr std::size_t kPackMinParallel = 8192;

// The element count from which converting elements of `stride` limbs pays threads.
inline std::size_t min_parallel_elements(std::uint32_t stride) { return std::max<std::size_t>(1, kPackMinParallel / stride); }

// Elements by size: bucket 0 holds zeros, bucket k > 0 elements of 2^(k-1) to 2^k - 1 limbs,
// the last one kMaxLimbs limbs and more (too large for a batch but kMaxLimbs itself).
inline constexpr std::size_t kSizeBuckets = std::bit_width(kMaxLimbs) + 1;
using SizeHistogram = std::array<std::size_t, kSizeBuckets>;

constexpr std::size_t size_bucket(std::uint64_t limbs)
{
    return std::min<std::size_t>(std::bit_width(limbs), kSizeBuckets - 1);
}

// The most limbs an element of bucket k has (for the last bucket, the most a batch holds).
constexpr std::uint64_t bucket_limit(std::size_t k)
{
    return k + 1 == kSizeBuckets ? kMaxLimbs : (std::uint64_t(1) << k) - 1;
}

// The largest and the smallest element of `count`, in limbs (0 for none), the first above
// kMaxLimbs (count if none), and how many elements each size bucket holds (so that the GPU path
// can tell whether padding every element to the largest wastes much).
struct Extent {
    std::uint64_t largest = 0, smallest = 0;
    std::size_t first_too_large = 0;
    SizeHistogram buckets{};
};

// Replaces target by value where better(value, target), against other threads doing the same.
template <class T, class Better>
void keep_better(std::atomic<T>& target, T value, Better better)
{
    T seen = target.load();
    while (better(value, seen) && !target.compare_exchange_weak(seen, value)) {}
}

template <class Reader>
Extent measure(const Reader& reader, std::size_t count)
{
    std::atomic<std::uint64_t> largest{0}, smallest{count ? ~std::uint64_t(0) : 0};
    std::atomic<std::size_t> first_too_large{count};
    std::array<std::atomic<std::size_t>, kSizeBuckets> buckets{};
    parallel_for(count, kPackMinParallel, [&](std::size_t begin, std::size_t end) {
        std::uint64_t local_largest = 0, local_smallest = ~std::uint64_t(0);
        SizeHistogram local_buckets{};
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint64_t n = std::llabs(reader.size(i));
            if (n > kMaxLimbs) keep_better(first_too_large, i, std::less<>());
            local_largest = std::max(local_largest, n);
            local_smallest = std::min(local_smallest, n);
            ++local_buckets[size_bucket(n)];
        }
        keep_better(largest, local_largest, std::greater<>());
        keep_better(smallest, local_smallest, std::less<>());
        for (std::size_t k = 0; k < kSizeBuckets; ++k)
            if (local_buckets[k]) buckets[k] += local_buckets[k];
    });
    Extent extent{largest.load(), smallest.load(), first_too_large.load()};
    for (std::size_t k = 0; k < kSizeBuckets; ++k) extent.buckets[k] = buckets[k].load();
    return extent;
}

// The message for an element too large for a batch: its argument, index and size.
template <class Reader>
std::string too_large_message(const Reader& reader, std::size_t i, std::string_view argument)
{
    return std::string(argument) + "[" + std::to_string(i) + "] has " + std::to_string(std::llabs(reader.size(i))) +
           " limbs, more than the supported " + std::to_string(kMaxLimbs) + " (2^22 bits)";
}

// Largest element of `count`, in limbs. Throws zgpu::Error naming `argument` and the first
// offending index if an element exceeds kMaxLimbs.
template <class Reader>
std::uint32_t max_limbs(const Reader& reader, std::size_t count, std::string_view argument)
{
    const Extent extent = measure(reader, count);
    if (extent.first_too_large < count) throw Error(too_large_message(reader, extent.first_too_large, argument));
    return std::uint32_t(extent.largest);
}

// Element i into `element` (stride limbs): its limbs and zeros up to the stride; returns its
// signed size. Elements below `end` exist (for the reader's prefetches).
template <class Reader>
std::int32_t pack_element(const Reader& reader, std::size_t i, std::size_t end, limb_t* element, std::uint32_t stride)
{
    if constexpr (requires { reader.prefetch(i, end); }) reader.prefetch(i, end);
    const std::int32_t size = std::int32_t(reader.size(i));
    reader.copy(i, element);
    std::fill(element + std::abs(size), element + stride, limb_t(0));
    return size;
}

// Who reads a packed batch next: this host (cached), or a copy to the GPU (streamed: the limbs
// are packed a few elements at a time into a buffer that stays in cache, and go to the batch
// with non-temporal stores, so that the batch's lines are not read first).
enum class PackTarget { cached, streamed };

// Limbs of the buffer of streamed packing: elements of larger strides are packed in place.
inline constexpr std::uint32_t kStreamBufferLimbs = 2048;

// Writes elements first .. first + out.count - 1 into `out` (out.stride at least their largest
// size): sizes, limbs, and zeros up to the stride.
template <class Reader>
void pack_into(const Reader& reader, BatchView out, std::size_t first = 0, PackTarget target = PackTarget::cached)
{
    const std::size_t per_buffer = kStreamBufferLimbs / out.stride;
    const bool streamed = target == PackTarget::streamed && per_buffer > 0;
    parallel_for(out.count, min_parallel_elements(out.stride), [&](std::size_t begin, std::size_t end) {
        if (!streamed) {
            for (std::size_t i = begin; i < end; ++i)
                out.sizes[i] = pack_element(reader, first + i, first + end, out.element(i), out.stride);
            return;
        }
        alignas(64) limb_t buffer[kStreamBufferLimbs];
        for (std::size_t block = begin; block < end; block += per_buffer) {
            const std::size_t n = std::min(per_buffer, end - block);
            for (std::size_t j = 0; j < n; ++j)
                out.sizes[block + j] = pack_element(reader, first + block + j, first + end, buffer + j * out.stride, out.stride);
            stream_copy(out.element(block), buffer, n * out.stride * sizeof(limb_t));
        }
        stream_fence();
    });
}

// Reads elements indices[0], indices[1], ... of another reader as its elements 0, 1, ...
// Indices ascend, so that the reader's prefetches of the elements after one stay useful.
template <class Reader>
struct IndexedReader {
    const Reader& reader;
    std::span<const std::size_t> indices;

    auto size(std::size_t i) const { return reader.size(indices[i]); }
    void copy(std::size_t i, limb_t* dst) const { reader.copy(indices[i], dst); }
    void prefetch(std::size_t i, std::size_t end) const
    {
        if constexpr (requires { reader.prefetch(i, end); }) reader.prefetch(indices[i], indices[end - 1] + 1);
    }
};

// Writes elements indices[0 .. out.count) into `out`, as pack_into does elements first.. .
template <class Reader>
void pack_indexed_into(const Reader& reader, std::span<const std::size_t> indices, BatchView out,
                       PackTarget target = PackTarget::cached)
{
    pack_into(IndexedReader<Reader>{reader, indices.first(out.count)}, out, 0, target);
}

// A new host batch of the smallest size class that holds every element.
template <class Reader>
LimbBatch pack(const Reader& reader, std::size_t count, std::string_view argument)
{
    LimbBatch batch(count, size_class(max_limbs(reader, count, argument)));
    pack_into(reader, batch.view());
    return batch;
}

template <class Writer>
void unpack(ConstBatchView batch, const Writer& writer)
{
    parallel_for(batch.count, min_parallel_elements(batch.stride), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if constexpr (requires { writer.prefetch(i, end); }) writer.prefetch(i, end);
            writer(i, batch.sizes[i], batch.element(i));
        }
    });
}

}  // namespace zgpu::adapters
