// A packed batch read as the adapters read a library's integers (packing.hpp), so that a batch
// that arrived from elsewhere (another MPI rank's broadcast) feeds the GPU path as FLINT's
// values do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "zgpu/limb_batch.hpp"

namespace zgpu::adapters {

class BatchReader {
public:
    explicit BatchReader(ConstBatchView batch) : batch_(batch) {}
    std::int64_t size(std::size_t i) const { return batch_.sizes[i]; }
    void copy(std::size_t i, limb_t* dst) const { std::copy_n(batch_.element(i), std::abs(batch_.sizes[i]), dst); }

private:
    ConstBatchView batch_;
};

}  // namespace zgpu::adapters
