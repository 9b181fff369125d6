// NTL ZZ, Vec<ZZ> and ZZX <-> limb batches (NTL built on GMP, 64-bit limbs).
#pragma once

#include <cstddef>
#include <string_view>

#include <NTL/ZZ.h>
#include <NTL/ZZX.h>
#include <NTL/vector.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::adapters {

class ZZReader {
public:
    explicit ZZReader(const NTL::ZZ* values) : values_(values) {}
    std::int64_t size(std::size_t i) const;
    void copy(std::size_t i, limb_t* dst) const;

private:
    const NTL::ZZ* values_;
};

class ZZWriter {
public:
    explicit ZZWriter(NTL::ZZ* values) : values_(values) {}
    void operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const;

private:
    NTL::ZZ* values_;
};

// One ZZ as a batch of one element, and back.
LimbBatch pack_zz(const NTL::ZZ& value, std::string_view argument = "a");
void unpack_zz(ConstBatchView batch, NTL::ZZ& out);  // batch.count must be 1

LimbBatch pack_vec_zz(const NTL::Vec<NTL::ZZ>& values, std::string_view argument = "a");
// Sets out to the batch's elements (out is resized to batch.count).
void unpack_vec_zz(ConstBatchView batch, NTL::Vec<NTL::ZZ>& out);
// Sets out[0 .. batch.count) from the batch.
void unpack_zz_array(ConstBatchView batch, NTL::ZZ* out);

// Coefficients, constant term first.
LimbBatch pack_zzx(const NTL::ZZX& poly, std::string_view argument = "a");
// Sets poly from the coefficients and normalises it, as NTL requires.
void unpack_zzx(ConstBatchView batch, NTL::ZZX& poly);

}  // namespace zgpu::adapters
