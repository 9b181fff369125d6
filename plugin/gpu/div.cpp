// Exact division by the 2-adic method (Hensel; Jebelean). Short quotients go to one thread an
// element (kernels/divexact_hensel.cu), mid-size ones by divisors of up to 279 limbs to R
// quotient limbs a step on T lanes (kernels/divexact_block.cu), both quadratic; longer ones
// (the choice and its measurements are below) by Newton's inverse, for a = q b exactly:
//   1. Remove the t low zero bits of b from both: a' = |a| / 2^t, b' = |b| / 2^t, b' odd.
//   2. x = b'^-1 mod B^Q (B = 2^64, Q = q.stride) by Newton's iteration x <- x (2 - b' x),
//      which doubles the correct limbs each step, from 16 limbs by Hensel's schoolbook steps.
//   3. |q| = a' x mod B^Q, exact since |q| < B^Q; sign(q) = sign(a) sign(b).
// Q is a bound on the quotients' length from the operands (kernels::quotient_limbs_bound), not
// from the strides: a stride-based Q of 129 limbs for 256 / 128 would cost a 144-limb size class
// and one more Newton step. Cost in limb products, with low products (kernels::mul computes only
// the limbs below B^n where it runs the tensor-core kernel; elsewhere a low product costs a full
// one): a step from p to 2p limbs multiplies b' mod B^2p by x (1.5 p^2 of the 2 p^2 pairs lie
// below B^2p) and x by the p new limbs h mod B^p (p^2 / 2), 2 p^2 in all, so the inverse costs
// 2 Q^2 / 3 (the steps below halve) and step 3 Q^2 / 2: about 1.2 full products of Q x Q limbs
// (about 3 with full products). A shared divisor has its inverse computed once: half a product
// an element.
#include "plugin/gpu/div.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "kernels/div/div_steps.hpp"
#include "kernels/div/divexact_hensel.hpp"
#include "plugin/gpu/mul.hpp"
#include "kernels/common/temporary.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

enum class DivAlgorithm { automatic, hensel, block, newton };

// ZGPU_DIV_ALGORITHM=hensel|block|newton|auto (default auto) forces an exact division method
// where it applies, to compare them; other values are rejected.
DivAlgorithm requested_algorithm()
{
    const char* value = std::getenv("ZGPU_DIV_ALGORITHM");
    const std::string name = value ? value : "auto";
    if (name == "auto") return DivAlgorithm::automatic;
    if (name == "hensel") return DivAlgorithm::hensel;
    if (name == "block") return DivAlgorithm::block;
    if (name == "newton") return DivAlgorithm::newton;
    throw Error("ZGPU_DIV_ALGORITHM=" + name + ": expected hensel, block, newton or auto");
}

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

