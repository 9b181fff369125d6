// The GPU's matrix products mod n for the plugin's matrix layer (plugin/matrix/): host
// matrices given by their rows, as FLINT's nmod_mat keeps them (FLINT 2.9: an array of row
// pointers; FLINT 3: a stride). Built with or without CUDA (without, each throws zgpu::Error).
#pragma once

#include <cstddef>
#include <span>

#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// c = a b mod n: a of a_rows.size() rows of `inner` words, b of inner rows of `cols` words, c
// of a_rows.size() rows of `cols` words, entries of a and b in [0, n), 2 <= n. c's rows are
// written after a's and b's are read (aliasing allowed), and only once the whole product is in:
// on an error (zgpu::Error: device memory too small, a device failure) nothing is written.
void nmod_mat_mul(std::span<const limb_t* const> a_rows, std::span<const limb_t* const> b_rows, std::span<limb_t* const> c_rows,
                  std::size_t inner, std::size_t cols, limb_t n);

}  // namespace zgpu::gpu
