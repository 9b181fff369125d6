// The C prime set (zgpu_modular.h) as the PrimeSet behind its pointer, for the C entry points
// that take one (c_api_modular.cpp, and the MPI layer's).
#pragma once

#include "zgpu/error.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/zgpu_modular.h"

namespace zgpu {

inline const PrimeSet& prime_set(const zgpu_prime_set_struct* set)
{
    if (!set || !set->set) throw Error("the prime set is NULL or was not initialised");
    return *static_cast<const PrimeSet*>(set->set);
}

}  // namespace zgpu
