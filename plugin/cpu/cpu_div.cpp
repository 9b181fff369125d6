#include "plugin/cpu/cpu_div.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <gmp.h>

#include "base/parallel.hpp"

namespace zgpu::cpu {
namespace {

// Element i of a batch as a read-only GMP value over the batch's own limbs.
mpz_srcptr element(ConstBatchView batch, std::size_t i, mpz_t holder)
{
    return mpz_roinit_n(holder, batch.element(i), batch.sizes[i]);
}

// Writes `value` as element i: limbs, zeros up to the stride, signed size. The strides hold
// every true quotient and remainder; only the unspecified quotient of an inexact unchecked
// exact division could be longer, and it is cut to the stride (still a valid element).
void store(BatchView out, std::size_t i, mpz_srcptr value)
{
    const limb_t* source = mpz_limbs_read(value);
    std::size_t n = std::min<std::size_t>(mpz_size(value), out.stride);
    while (n > 0 && source[n - 1] == 0) --n;
    limb_t* limbs = out.element(i);
    std::copy_n(source, n, limbs);
    std::fill(limbs + n, limbs + out.stride, limb_t(0));
    out.sizes[i] = std::int32_t(mpz_sgn(value) < 0 ? -std::int64_t(n) : std::int64_t(n));
}

// A GMP value that frees itself, one per thread and range.
struct Mpz {
    mpz_t value;
    Mpz() { mpz_init(value); }
    ~Mpz() { mpz_clear(value); }
    Mpz(const Mpz&) = delete;
    Mpz& operator=(const Mpz&) = delete;
};

// Threads pay from about 2^16 limbs of work on.
std::size_t min_parallel(ConstBatchView a) { return std::max<std::size_t>(2, (std::size_t(1) << 16) / a.stride); }

}  // namespace

kernels::DivisionSummary summarize_division(ConstBatchView a, ConstBatchView b)
{
    kernels::DivisionSummary summary{b.count, kMaxLimbs, 0};
    summary.first_zero = std::size_t(std::find(b.sizes, b.sizes + b.count, 0) - b.sizes);
    for (std::size_t i = 0; i < b.count; ++i) summary.min_size = std::min<std::uint32_t>(summary.min_size, std::abs(b.sizes[i]));
    if (summary.first_zero < b.count) return summary;
    const auto top = [](ConstBatchView x, std::size_t i, std::uint32_t n) { return n ? x.element(i)[n - 1] : limb_t(0); };
    for (std::size_t i = 0; i < a.count; ++i) {
        const std::size_t other = b.count == 1 ? 0 : i;
        const std::uint32_t na = std::abs(a.sizes[i]), nb = std::abs(b.sizes[other]);
        const std::uint32_t bound = kernels::quotient_limbs_bound(na, top(a, i, na), nb, top(b, other, nb));
        summary.longest_quotient = std::max(summary.longest_quotient, bound);
    }
    return summary;
}

std::size_t divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast_b, bool checked)
{
    std::atomic<std::size_t> first_inexact = a.count;
    parallel_for(a.count, min_parallel(a), [&](std::size_t begin, std::size_t end) {
        Mpz quotient, remainder;
        mpz_t x, y;
        for (std::size_t i = begin; i < end; ++i) {
            const mpz_srcptr dividend = element(a, i, x), divisor = element(b, broadcast_b ? 0 : i, y);
            if (checked) {
                mpz_tdiv_qr(quotient.value, remainder.value, dividend, divisor);
                if (mpz_sgn(remainder.value) != 0) {
                    std::size_t seen = first_inexact.load();
                    while (i < seen && !first_inexact.compare_exchange_weak(seen, i)) {}
                }
            } else {
                mpz_divexact(quotient.value, dividend, divisor);
            }
            store(q, i, quotient.value);
        }
    });
    return first_inexact.load();
}

void div_qr(ConstBatchView a, ConstBatchView b, BatchView q, BatchView r, bool broadcast_b, bool floor)
{
    parallel_for(a.count, min_parallel(a), [&](std::size_t begin, std::size_t end) {
        Mpz quotient, remainder;
        mpz_t x, y;
        for (std::size_t i = begin; i < end; ++i) {
            const mpz_srcptr dividend = element(a, i, x), divisor = element(b, broadcast_b ? 0 : i, y);
            if (floor) mpz_fdiv_qr(quotient.value, remainder.value, dividend, divisor);
            else mpz_tdiv_qr(quotient.value, remainder.value, dividend, divisor);
            store(q, i, quotient.value);
            store(r, i, remainder.value);
        }
    });
}

void mod(ConstBatchView a, ConstBatchView m, BatchView r)
{
    parallel_for(a.count, min_parallel(a), [&](std::size_t begin, std::size_t end) {
        Mpz remainder;
        mpz_t x, y;
        const mpz_srcptr modulus = element(m, 0, y);
        for (std::size_t i = begin; i < end; ++i) {
            mpz_fdiv_r(remainder.value, element(a, i, x), modulus);
            store(r, i, remainder.value);
        }
    });
}

}  // namespace zgpu::cpu
