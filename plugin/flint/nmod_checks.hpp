// The check FLINT's raw nmod forms leave to their callers, shared by zgpu's FLINT-style entry
// points.
#pragma once

#include <string>

#include <flint/flint.h>

#include "zgpu/error.hpp"

namespace zgpu {

// Every coefficient of (x, length) below n, or an Error naming the first that is not.
inline void check_reduced(const std::string& function, const char* name, const ulong* x, slong length, ulong n)
{
    for (slong i = 0; i < length; ++i)
        if (x[i] >= n)
            throw Error(function + ": " + name + "[" + std::to_string(i) + "] = " + std::to_string(x[i]) + " is not below the modulus " +
                        std::to_string(n));
}

}  // namespace zgpu
