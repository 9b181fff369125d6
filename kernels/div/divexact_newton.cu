// Exact division by the 2-adic method (Hensel; Jebelean) with Newton's inverse, for a = q b
// exactly:
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
#include "kernels/div/divexact_newton.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "kernels/common/temporary.hpp"
#include "kernels/div/div_steps.hpp"

namespace zgpu::kernels {
namespace {

// odd[i]^-1 mod B^precision for odd odd[i]: the first limbs by Hensel's schoolbook steps, then
// Newton steps, each doubling them.
TemporaryBatch inverse(ConstBatchView odd, std::uint32_t precision, const MulContext& products, cudaStream_t stream)
{
    const std::size_t n = odd.count;
    std::uint32_t p = std::min(precision, kInverseStartMaxLimbs);
    TemporaryBatch x(n, p, stream);
    inverse_start(odd, x.view(), stream);
    while (p < precision) {
        // Every stride is a size class: next is a power of two or precision, and d = next - p
        // is a multiple of the granule of precision's class, p/8, hence of d's own.
        const std::uint32_t next = std::min(2 * p, precision), d = next - p;
        TemporaryBatch b_low(n, next, stream), bx(n, next, stream), h(n, d, stream), w(n, d, stream);
        slice({.in = odd, .out = b_low.view()}, stream);
        mul_low(b_low.view(), x.view(), bx.view(), false, products, stream);
        // b' x = 1 + B^p h mod B^next, so x (2 - b' x) = x - B^p (x h mod B^d) mod B^next.
        slice({.in = bx.view(), .first_limb = p, .out = h.view()}, stream);
        if (d == p) mul_low(x.view(), h.view(), w.view(), false, products, stream);
        else {
            const TemporaryBatch x_low(n, d, stream);
            slice({.in = x.view(), .out = x_low.view()}, stream);
            mul_low(x_low.view(), h.view(), w.view(), false, products, stream);
        }
        TemporaryBatch lifted(n, next, stream);
        newton_lift(x.view(), w.view(), lifted.view(), stream);
        x = std::move(lifted);
        p = next;
    }
    return x;
}

// q's stride is the precision: every exact quotient fits it.
void quotient(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, const MulContext& products, cudaStream_t stream)
{
    const std::uint32_t precision = q.stride;
    TemporaryBatch b_odd(b.count, b.stride, stream), a_odd(a.count, precision, stream);
    slice({.in = b, .twos_of = b, .out = b_odd.view()}, stream);
    const TemporaryBatch x = inverse(b_odd.view(), precision, products, stream);
    // Only a' mod B^Q matters; it carries the quotient's sign into the product.
    slice({.in = a, .twos_of = b, .keep_sign = true, .sign_of = b, .broadcast = broadcast, .out = a_odd.view()}, stream);
    mul_low(a_odd.view(), x.view(), q, broadcast, products, stream);
}

}  // namespace

void divexact_newton(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, const MulContext& products,
                     unsigned long long* first_inexact, cudaStream_t stream)
{
    quotient(a, b, q, broadcast, products, stream);
    if (!first_inexact) return;
    // Exact exactly when q b = a.
    const TemporaryBatch product(a.count, size_class(q.stride + b.stride), stream);
    mul(q, b, product.view(), broadcast, products, stream);
    first_difference(product.view(), a, first_inexact, stream);
}

}  // namespace zgpu::kernels
