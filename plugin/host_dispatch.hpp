// Host data as the backends see it: operands that pack themselves into a batch on demand,
// so each backend converts only what it needs and nothing is written before all checks pass.
// Readers look their storage up at each access, so an output that aliases an input and is
// resized before the result is written (fmpz_poly_fit_length, Vec::SetLength) stays valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "packing.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu {

struct HostOperand {
    std::uint32_t max_limbs = 0;                     // largest element, checked against kMaxLimbs
    std::function<void(BatchView out)> pack;         // writes all elements into out
};

// Wraps an adapter reader over `count` elements; checks sizes now (throws naming `argument`).
template <class Reader>
HostOperand host_operand(Reader reader, std::size_t count, std::string_view argument)
{
    const std::uint32_t largest = adapters::max_limbs(reader, count, argument);
    return {largest, [reader](BatchView out) { adapters::pack_into(reader, out); }};
}

using HostResult = std::function<void(ConstBatchView result)>;

// Runs r[i] = a[i] +- b[i], i < count, on the chosen backend and records which ran. On the CPU,
// on_cpu() computes it with the library's own arithmetic, any size allowed. On the GPU the
// operands are made (and so checked against kMaxLimbs) first, then on_gpu_result gets the
// packed result.
void add_sub_host(const std::function<HostOperand()>& make_a, const std::function<HostOperand()>& make_b,
                  std::size_t count, bool subtract, const std::function<void()>& on_cpu, const HostResult& on_gpu_result);

}  // namespace zgpu
