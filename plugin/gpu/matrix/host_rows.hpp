// Matrices between FLINT's rows (nmod_mat: row pointers in FLINT 2.9, a stride in FLINT 3) and
// one packed row-major array in pinned memory, on the host threads where it pays.
#pragma once

#include <cstddef>
#include <span>

#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Rows of `words` words each, from `rows` to one packed array, or back.
void gather_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed);
void scatter_rows(const limb_t* packed, std::size_t words, std::span<limb_t* const> rows);

}  // namespace zgpu::gpu
