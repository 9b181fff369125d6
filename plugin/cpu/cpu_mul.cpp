#include "plugin/cpu/cpu_mul.hpp"

#include <algorithm>
#include <cstdlib>

#include <gmp.h>

#include "base/parallel.hpp"

namespace zgpu::cpu {

void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b)
{
    // Threads pay from about 2^16 limb products on.
    const std::size_t work = std::size_t(a.stride) * b.stride;
    parallel_for(a.count, std::max<std::size_t>(2, (std::size_t(1) << 16) / work), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const std::size_t bi = broadcast_b ? 0 : i;
            const std::int32_t size_a = a.sizes[i], size_b = b.sizes[bi];
            mp_size_t na = std::abs(size_a), nb = std::abs(size_b);
            const limb_t *x = a.element(i), *y = b.element(bi);
            limb_t* out = r.element(i);
            std::int32_t size = 0;
            if (na && nb) {
                if (na < nb) {
                    std::swap(x, y);
                    std::swap(na, nb);
                }
                mpn_mul(out, x, na, y, nb);  // needs na >= nb >= 1
                size = std::int32_t(na + nb - (out[na + nb - 1] == 0));
            }
            std::fill(out + size, out + r.stride, limb_t(0));
            r.sizes[i] = (size_a < 0) != (size_b < 0) ? -size : size;
        }
    });
}

}  // namespace zgpu::cpu
