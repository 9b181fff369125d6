// nmod_mat_mul on the chosen backend: the GPU's product (plugin/gpu/matrix_backend.hpp) where
// it pays, FLINT's own function on all host threads otherwise.
#pragma once

#include <functional>

#include <flint/nmod_mat.h>

#include "zgpu/backend.hpp"

namespace zgpu::matrix {

// The GPU's part, replaceable in tests: c = a b mod n from host rows (gpu::nmod_mat_mul).
using NmodMatGpu = std::function<void(nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b)>;

// Whether the cost model sends a b to the GPU (before ZGPU_BACKEND is read).
bool gpu_pays_for_nmod_mat_product(const nmod_mat_struct* a, const nmod_mat_struct* b);

// c = a b as FLINT's nmod_mat_mul: shapes and moduli already checked by the caller; c may be a
// or b. Returns the backend that ran. A GPU that fails with nothing written leaves the product
// to the host, with a warning, unless ZGPU_BACKEND=gpu asked for it, where the error stands.
Backend nmod_mat_product(nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b);
Backend nmod_mat_product_on(Backend backend, nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b,
                            const NmodMatGpu& gpu);

}  // namespace zgpu::matrix
