// Device-resident arithmetic on DeviceBatch: r[i] = a[i] op b[i], data stays on the backend.
#pragma once

#include "zgpu/device_batch.hpp"

namespace zgpu {

// r[i] = a[i] + b[i] and r[i] = a[i] - b[i], with fmpz semantics.
// a and b must have the same count and live on the same backend; r may be a or b.
// r gets stride size_class(max(a.stride(), b.stride()) + 1): the result can grow by one limb.
// A result that already has that shape (and is neither operand) is overwritten in place.
// On the GPU the work is queued on the stream of zgpu's first device (zgpu/backend.hpp):
// download() and synchronize() wait for it.
// Throws zgpu::Error (r untouched) on mismatched shapes or backends, or when that stride
// would exceed kMaxLimbs.
void add(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);
void sub(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);

// r[i] = a[i] * b[i], the full signed product; b may instead hold one element, which then
// multiplies every a[i] (a scalar times a vector). r may be a or b. r gets stride
// size_class(a.stride() + b.stride()), at most kMaxLimbs. On the GPU the classical kernel
// multiplies small operands and the NTT large ones (kernels/mul.cu has the crossover); the
// NTT's working memory is taken in chunks that fit the free device memory. Throws zgpu::Error,
// r untouched, for shapes that do not match or a result stride above kMaxLimbs.
void mul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);

// r[i] = a[i]^2: mul(r, a, a), which the NTT does with one forward transform instead of two.
void sqr(DeviceBatch& r, const DeviceBatch& a);

// r[i] += a[i] * b[i] and r[i] -= a[i] * b[i] (or b[0] when b holds one element), with r of
// a's count; r may be a or b. For now the product goes through a temporary batch and then an
// addition, so r gets the stride that addition gives it.
void addmul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);
void submul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b);

// Waits until all queued work on the backend has finished (nothing to do on the CPU);
// throws zgpu::Error with the failure of any queued work.
void synchronize(Backend backend);

}  // namespace zgpu
