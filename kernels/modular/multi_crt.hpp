// Reconstruction of integers from their residues modulo a set of pairwise coprime moduli by the
// Chinese remainder theorem (FLINT's fmpz_multi_CRT_ui on a whole vector).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/residue_view.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// out[e] = the x with x = r.prime(i)[e] mod n_i for every i < tables.count: with sign false
// the one in [0, P), with sign true the one in FLINT's symmetric range -P < 2x <= P (so P/2,
// for even P, is positive), as fmpz_multi_CRT_ui(..., sign = 1).
// Contract: r, out and the tables in device memory; r.count == out.count, r.primes ==
// tables.count, every residue below its modulus; out.stride >= tables.product_limbs; out does
// not overlap r. Writes every limb of out up to its stride (zeros above each size) and every
// size. Takes temporary device memory from the stream-ordered pool, (8 k' + 17) bytes a value
// for at most max(128, 2^25 / k' rounded down to a multiple of 128) values at a time (256 MiB),
// k' = k rounded up to 16 where k <= 4096 (the tensor cores' kernel), else k: the values go in
// chunks of that many. Only enqueues work on `stream`; launch and allocation errors are thrown as zgpu::Error.
void multi_crt(ConstResidueView r, const ModularTablesView& tables, bool sign, BatchView out, cudaStream_t stream);

// Loads multi_crt's kernels into the current context, where CUDA would load each at its first
// launch.
void load_multi_crt_kernels();

}  // namespace zgpu::kernels
