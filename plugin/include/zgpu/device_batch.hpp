// DeviceBatch: a batch kept where a backend computes, for chains of operations without transfers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu {

// Same layout as LimbBatch (see limb_batch.hpp). On the GPU backend the storage is device
// memory; on the CPU backend it is host memory, so code written against DeviceBatch runs
// unchanged on a machine without a GPU. Moves are cheap; copies are not allowed.
class DeviceBatch {
public:
    // An empty batch on the requested backend.
    DeviceBatch();
    // `count` zeros of the given stride (a size class, see size_class) on `where`.
    DeviceBatch(Backend where, std::size_t count, std::uint32_t stride);

    // Storage of that shape with unspecified contents, for operations that write every limb
    // and size of their result.
    struct Uninitialized {};
    DeviceBatch(Backend where, std::size_t count, std::uint32_t stride, Uninitialized);

    // Copies a host batch to `where`, or to the requested backend (ZGPU_BACKEND); the layout is
    // checked first (sizes within the stride, zeros above them).
    static DeviceBatch upload(ConstBatchView host, Backend where);
    static DeviceBatch upload(const LimbBatch& host);

    LimbBatch download() const;

    Backend backend() const { return backend_; }
    std::size_t count() const { return count_; }
    std::uint32_t stride() const { return stride_; }

    // Pointers into the backend's memory (device pointers on the GPU backend).
    BatchView view();
    ConstBatchView view() const;

private:
    struct Release {
        Backend where;
        void operator()(void* storage) const;
    };

    Backend backend_;
    std::size_t count_ = 0;
    std::uint32_t stride_ = 1;
    std::unique_ptr<void, Release> storage_;  // count*stride limbs, then count sizes
};

}  // namespace zgpu
