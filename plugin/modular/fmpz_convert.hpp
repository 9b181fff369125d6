// fmpz values to and from the adapters' element readers and writers (size, copy / i, size,
// limbs), for the CPU path of residues of NTL values and of batches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <flint/fmpz.h>

#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu {

// out = element i of `reader`.
template <class Reader>
void set_fmpz(fmpz* out, const Reader& reader, std::size_t i)
{
    thread_local std::vector<limb_t> limbs;
    const std::int64_t size = reader.size(i);
    const std::size_t n = std::size_t(std::llabs(size));
    limbs.assign(std::max<std::size_t>(n, 1), 0);
    reader.copy(i, limbs.data());
    const adapters::FmpzWriter writer(out);
    writer(0, std::int32_t(size), limbs.data());
}

// writer(i, size, limbs) with value's size and limbs.
template <class Writer>
void write_fmpz(const Writer& writer, std::size_t i, const fmpz* value)
{
    thread_local std::vector<limb_t> limbs;
    const adapters::FmpzReader reader(value);
    const std::int64_t size = reader.size(0);
    limbs.resize(std::max<std::size_t>(std::size_t(std::llabs(size)), 1));
    reader.copy(0, limbs.data());
    writer(i, std::int32_t(size), limbs.data());
}

// The elements of a host batch view, as a reader.
struct BatchReader {
    ConstBatchView batch;
    std::int64_t size(std::size_t i) const { return batch.sizes[i]; }
    void copy(std::size_t i, limb_t* dst) const { std::copy_n(batch.element(i), std::llabs(batch.sizes[i]), dst); }
};

// Writes elements of a host batch view (zeros above the size, as the layout wants).
struct BatchWriter {
    BatchView batch;
    void operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const
    {
        const std::size_t n = std::size_t(std::abs(size));
        std::copy_n(limbs, n, batch.element(i));
        std::fill(batch.element(i) + n, batch.element(i) + batch.stride, limb_t(0));
        batch.sizes[i] = size;
    }
};

}  // namespace zgpu