HenselKernel choose_kernel(bool broadcast, bool checked, std::uint32_t quotient_stride, Fits fits)
{
    switch (requested_algorithm()) {
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

// odd[i]^-1 mod B^precision for odd odd[i]: the first limbs by Hensel's schoolbook steps, then
// Newton steps, each doubling them.
kernels::TemporaryBatch inverse(Runtime& runtime, ConstBatchView odd, std::uint32_t precision, cudaStream_t stream)
{
    const std::size_t n = odd.count;
    std::uint32_t p = std::min(precision, kernels::kInverseStartMaxLimbs);
    kernels::TemporaryBatch x(n, p, stream);
    kernels::inverse_start(odd, x.view(), stream);
    while (p < precision) {
        // Every stride is a size class: next is a power of two or precision, and d = next - p
        // is a multiple of the granule of precision's class, p/8, hence of d's own.
        const std::uint32_t next = std::min(2 * p, precision), d = next - p;
        kernels::TemporaryBatch b_low(n, next, stream), bx(n, next, stream), h(n, d, stream), w(n, d, stream);
        kernels::slice({.in = odd, .out = b_low.view()}, stream);
        mul_low(runtime, b_low.view(), x.view(), bx.view(), false, stream);
        // b' x = 1 + B^p h mod B^next, so x (2 - b' x) = x - B^p (x h mod B^d) mod B^next.
        kernels::slice({.in = bx.view(), .first_limb = p, .out = h.view()}, stream);
        if (d == p) mul_low(runtime, x.view(), h.view(), w.view(), false, stream);
        else {
            const kernels::TemporaryBatch x_low(n, d, stream);
            kernels::slice({.in = x.view(), .out = x_low.view()}, stream);
            mul_low(runtime, x_low.view(), h.view(), w.view(), false, stream);
        }
        kernels::TemporaryBatch lifted(n, next, stream);
        kernels::newton_lift(x.view(), w.view(), lifted.view(), stream);
        x = std::move(lifted);
        p = next;
    }
    return x;
}

// q's stride is the precision: every exact quotient fits it.
void divexact_newton(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, cudaStream_t stream)
{
    const std::uint32_t precision = q.stride;
    kernels::TemporaryBatch b_odd(b.count, b.stride, stream), a_odd(a.count, precision, stream);
    kernels::slice({.in = b, .twos_of = b, .out = b_odd.view()}, stream);
    const kernels::TemporaryBatch x = inverse(runtime, b_odd.view(), precision, stream);
    // Only a' mod B^Q matters; it carries the quotient's sign into the product.
    kernels::slice({.in = a, .twos_of = b, .keep_sign = true, .sign_of = b, .broadcast = broadcast, .out = a_odd.view()},
                   stream);
    mul_low(runtime, a_odd.view(), x.view(), q, broadcast, stream);
}

}  // namespace

kernels::DivisionSummary summarize_division(Runtime& runtime, ConstBatchView a, ConstBatchView b, cudaStream_t stream)
{
    kernels::StreamMemory on_device(sizeof(kernels::DivisionSummary), stream);
    auto* summary = static_cast<kernels::DivisionSummary*>(on_device.data());
    kernels::summarize_division(a, b, summary, stream);
    auto* result = reinterpret_cast<kernels::DivisionSummary*>(runtime.staging(sizeof(kernels::DivisionSummary)));
    check(cudaMemcpyAsync(result, summary, sizeof *result, cudaMemcpyDeviceToHost, stream), "reading the division summary");
    runtime.synchronize("summarizing a division");
    return *result;
}

std::size_t divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked,
                     cudaStream_t stream)
{
    if (a.count == 0) return 0;
    // Checked: the first inexact index, from a.count down, on the device and in pinned memory.
    kernels::StreamMemory first(checked ? sizeof(unsigned long long) : 0, stream);
    auto* first_inexact = static_cast<unsigned long long*>(first.data());
    auto* result = checked ? reinterpret_cast<unsigned long long*>(runtime.staging(sizeof(unsigned long long))) : nullptr;
    if (checked) {
        *result = a.count;
        check(cudaMemcpyAsync(first_inexact, result, sizeof *result, cudaMemcpyHostToDevice, stream), "starting the exactness check");
    }
    const Fits fits{.one_thread = (checked ? a.stride : q.stride) <= kernels::kDivexactHenselMaxLimbs,
                    .block = b.stride <= kernels::kDivexactBlockMaxDivisorLimbs};
    switch (choose_kernel(broadcast, checked, q.stride, fits)) {
    case HenselKernel::one_thread: kernels::divexact_hensel(a, b, broadcast, q, first_inexact, stream); break;
    case HenselKernel::block: kernels::divexact_hensel_block(a, b, broadcast, q, first_inexact, stream); break;
    case HenselKernel::none:
        divexact_newton(runtime, a, b, q, broadcast, stream);
        if (checked) {
            // Exact exactly when q b = a.
            kernels::TemporaryBatch product(a.count, size_class(q.stride + b.stride), stream);
            mul(runtime, q, b, product.view(), broadcast, stream);
            kernels::first_difference(product.view(), a, first_inexact, stream);
        }
    }
    if (!checked) return a.count;
    check(cudaMemcpyAsync(result, first_inexact, sizeof *result, cudaMemcpyDeviceToHost, stream), "reading the exactness check");
    runtime.synchronize("checking exactness");
    return std::size_t(*result);
}

}  // namespace zgpu::gpu
