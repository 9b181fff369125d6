// Where operations on host data pay on the GPU: rules fitted to end-to-end measurements on an
// H200 host with 16 threads (bench/results/2026-11-24-h200-mul-choice-*.md), as pure functions
// of the operands' shapes, so that they can be tested without a GPU. Each compares the host
// threads' time, which grows with the limb products, with the GPU path's, which grows with the
// limbs converted and moved and has a fixed cost a call, so that small batches stay on the host.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zgpu {

// `count` elements: a of a_limbs, b of b_limbs (one b for all when b_shared).
struct HostShape {
    std::uint64_t a_limbs, b_limbs;
    bool b_shared;
    std::size_t count;
};

// r[i] = a[i] * b[i] (or b[0]) through the pipelined GPU path (gpu_host_op.hpp), on `threads`
// host threads otherwise.
bool gpu_pays_for_host_products(const HostShape& shape, unsigned threads);

// r[i] +-= a[i] * b[i] (or b[0]), r of up to r_limbs, through the pipelined GPU path.
bool gpu_pays_for_host_addmul(const HostShape& shape, std::uint64_t r_limbs, unsigned threads);

// Exact division, unchecked, of dividends a by divisors b through the pipelined GPU path.
bool gpu_pays_for_host_exact_division(const HostShape& shape, unsigned threads);

// Division with remainder (and checked exact division, which the host threads check with one)
// of dividends a by divisors b (the kernels' limits on b aside) through the pipelined GPU path.
bool gpu_pays_for_host_division(const HostShape& shape, unsigned threads);

}  // namespace zgpu
