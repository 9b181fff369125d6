// nmod_mat_det and nmod_mat_rank on the chosen backend: the GPU's blocked LU where the modulus is
// prime and it pays, FLINT's own functions otherwise (composite moduli included: FLINT's
// determinant handles them, the GPU's elimination needs inverses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include <flint/nmod_mat.h>

#include "plugin/matrix/mat_choice.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::matrix {

// The GPU's parts, replaceable in tests: det(a) and rank(a) mod a prime from host rows;
// columns_done, where not empty, is told of the columns eliminated as they are (progress lines).
using NmodMatDetGpu = std::function<ulong(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)>;
using NmodMatRankGpu = std::function<slong(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)>;

// As FLINT's nmod_mat_det (a square, checked by the caller) and nmod_mat_rank. A GPU that fails
// leaves the call to the host, with a warning, unless ZGPU_BACKEND=gpu asked for it, where the
// error stands. Progress lines (ZGPU_PROGRESS=1) count the columns eliminated.
ulong nmod_mat_lu_det(const nmod_mat_struct* a);
slong nmod_mat_lu_rank(const nmod_mat_struct* a);
ulong nmod_mat_lu_det_on(Backend backend, const nmod_mat_struct* a, const NmodMatDetGpu& gpu);
slong nmod_mat_lu_rank_on(Backend backend, const nmod_mat_struct* a, const NmodMatRankGpu& gpu);

}  // namespace zgpu::matrix
