// FLINT's random state under the names of the FLINT in use: 3.1 renamed flint_randinit,
// flint_randclear and flint_randseed (deprecated since). Init and clear are the examples' own.
#pragma once

#include <flint/flint.h>

#include "examples/example_support.hpp"

using example::random_clear;
using example::random_init;

inline void random_seed(flint_rand_t state, ulong seed1, ulong seed2)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_set_seed(state, seed1, seed2);
#else
    flint_randseed(state, seed1, seed2);
#endif
}
