// Host data as the GPU path sees it: operands that pack themselves into a batch on demand, so
// that only the elements a chunk needs are converted, and nothing is written before all checks
// pass. Readers look their storage up at each access, so an output that aliases an input and is
// resized before the result is written (fmpz_poly_fit_length, Vec::SetLength) stays valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/packing.hpp"
#include "zgpu/error.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu {

struct HostOperand {
    std::uint64_t max_limbs = 0;              // largest element
    std::uint64_t min_limbs = 0;              // smallest element
    std::string too_large;                    // if not empty: an element exceeds kMaxLimbs, and why
    std::function<void(std::size_t first, BatchView out)> pack;  // writes elements first.. into out, bound for the GPU
    // For splitting a call by element size (plugin/gpu/size_groups.hpp): elements by size
    // bucket, the limbs of elements first .. first + out.size() - 1, and the packing of elements indices[0 .. out.count) into out.
    adapters::SizeHistogram buckets{};
    std::function<void(std::size_t first, std::span<std::uint64_t> out)> limbs_of;  // of elements first..
    std::function<void(std::span<const std::size_t> indices, BatchView out)> pack_indexed;

    // Throws the too_large error, if any: batches hold at most kMaxLimbs limbs an element.
    void require_packable() const
    {
        if (!too_large.empty()) throw Error(too_large);
    }
};

// Wraps an adapter reader over `count` elements and measures them now.
template <class Reader>
HostOperand host_operand(Reader reader, std::size_t count, std::string_view argument)
{
    const adapters::Extent extent = adapters::measure(reader, count);
    std::string too_large;
    if (extent.first_too_large < count) too_large = adapters::too_large_message(reader, extent.first_too_large, argument);
    return {extent.largest,
            extent.smallest,
            std::move(too_large),
            [reader](std::size_t first, BatchView out) { adapters::pack_into(reader, out, first, adapters::PackTarget::streamed); },
            extent.buckets,
            [reader](std::size_t first, std::span<std::uint64_t> out) {
                for (std::size_t k = 0; k < out.size(); ++k) out[k] = std::llabs(reader.size(first + k));
            },
            [reader](std::span<const std::size_t> indices, BatchView out) {
                adapters::pack_indexed_into(reader, indices, out, adapters::PackTarget::streamed);
            }};
}

// x's elements from `offset` on, as an operand of their own (a piece of a polynomial); x must
// outlive it. Its sizes and buckets are x's, which bound the piece's.
inline HostOperand elements_from(const HostOperand& x, std::size_t offset)
{
    HostOperand piece = x;
    piece.pack = [&x, offset](std::size_t first, BatchView out) { x.pack(offset + first, out); };
    piece.limbs_of = [&x, offset](std::size_t first, std::span<std::uint64_t> out) { x.limbs_of(offset + first, out); };
    piece.pack_indexed = [&x, offset](std::span<const std::size_t> indices, BatchView out) {
        std::vector<std::size_t> moved(indices.begin(), indices.end());
        for (std::size_t& i : moved) i += offset;
        x.pack_indexed(moved, out);
    };
    return piece;
}

// The GPU's results for the elements from `first` on, packed.
using HostResult = std::function<void(std::size_t first, ConstBatchView result)>;

// The GPU's results of a division for the elements from `first` on, packed: quotients (none,
// an empty view, for a remainder alone) and remainders.
using HostDivisionResult = std::function<void(std::size_t first, ConstBatchView q, ConstBatchView r)>;

// Computes elements from `first` on by other means, after the GPU failed.
using FinishOnHost = std::function<void(std::size_t first)>;

}  // namespace zgpu
