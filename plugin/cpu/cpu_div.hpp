// The CPU backend of batched division: GMP on the elements in place (no copies in), threaded
// over elements. Shared by the batch operations (batch_div.cpp); the GPU kernels will have the
// same contracts and results.
#pragma once

#include <cstddef>

#include "kernels/div/division_summary.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::cpu {

// What a division of a by b (b[0] for all when b has one element) needs to know first.
kernels::DivisionSummary summarize_division(ConstBatchView a, ConstBatchView b);

// q[i] = a[i] / b[i] (or b[0]), for nonzero divisors; q.stride holds every quotient. With `checked`,
// returns the first i whose division is not exact (a.count if all are), and q's contents are
// then unspecified; unchecked, a non-exact pair gives an unspecified q[i] and it returns a.count.
std::size_t divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast_b, bool checked);

// q[i], r[i] = quotient and remainder rounded toward -infinity (floor) or zero, for nonzero
// divisors; q.stride holds every quotient, r.stride >= b.stride.
void div_qr(ConstBatchView a, ConstBatchView b, BatchView q, BatchView r, bool broadcast_b, bool floor);

// r[i] = a[i] mod m[0] in [0, m), for m positive. r.stride >= m.stride.
void mod(ConstBatchView a, ConstBatchView m, BatchView r);

}  // namespace zgpu::cpu
