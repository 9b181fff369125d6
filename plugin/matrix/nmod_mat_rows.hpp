// The row pointers of an nmod_mat, the form the GPU backend takes matrices in.
#pragma once

#include <vector>

#include <flint/nmod_mat.h>

namespace zgpu::matrix {

// FLINT 2.9 keeps an array of row pointers, FLINT 3 a stride; nmod_mat_entry serves both.
template <class Row>
std::vector<Row> rows_of(const nmod_mat_struct* m)
{
    std::vector<Row> rows(std::size_t(m->r));
    for (slong i = 0; i < m->r; ++i) rows[std::size_t(i)] = &nmod_mat_entry(m, i, 0);
    return rows;
}

}  // namespace zgpu::matrix
