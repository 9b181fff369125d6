// Exact division of DeviceBatches that reports an inexact element instead of throwing, for
// callers that name it in their own terms (zgpu::divexact_checked, the host entry points).
#pragma once

#include <cstddef>
#include <string>

#include "zgpu/device_batch.hpp"

namespace zgpu {

// q = a / b as zgpu::divexact (b of a.count() elements, or one for all); checked, returns the
// first index whose division is not exact, with q untouched, else a.count(). Bad shapes and
// zero divisors throw zgpu::Error prefixed with `name`.
std::size_t divide_exactly(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b, bool checked, const std::string& name);

}  // namespace zgpu
