// Exact division by the 2-adic method (Hensel; Jebelean). Short operands go to one thread an
// element (kernels/divexact_hensel.cu), divisors up to 512 limbs to one warp an element
// (kernels/divexact_hensel_warp.cu), both quadratic; longer divisors, for a = q b exactly:
//   1. Remove the t low zero bits of b from both: a' = |a| / 2^t, b' = |b| / 2^t, b' odd.
//   2. x = b'^-1 mod B^Q (B = 2^64, Q = q.stride) by Newton's iteration x <- x (2 - b' x),
//      which doubles the correct limbs each step, from the inverse of b's lowest word.
//   3. |q| = a' x mod B^Q, exact since |q| < B^Q; sign(q) = sign(a) sign(b).
// Cost in products, all full products of kernels::mul (a low half alone would save half of
// a classical product but nothing of an NTT's): a step from p to 2p limbs multiplies b' mod
// B^2p by x (2p x p limbs) and x by the p high limbs of that (p x p), so the inverse costs
// about 2 products of Q x Q limbs in all (the steps below halve), and step 3 one more. A
// shared divisor has its inverse computed once: one product an element.
#include "gpu_div.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "../kernels/div_steps.hpp"
#include "../kernels/divexact_hensel.hpp"
#include "gpu_mul.hpp"
#include "gpu_temporary.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

enum class DivAlgorithm { automatic, hensel, newton };

// ZGPU_DIV_ALGORITHM=hensel|newton|auto (default auto) forces an exact division method where
// it applies, to compare them; other values are rejected.
DivAlgorithm requested_algorithm()
{
    const char* value = std::getenv("ZGPU_DIV_ALGORITHM");
    const std::string name = value ? value : "auto";
    if (name == "auto") return DivAlgorithm::automatic;
    if (name == "hensel") return DivAlgorithm::hensel;
    if (name == "newton") return DivAlgorithm::newton;
    throw Error("ZGPU_DIV_ALGORITHM=" + name + ": expected hensel, newton or auto");
}

// Hensel's quadratic kernels where they apply, except that a shared divisor too long for the
// one-thread kernel has its inverse computed once, then costs one product an element: on an
// H200 that ran 47 against the one-warp kernel's 36 M/s at 8192 bits, while the one-thread
// kernel ran 264 against 142 at 4096 bits (bench/results/2026-11-22-h200-div-*).
bool use_hensel(bool broadcast, bool one_thread, bool one_warp)
{
    switch (requested_algorithm()) {
    case DivAlgorithm::hensel: return one_thread || one_warp;
    case DivAlgorithm::newton: return false;
    default: return one_thread || (one_warp && !broadcast);
    }
}

// odd[i]^-1 mod B^precision for odd odd[i], by Newton steps from one limb.
TemporaryBatch inverse(Runtime& runtime, ConstBatchView odd, std::uint32_t precision, cudaStream_t stream)
{
    const std::size_t n = odd.count;
    TemporaryBatch x(n, 1, stream);
    kernels::word_inverse(odd, x.view(), stream);
    for (std::uint32_t p = 1; p < precision;) {
        // Every stride is a size class: next is a power of two or precision, and d = next - p
        // is a multiple of the granule of precision's class, p/8, hence of d's own.
        const std::uint32_t next = std::min(2 * p, precision), d = next - p;
        TemporaryBatch b_low(n, next, stream), bx(n, size_class(next + p), stream), h(n, d, stream);
        kernels::slice({.in = odd, .out = b_low.view()}, stream);
        mul(runtime, b_low.view(), x.view(), bx.view(), false, stream);
        // b' x = 1 + B^p h mod B^next, so x (2 - b' x) = x - B^p (x h mod B^d) mod B^next.
        kernels::slice({.in = bx.view(), .first_limb = p, .out = h.view()}, stream);
        TemporaryBatch x_low(n, d, stream), w(n, size_class(2 * d), stream);
        kernels::slice({.in = x.view(), .out = x_low.view()}, stream);
        mul(runtime, x_low.view(), h.view(), w.view(), false, stream);
        TemporaryBatch lifted(n, next, stream);
        kernels::newton_lift(x.view(), w.view(), lifted.view(), stream);
        x = std::move(lifted);
        p = next;
    }
    return x;
}

void divexact_newton(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, cudaStream_t stream)
{
    const std::uint32_t precision = q.stride;
    TemporaryBatch b_odd(b.count, b.stride, stream), a_odd(a.count, precision, stream);
    kernels::slice({.in = b, .twos_of = b, .out = b_odd.view()}, stream);
    const TemporaryBatch x = inverse(runtime, b_odd.view(), precision, stream);
    // Only a' mod B^Q matters; it carries the quotient's sign into the product.
    kernels::slice({.in = a, .twos_of = b, .keep_sign = true, .sign_of = b, .broadcast = broadcast, .out = a_odd.view()},
                   stream);
    TemporaryBatch product(a.count, size_class(2 * precision), stream);
    mul(runtime, a_odd.view(), x.view(), product.view(), broadcast, stream);
    kernels::slice({.in = product.view(), .keep_sign = true, .out = q}, stream);
}

}  // namespace

kernels::DivisorSummary summarize_divisors(Runtime& runtime, ConstBatchView b, cudaStream_t stream)
{
    StreamMemory on_device(sizeof(kernels::DivisorSummary), stream);
    auto* summary = static_cast<kernels::DivisorSummary*>(on_device.data());
    kernels::summarize_divisors(b, summary, stream);
    kernels::DivisorSummary result{};
    check(cudaMemcpyAsync(&result, summary, sizeof result, cudaMemcpyDeviceToHost, stream), "reading the divisor summary");
    runtime.synchronize("summarizing divisors");
    return result;
}

std::size_t divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked,
                     cudaStream_t stream)
{
    if (a.count == 0) return 0;
    StreamMemory first(sizeof(unsigned long long), stream);
    auto* first_inexact = checked ? static_cast<unsigned long long*>(first.data()) : nullptr;
    unsigned long long result = a.count;
    if (checked)
        check(cudaMemcpyAsync(first_inexact, &result, sizeof result, cudaMemcpyHostToDevice, stream), "starting the exactness check");
    const bool one_thread = (checked ? a.stride : q.stride) <= kernels::kDivexactHenselMaxLimbs;
    const bool one_warp = !one_thread && b.stride <= kernels::kDivexactWarpMaxDivisorLimbs;
    if (use_hensel(broadcast, one_thread, one_warp)) {
        if (one_thread) kernels::divexact_hensel(a, b, broadcast, q, first_inexact, stream);
        else kernels::divexact_hensel_warp(a, b, broadcast, q, first_inexact, stream);
    } else {
        divexact_newton(runtime, a, b, q, broadcast, stream);
        if (checked) {
            // Exact exactly when q b = a.
            TemporaryBatch product(a.count, size_class(q.stride + b.stride), stream);
            mul(runtime, q, b, product.view(), broadcast, stream);
            kernels::first_difference(product.view(), a, first_inexact, stream);
        }
    }
    if (!checked) return a.count;
    check(cudaMemcpyAsync(&result, first_inexact, sizeof result, cudaMemcpyDeviceToHost, stream), "reading the exactness check");
    runtime.synchronize("checking exactness");
    return std::size_t(result);
}

}  // namespace zgpu::gpu
