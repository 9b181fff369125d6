// Residues between FLINT's interleaved layout (one value's residues together, as
// fmpz_multi_mod_ui writes them: interleaved[e * primes + i]) and the prime-major layout of
// ResidueView, on the device.
//
// Contract: both in device memory, not overlapping; the view's count and primes give the shape.
// Only enqueue work on `stream`; launch errors are thrown as zgpu::Error.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/modular/residue_view.hpp"

namespace zgpu::kernels {

// out.prime(i)[e] = interleaved[e * out.primes + i].
void residues_from_interleaved(const limb_t* interleaved, ResidueView out, cudaStream_t stream);
// interleaved[e * in.primes + i] = in.prime(i)[e].
void residues_to_interleaved(ConstResidueView in, limb_t* interleaved, cudaStream_t stream);

}  // namespace zgpu::kernels
