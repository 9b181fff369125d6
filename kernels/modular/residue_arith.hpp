// Elementwise arithmetic on residues modulo every modulus of a set, one launch for all moduli,
// as FLINT's _nmod_vec_add, _sub, _neg, pointwise products, _scalar_mul_nmod and
// _scalar_addmul_nmod do for one.
//
// Common contract: all views, `scalars` and the tables in device memory; every view has count
// r.count and primes tables.count; every input residue below its modulus (outputs then are
// too); r may be the same view as an input (same data and prime_stride), no other overlap.
// Writes r.prime(i)[e] for e < r.count only. Only enqueue work on `stream`; launch errors are
// thrown as zgpu::Error.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/residue_view.hpp"

namespace zgpu::kernels {

// r = a + b, a - b, a * b mod n_i.
void residues_add(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream);
void residues_sub(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream);
void residues_mul(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream);
// r = -a mod n_i.
void residues_neg(ConstResidueView a, const ModularTablesView& tables, ResidueView r, cudaStream_t stream);
// r = a * scalars[i] mod n_i; scalar_addmul: r += a * scalars[i] mod n_i. scalars[i] < n_i.
void residues_scalar_mul(ConstResidueView a, const limb_t* scalars, const ModularTablesView& tables, ResidueView r, cudaStream_t stream);
void residues_scalar_addmul(ConstResidueView a, const limb_t* scalars, const ModularTablesView& tables, ResidueView r,
                            cudaStream_t stream);

}  // namespace zgpu::kernels
