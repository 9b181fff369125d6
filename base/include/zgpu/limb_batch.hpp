// The packed limb batch: the one data layout every adapter writes and every kernel reads.
//
// A batch holds `count` signed integers. Element i occupies limbs[i*stride .. i*stride+stride):
//   - limbs are 64-bit, little-endian (limb 0 is least significant), elements contiguous;
//   - sizes[i] is a signed 32-bit GMP-style size: |sizes[i]| limbs are used, the sign is the
//     value's sign, 0 means the value 0; the top used limb is nonzero;
//   - limbs at and above |sizes[i]| are zero, up to the stride;
//   - stride is a size class (size_class below), so kernels see few distinct shapes and every
//     element of stride >= 2 starts on a 16-byte boundary.
// The same layout is used on the host (LimbBatch) and on the device (DeviceBatch).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#ifdef __CUDACC__
#define ZGPU_HOST_DEVICE __host__ __device__
#else
#define ZGPU_HOST_DEVICE
#endif

namespace zgpu {

using limb_t = std::uint64_t;

// Largest element, in limbs (2^22 bits). Operands of 2^20 bits and their products fit.
inline constexpr std::uint32_t kMaxLimbs = 1u << 16;

// Smallest size class holding `limbs` limbs: 1, then even sizes rounded up to an eighth of
// their leading power of two (2, 4, 6, ..., 16, 18, 20, ..., 32, 36, ...), so padding wastes at
// most 1/8 of the space above 16 limbs. Zero limbs still get one limb of storage.
constexpr std::uint32_t size_class(std::uint32_t limbs)
{
    if (limbs <= 1) return 1;
    const std::uint32_t granule = std::max<std::uint32_t>(2, std::bit_floor(limbs) / 8);
    return (limbs + granule - 1) / granule * granule;
}

// A non-owning view of a batch in host or device memory.
template <class Limb, class Size>
struct BasicBatchView {
    Limb* limbs = nullptr;
    Size* sizes = nullptr;
    std::size_t count = 0;
    std::uint32_t stride = 1;

    ZGPU_HOST_DEVICE Limb* element(std::size_t i) const { return limbs + i * stride; }

    // A mutable view converts to a read-only one.
    template <class L = Limb, class S = Size>
        requires(!std::is_const_v<L>)
    ZGPU_HOST_DEVICE operator BasicBatchView<const L, const S>() const
    {
        return {limbs, sizes, count, stride};
    }
};
using BatchView = BasicBatchView<limb_t, std::int32_t>;
using ConstBatchView = BasicBatchView<const limb_t, const std::int32_t>;

// A batch in host memory that owns its storage.
class LimbBatch {
public:
    LimbBatch() = default;
    // `count` zeros with the given stride.
    LimbBatch(std::size_t count, std::uint32_t stride)
        : stride_(stride), limbs_(count * stride), sizes_(count) {}

    std::size_t count() const { return sizes_.size(); }
    std::uint32_t stride() const { return stride_; }
    std::span<limb_t> limbs() { return limbs_; }
    std::span<const limb_t> limbs() const { return limbs_; }
    std::span<std::int32_t> sizes() { return sizes_; }
    std::span<const std::int32_t> sizes() const { return sizes_; }
    std::span<const limb_t> element(std::size_t i) const { return {limbs_.data() + i * stride_, stride_}; }

    BatchView view() { return {limbs_.data(), sizes_.data(), count(), stride_}; }
    ConstBatchView view() const { return {limbs_.data(), sizes_.data(), count(), stride_}; }

private:
    std::uint32_t stride_ = 1;
    std::vector<limb_t> limbs_;
    std::vector<std::int32_t> sizes_;
};

}  // namespace zgpu
