// The row pointers of an nmod_mat, the form the GPU backend takes matrices in; and a temporary
// nmod_mat that frees itself.
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

// An nmod_mat of rows x cols mod n, cleared however its scope ends.
class NmodMatTemp {
public:
    NmodMatTemp(slong rows, slong cols, ulong n) { nmod_mat_init(m_, rows, cols, n); }
    ~NmodMatTemp() { nmod_mat_clear(m_); }
    NmodMatTemp(const NmodMatTemp&) = delete;
    NmodMatTemp& operator=(const NmodMatTemp&) = delete;
    nmod_mat_struct* get() { return m_; }

private:
    nmod_mat_t m_;
};

}  // namespace zgpu::matrix
