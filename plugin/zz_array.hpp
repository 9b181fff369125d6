// NTL vectors as the host dispatch reads them, shared by the NTL-style entry points.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ntl_adapter.hpp"

namespace zgpu {

// The entries of an NTL vector, looked up at each access (see host_dispatch.hpp); entries from
// `length` on read as zero.
struct ZZArray {
    const NTL::Vec<NTL::ZZ>* vec;
    std::size_t length;

    std::int64_t size(std::size_t i) const { return i < length ? adapters::ZZReader(vec->elts()).size(i) : 0; }
    void copy(std::size_t i, limb_t* dst) const
    {
        if (i < length) adapters::ZZReader(vec->elts()).copy(i, dst);
    }
    const NTL::ZZ& at(std::size_t i) const { return i < length ? (*vec)[long(i)] : NTL::ZZ::zero(); }
};

}  // namespace zgpu
