// Checks of a limb batch against GMP values: the layout invariants and the values themselves.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>

#include <gmp.h>
#include <gtest/gtest.h>

#include "random_integers.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::testing {

// Empty when element i of the batch is a well-formed copy of `expected`, else what is wrong.
inline std::string element_mismatch(const LimbBatch& batch, std::size_t i, mpz_srcptr expected)
{
    const std::int32_t size = batch.sizes()[i];
    const std::uint32_t n = std::abs(size);
    const auto limbs = batch.element(i);
    std::ostringstream why;
    if (n > batch.stride()) why << "size " << size << " exceeds stride " << batch.stride();
    else if (n > 0 && limbs[n - 1] == 0) why << "top limb of size " << size << " is zero";
    else {
        for (std::uint32_t k = n; k < batch.stride(); ++k)
            if (limbs[k] != 0) {
                why << "padding limb " << k << " is nonzero (size " << size << ")";
                break;
            }
        const bool equal = size == expected->_mp_size &&
                           std::equal(limbs.begin(), limbs.begin() + n, mpz_limbs_read(expected));
        if (why.str().empty() && !equal) {
            const mp_size_t shown = std::min<mp_size_t>(mpz_size(expected), 4);
            why << "value differs: size " << size << ", expected size " << expected->_mp_size << "; low limbs";
            for (mp_size_t k = 0; k < shown && k < n; ++k) why << " " << std::hex << limbs[k] << "/" << mpz_getlimbn(expected, k);
        }
    }
    return why.str();
}

// Asserts every element matches; reports the first mismatch and how many there are.
inline void expect_batch_equals(const LimbBatch& batch, const MpzArray& expected, const std::string& context)
{
    ASSERT_EQ(batch.count(), expected.size()) << context;
    std::size_t bad = 0, first = 0;
    std::string first_why;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::string why = element_mismatch(batch, i, expected[i]);
        if (!why.empty() && bad++ == 0) {
            first = i;
            first_why = why;
        }
    }
    EXPECT_EQ(bad, 0u) << context << ": " << bad << " of " << expected.size() << " elements wrong; first at " << first
                       << ": " << first_why;
}

}  // namespace zgpu::testing
