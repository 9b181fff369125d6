// GMP mpz_t arrays <-> limb batches.
#pragma once

#include <cstddef>
#include <string_view>

#include <gmp.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::adapters {

class MpzReader {
public:
    explicit MpzReader(const mpz_t* values) : values_(values) {}
    std::int64_t size(std::size_t i) const { return values_[i]->_mp_size; }
    void copy(std::size_t i, limb_t* dst) const;

private:
    const mpz_t* values_;
};

class MpzWriter {
public:
    explicit MpzWriter(mpz_t* values) : values_(values) {}
    void operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const;

private:
    mpz_t* values_;
};

// values[0 .. count), each initialised, as a batch.
LimbBatch pack_mpz_array(const mpz_t* values, std::size_t count, std::string_view argument = "values");
// Sets the initialised out[0 .. batch.count) from the batch.
void unpack_mpz_array(ConstBatchView batch, mpz_t* out);

}  // namespace zgpu::adapters
