#include "plugin/cpu/cpu_add_sub.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <gmp.h>

#include "base/parallel.hpp"

namespace zgpu::cpu {
namespace {

// r = x + y (or x - y) for signed inputs; writes |result| limbs to r and returns its size.
std::int32_t add_element(limb_t* r, const limb_t* x, std::int32_t size_x, const limb_t* y, std::int32_t size_y)
{
    mp_size_t nx = std::abs(size_x), ny = std::abs(size_y);
    bool negative = size_x < 0;
    const bool y_negative = size_y < 0;
    if (negative == y_negative) {
        if (nx < ny) {
            std::swap(x, y);
            std::swap(nx, ny);
        }
        if (nx == 0) return 0;
        r[nx] = ny ? mpn_add(r, x, nx, y, ny) : (std::copy_n(x, nx, r), 0);
        const std::int32_t n = std::int32_t(nx + (r[nx] != 0));
        return negative ? -n : n;
    }
    const int order = nx != ny ? (nx > ny ? 1 : -1) : mpn_cmp(x, y, nx);
    if (order == 0) return 0;
    if (order < 0) {
        std::swap(x, y);
        std::swap(nx, ny);
        negative = y_negative;
    }
    if (ny) mpn_sub(r, x, nx, y, ny);
    else std::copy_n(x, nx, r);
    while (nx > 0 && r[nx - 1] == 0) --nx;
    return negative ? -std::int32_t(nx) : std::int32_t(nx);
}

}  // namespace

void add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract)
{
    // Threads pay from about 1 MB of results on.
    parallel_for(a.count, (std::size_t(1) << 17) / r.stride, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            limb_t* element = r.element(i);
            const std::int32_t size_b = subtract ? -b.sizes[i] : b.sizes[i];
            const std::int32_t size = add_element(element, a.element(i), a.sizes[i], b.element(i), size_b);
            std::fill(element + std::abs(size), element + r.stride, limb_t(0));
            r.sizes[i] = size;
        }
    });
}

}  // namespace zgpu::cpu
