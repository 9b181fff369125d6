// NTL vectors as the host dispatch reads them, shared by the NTL-style entry points.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <NTL/mat_ZZ.h>
#include <flint/fmpz.h>

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

// The bits of a's largest entry.
inline std::uint64_t max_bits(const NTL::mat_ZZ& a)
{
    long bits = 0;
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) bits = std::max(bits, NTL::NumBits(a[i][j]));
    return std::uint64_t(bits);
}

// Moves the computed entries into x entry by entry: x keeps its own storage, fixed (a row of a
// matrix) or not, where swapping whole vectors fails for a fixed one.
template <class T>
void move_into(NTL::Vec<T>& x, NTL::Vec<T>& computed)
{
    x.SetLength(computed.length());
    for (long i = 0; i < computed.length(); ++i) NTL::swap(x[i], computed[i]);
}

// b as a vector of one element, copied: b may be an entry of an output.
inline NTL::Vec<NTL::ZZ> one_element(const NTL::ZZ& b)
{
    NTL::Vec<NTL::ZZ> scalar;
    scalar.SetLength(1);
    scalar[0] = b;
    return scalar;
}

// d = value: its limbs through a batch of one element (NTL's ZZ and FLINT's fmpz share no
// representation), for the determinants and resultants that the modular path computes as fmpz.
inline void set_zz(NTL::ZZ& d, const fmpz_t value)
{
    fmpz_t magnitude;
    fmpz_init(magnitude);
    fmpz_abs(magnitude, value);
    const slong n = slong(fmpz_size(magnitude));
    std::vector<limb_t> limbs(std::size_t(std::max<slong>(n, 1)));
    if (n > 0) fmpz_get_ui_array(reinterpret_cast<ulong*>(limbs.data()), n, magnitude);
    fmpz_clear(magnitude);
    const std::int32_t size = std::int32_t(fmpz_sgn(value) < 0 ? -n : n);
    adapters::unpack_zz_array(ConstBatchView{limbs.data(), &size, 1, std::uint32_t(limbs.size())}, &d);
}

}  // namespace zgpu
