// Random nmod matrices for the tests: uniform entries, or of rank at most r.
#pragma once

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>

#include "flint_values.hpp"

namespace zgpu::testing {

inline void fill_uniform(nmod_mat_t m, flint_rand_t state)
{
    for (slong i = 0; i < m->r; ++i)
        for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = n_randint(state, m->mod.n);
}

// A matrix of rank at most r: a random rows x r matrix times a random r x cols one.
inline void fill_rank_at_most(nmod_mat_t m, slong r, flint_rand_t state)
{
    NmodMat left(m->r, r, m->mod.n), right(r, m->c, m->mod.n);
    fill_uniform(left.m, state);
    fill_uniform(right.m, state);
    ::nmod_mat_mul(m, left.m, right.m);
}

}  // namespace zgpu::testing
