// mat_zz_p as the GPU's matrix functions (plugin/gpu/matrix_backend.hpp) read and write it: a
// zz_p is one long in [0, p), so each row is already a row of words, read and written in place.
// Shared by the NTL-style entry points on mat_zz_p.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include <NTL/mat_lzz_p.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::ntl {

static_assert(sizeof(NTL::zz_p) == sizeof(limb_t) && std::is_standard_layout_v<NTL::zz_p>,
              "a zz_p is its representative, one long");

// Row pointers of m, as const limb_t* or limb_t*.
template <class Row, class Matrix>
std::vector<Row> rows_of(Matrix& m)
{
    std::vector<Row> rows(std::size_t(m.NumRows()));
    for (long i = 0; i < m.NumRows(); ++i) rows[std::size_t(i)] = reinterpret_cast<Row>(m[i].elts());
    return rows;
}

// A vector's entries as the rows of a one-column matrix.
template <class Row, class Vector>
std::vector<Row> column_rows(Vector& v)
{
    std::vector<Row> rows(std::size_t(v.length()));
    for (long i = 0; i < v.length(); ++i) rows[std::size_t(i)] = reinterpret_cast<Row>(&v[i]);
    return rows;
}

inline limb_t modulus() { return limb_t(NTL::zz_p::modulus()); }

}  // namespace zgpu::ntl
