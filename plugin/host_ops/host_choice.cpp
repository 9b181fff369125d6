#include "plugin/host_ops/host_choice.hpp"

#include <algorithm>

namespace zgpu {
namespace {

// Products through the pipelined GPU path. Per element it pays from 3 limb products for each
// limb it converts and moves (operands, a shared b once, and the result): measured for equal and
// unequal sizes (16 x 16 limbs pays, 8 x 8, 300 x 4 and 256 x 1 do not,
// bench/results/2026-11-23-h200-mul-unequal-4c39c7d.md). A batch pays once its limb products
// beyond those 3 a limb, summed, exceed 2^16 a host thread (2^20 on 16 threads), which covers
// the path's fixed cost and its first and last chunks, which nothing overlaps. Crossovers
// measured on 16 threads (products beyond 3 a limb, per product): 1024 bits (64) between 16384
// and 65536 products, 2048 bits (640) between 1024 and 4096, 4096 bits (3328) between 256 and
// 1024, 16384 bits (62464) between 16 and 64; from 65536 bits two products pay (one product
// took 0.22 ms on the host against 0.08 on the GPU: the rule's one miss).
constexpr std::uint64_t kMinLimbProductsPerLimbMoved = 3;
constexpr std::uint64_t kMinExcessLimbProductsPerThread = 1 << 16;

// Exact division: quotients from this many limbs take Newton's method on the GPU
// (kernels/div/divexact.cu), whose batches pay from this many limb products (quotient times
// divisor) a host thread.
constexpr std::uint64_t kNewtonQuotientLimbs = 64;
constexpr std::uint64_t kMinNewtonDivisionLimbProductsPerThread = 1 << 21;

// Division with remainder through the pipelined GPU path (one warp an element, schoolbook, as
// the host's): a batch pays once its limb products beyond kMinLimbProductsPerLimbMoved a limb
// moved, summed, exceed 2^17 a host thread. Fitted to bench_choice on an H200 host with 16
// threads, dividends twice their divisors (bench/results/2026-11-25-h200-pipelined-division-*):
// 4096-bit dividends, 256 elements 0.047 ms on the host against 0.102 on the GPU, 4096 0.71
// against 0.35; 16384 bits, 64 0.093 against 0.144, 256 0.35 against 0.18; 32768 bits, 16 0.067
// against 0.23, 64 0.25 against 0.26, 256 0.98 against 0.44. The rule's miss: 1024 of 4096
// bits stay on the host (0.18 ms against 0.15).
constexpr std::uint64_t kMinDivisionExcessLimbProductsPerThread = 1 << 17;

// Limb products of an element of a_limbs x b_limbs (schoolbook).
std::uint64_t limb_products(std::uint64_t a_limbs, std::uint64_t b_limbs)
{
    return std::max<std::uint64_t>(1, a_limbs) * std::max<std::uint64_t>(1, b_limbs);
}

// Limbs of a quotient |a| / |b|: at most |a| - |b| + 1, and one where |a| < |b|.
std::uint64_t quotient_limbs(const HostShape& s) { return s.a_limbs >= s.b_limbs ? s.a_limbs - s.b_limbs + 1 : 1; }

// Limbs moved for each element: a, b unless shared, and the results.
std::uint64_t limbs_moved(const HostShape& s, std::uint64_t result_limbs)
{
    return s.a_limbs + (s.b_shared ? 0 : s.b_limbs) + result_limbs;
}

// Whether count * per_element > per_thread * threads, without overflow.
bool batch_exceeds(std::uint64_t per_element, std::size_t count, std::uint64_t per_thread, unsigned threads)
{
    return count > 0 && per_element > per_thread * std::max(1u, threads) / count;
}

// The pipelined path's rule for `count` elements of `products` limb products and `moved` limbs:
// the products beyond the break-even, summed, exceed `per_thread` a host thread.
bool pipelined_gpu_pays(std::uint64_t products, std::uint64_t moved, std::size_t count, unsigned threads,
                        std::uint64_t per_thread = kMinExcessLimbProductsPerThread)
{
    const std::uint64_t break_even = kMinLimbProductsPerLimbMoved * moved;
    return products > break_even && batch_exceeds(products - break_even, count, per_thread, threads);
}

}  // namespace

bool gpu_pays_for_host_products(const HostShape& shape, unsigned threads)
{
    return pipelined_gpu_pays(limb_products(shape.a_limbs, shape.b_limbs), limbs_moved(shape, shape.a_limbs + shape.b_limbs),
                              shape.count, threads);
}

bool gpu_pays_for_host_addmul(const HostShape& shape, std::uint64_t r_limbs, unsigned threads)
{
    // As the product's, r counted where it is longer than the product: moving r and the sums
    // costs the GPU path about as much more as the additions cost the host threads (measured:
    // 1.2 to 1.5 times the product's time on the GPU path, 1.1 to 2.2 times on the host).
    return pipelined_gpu_pays(limb_products(shape.a_limbs, shape.b_limbs),
                              limbs_moved(shape, std::max(r_limbs, shape.a_limbs + shape.b_limbs)), shape.count, threads);
}

bool gpu_pays_for_host_exact_division(const HostShape& shape, unsigned threads)
{
    // As a product of the quotient by the divisor where the quotients are short enough for the
    // GPU's one-kernel Hensel division; longer ones take Newton's method, several kernels and
    // temporaries a chunk (about 0.25 ms a call), and pay from 2^21 limb products a host thread.
    // Measured on 16 threads (bench/results/2026-11-24-h200-div-pipelined-*.md): 4096-bit
    // dividends by 2048-bit divisors, 1024 elements 0.076 ms on the host against 0.102 on the
    // GPU, 4096 0.30 against 0.22; 16384 bits, 1024 0.67 against 0.92, 4096 2.6 against 1.2;
    // 32768 bits, 256 0.49 against 0.63, 1024 2.2 against 1.2; 131072 bits, 16 0.32 against
    // 0.50, 64 1.28 against 0.85.
    const std::uint64_t quotient = quotient_limbs(shape), products = limb_products(quotient, shape.b_limbs);
    const std::uint64_t moved = limbs_moved(shape, quotient);
    if (quotient < kNewtonQuotientLimbs) return pipelined_gpu_pays(products, moved, shape.count, threads);
    return products > kMinLimbProductsPerLimbMoved * moved &&
           batch_exceeds(products, shape.count, kMinNewtonDivisionLimbProductsPerThread, threads);
}

bool gpu_pays_for_host_division(const HostShape& shape, unsigned threads)
{
    // Quotient times divisor limb products, moving a, b unless shared, the quotients and the
    // remainders (as long as the divisors). Quotients of one limb cost the host next to nothing.
    if (shape.a_limbs < shape.b_limbs) return false;
    const std::uint64_t quotient = quotient_limbs(shape);
    return pipelined_gpu_pays(limb_products(quotient, shape.b_limbs), limbs_moved(shape, quotient + shape.b_limbs),
                              shape.count, threads, kMinDivisionExcessLimbProductsPerThread);
}

}  // namespace zgpu
