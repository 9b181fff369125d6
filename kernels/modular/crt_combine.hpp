// The CRT's combine kernels (multi_crt.cu has the algorithm): S = sum_i y_i M_i for a chunk of
// values, carried from the low limbs up into the magnitudes that crt_fix and crt_negate finish.
// The tensor kernel reads y in rows (CrtChunk::y_row) and is exact up to kCrtTensorMaxModuli
// moduli; the word kernel reads y prime-major and takes any number.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/modular/crt_carry.cuh"
#include "kernels/modular/modular_tables.hpp"

namespace zgpu::kernels {

inline constexpr std::size_t kCrtTensorMaxModuli = 4096;

// Moduli a row of y in the tensor kernel's layout: k rounded up to a stage of 16.
inline std::size_t crt_y_row(std::size_t k) { return (k + 15) / 16 * 16; }

void crt_combine_tensor(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream);
void crt_combine_words(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream);

}  // namespace zgpu::kernels
