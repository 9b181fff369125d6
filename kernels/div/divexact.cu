// kernels::divexact: the exact division method by the quotients' length. Short quotients go
// to one thread an element (divexact_hensel.cu), mid-size ones by divisors of up to 279 limbs
// to R quotient limbs a step on T lanes (divexact_block.cu), both quadratic; longer ones to
// Newton's inverse (divexact_newton.cu).
#include "kernels/div/divexact.hpp"

#include <cstdint>

#include "kernels/div/divexact_hensel.hpp"
#include "kernels/div/divexact_newton.hpp"

namespace zgpu::kernels {
namespace {

// The kernels of Hensel's method; the Newton inverse and a product where none applies.
enum class HenselKernel { one_thread, block, none };

// What fits each kernel, and the automatic choice among them. Measured on an H200
// (bench/results/2026-11-23-h200-div-*), M divisions/s: one thread is fastest for short
// quotients (2048 bits: 1056 against the block kernel's 527) and checked short dividends; the
// block kernel from quotients of 33 limbs (4096 bits: 231 to 250 against Newton's 179);
// Newton's method with low products from 64 (8192 bits: 92 against 67 to 75; 16384: 42.6
// against 20.5; 65536: 7.4 against 1.7 of a one-warp Hensel kernel, since removed), checked
// from 128 (at 64 both run 69 to 74; 16384 bits: 31 against 20.5); a shared divisor, its
// inverse computed once, from 32 (4096 bits: 339 against one thread's 308; 16384 bits: 103
// against 20).
struct Fits {
    bool one_thread, block;
};

HenselKernel choose_kernel(DivAlgorithm algorithm, bool broadcast, bool checked, std::uint32_t quotient_stride, Fits fits)
{
    switch (algorithm) {
    case DivAlgorithm::hensel:
        return fits.one_thread ? HenselKernel::one_thread : HenselKernel::none;
    case DivAlgorithm::block: return fits.block ? HenselKernel::block : HenselKernel::none;
    case DivAlgorithm::newton: return HenselKernel::none;
    default:
        if (quotient_stride >= (broadcast ? 32u : checked ? 128u : 64u)) return HenselKernel::none;
        if (fits.one_thread && (checked || broadcast || quotient_stride <= 24)) return HenselKernel::one_thread;
        if (fits.block) return HenselKernel::block;
        return fits.one_thread ? HenselKernel::one_thread : HenselKernel::none;
    }
}

}  // namespace

void divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, DivAlgorithm algorithm,
              const MulContext& products, unsigned long long* first_inexact, cudaStream_t stream)
{
    const bool checked = first_inexact != nullptr;
    const Fits fits{.one_thread = (checked ? a.stride : q.stride) <= kDivexactHenselMaxLimbs,
                    .block = b.stride <= kDivexactBlockMaxDivisorLimbs};
    switch (choose_kernel(algorithm, broadcast, checked, q.stride, fits)) {
    case HenselKernel::one_thread: return divexact_hensel(a, b, broadcast, q, first_inexact, stream);
    case HenselKernel::block: return divexact_hensel_block(a, b, broadcast, q, first_inexact, stream);
    case HenselKernel::none: return divexact_newton(a, b, q, broadcast, products, first_inexact, stream);
    }
}

}  // namespace zgpu::kernels
