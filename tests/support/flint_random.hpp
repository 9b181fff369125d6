// FLINT's random state under the names of the FLINT in use: 3.1 renamed flint_randinit,
// flint_randclear and flint_randseed (deprecated since).
#pragma once

#include <flint/flint.h>

inline void random_init(flint_rand_t state)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_init(state);
#else
    flint_randinit(state);
#endif
}

inline void random_clear(flint_rand_t state)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_clear(state);
#else
    flint_randclear(state);
#endif
}

inline void random_seed(flint_rand_t state, ulong seed1, ulong seed2)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_set_seed(state, seed1, seed2);
#else
    flint_randseed(state, seed1, seed2);
#endif
}
