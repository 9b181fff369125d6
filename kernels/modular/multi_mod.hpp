// Reduction of a batch of signed integers modulo every modulus of a set (FLINT's
// fmpz_multi_mod_ui on a whole vector).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/residue_view.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// out.prime(i)[e] = x[e] mod n_i in [0, n_i) for e < x.count, i < tables.count: a negative
// x[e] with nonzero residue r gives n_i - r, as fmpz_fdiv_ui.
// Contract: x, out and the tables in device memory; |x.sizes[e]| <= kMaxLimbs; out.count ==
// x.count, out.primes == tables.count, out.prime_stride >= out.count; out does not overlap x.
// Writes exactly the residues (nothing past out.count in a modulus's row). Limbs of x at and
// above an element's size are not read. Only enqueues work on `stream`; launch errors are thrown
// as zgpu::Error.
void multi_mod(ConstBatchView x, const ModularTablesView& tables, ResidueView out, cudaStream_t stream);

// Loads multi_mod's kernels into the current context, where CUDA would load each at its first
// launch.
void load_multi_mod_kernels();

}  // namespace zgpu::kernels
