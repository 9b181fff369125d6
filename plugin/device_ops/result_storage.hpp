// Where a batch operation writes a result: the result batch's own storage when it already has
// the result's backend, count and stride and is none of the operands (chains of operations then
// allocate nothing, and no allocation or release waits for the device), else new storage that
// replaces it once the operation has succeeded. An operation that must leave the result batch as
// it was when it fails late (a checked division) always writes into new storage.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>

#include "zgpu/device_batch.hpp"

namespace zgpu {

class ResultStorage {
public:
    ResultStorage(DeviceBatch& result, Backend where, std::size_t count, std::uint32_t stride,
                  std::initializer_list<const DeviceBatch*> operands, bool keep_until_success = false)
        : result_(result)
    {
        bool reuse = !keep_until_success && result.backend() == where && result.count() == count && result.stride() == stride;
        for (const DeviceBatch* operand : operands) reuse = reuse && operand != &result;
        if (!reuse) fresh_.emplace(where, count, stride, DeviceBatch::Uninitialized{});
    }

    BatchView view() { return fresh_ ? fresh_->view() : result_.view(); }

    // The result is complete: new storage takes the result batch's place.
    void commit()
    {
        if (fresh_) result_ = std::move(*fresh_);
        fresh_.reset();
    }

private:
    DeviceBatch& result_;
    std::optional<DeviceBatch> fresh_;
};

}  // namespace zgpu
