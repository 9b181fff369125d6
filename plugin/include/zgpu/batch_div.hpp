// Device-resident division on DeviceBatch, with FLINT's semantics element by element.
// b holds a.count() elements, or one that divides them all. A zero divisor throws zgpu::Error
// naming the first one, with every output untouched; so do mismatched shapes or backends.
// Outputs may be inputs. Exact division of GPU batches runs on the GPU (2-adic, with products
// of up to kMaxLimbs limbs; longer ones go through the host). So do division with remainder
// and mod (schoolbook, one warp an element) for divisor strides up to 512 limbs (32768 bits).
#pragma once

#include "zgpu/device_batch.hpp"

namespace zgpu {

// q[i] = a[i] / b[i] where b[i] divides a[i], as fmpz_divexact: for a pair that does not divide
// exactly q[i] is unspecified. q gets a stride that holds every quotient: a's less the
// smallest divisor's size, plus one, or, where quotients can be long, a bound on each one from
// its operands' sizes and top limbs (often a limb or a size class less).
void divexact(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b);
// The same, verified: a pair that does not divide exactly throws zgpu::Error naming the first
// such index, with q untouched.
void divexact_checked(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b);

// Quotient and remainder rounded toward -infinity (fdiv_qr) or zero (tdiv_qr), as FLINT's
// fmpz_fdiv_qr and fmpz_tdiv_qr. q gets the stride a's less the smallest divisor's size, plus
// one (two for floor rounding), r b's; q and r must be different batches.
void fdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);
void tdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);

// r[i] = a[i] mod m in [0, m), for m one positive element (_fmpz_vec_scalar_mod_fmpz). r gets
// m's stride.
void mod(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& m);

}  // namespace zgpu
