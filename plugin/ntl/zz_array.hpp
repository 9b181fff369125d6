// NTL vectors as the host dispatch reads them, shared by the NTL-style entry points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "zgpu/ntl_adapter.hpp"
#include "zgpu/error.hpp"

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

// An output must be able to take n entries: a fixed-length vector (a row of a Mat<ZZ>) of
// another length cannot, and NTL would abort on resizing it.
inline void require_resizable(const NTL::Vec<NTL::ZZ>& x, std::size_t n, const std::string& name, const char* argument)
{
    if (x.fixed() && std::size_t(x.length()) != n)
        throw Error(name + ": " + argument + " has the fixed length " + std::to_string(x.length()) + ", " +
                    std::to_string(n) + " entries needed");
}

// b as a vector of one element, copied: b may be an entry of an output.
inline NTL::Vec<NTL::ZZ> one_element(const NTL::ZZ& b)
{
    NTL::Vec<NTL::ZZ> scalar;
    scalar.SetLength(1);
    scalar[0] = b;
    return scalar;
}

}  // namespace zgpu
