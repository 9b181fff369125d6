// The CRT's combine kernels (multi_crt.cu has the algorithm): S = sum_i y_i M_i for a chunk of
// values, carried from the low limbs up into the magnitudes that crt_fix and crt_negate finish.
// The tensor kernel reads y as images of its shared-memory stages (CrtChunk::y_stages) and is
// exact up to kCrtTensorMaxModuli moduli; the word kernel reads y prime-major and takes any
// number.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/modular/crt_carry.cuh"
#include "kernels/modular/modular_tables.hpp"

namespace zgpu::kernels {

inline constexpr std::size_t kCrtTensorMaxModuli = 4096;
inline constexpr int kCrtTensorValues = 128;       // values a block of the tensor kernel
inline constexpr int kCrtTensorStageModuli = 16;   // moduli a stage of it

// Stages of the tensor kernel for k moduli.
inline std::size_t crt_y_stages(std::size_t k) { return (k + kCrtTensorStageModuli - 1) / kCrtTensorStageModuli; }

// Where y_i of value e goes in the tensor kernel's images of its stages: block e / 128, stage
// i / 16, 16 words a value in the stage, modulus i % 16 at word i % 16 of them but with the pairs
// of words (16-byte chunks) permuted by e % 8 (spreading ldmatrix's rows over the banks).
ZGPU_HOST_DEVICE inline std::size_t crt_y_image_word(std::size_t e, std::size_t i, std::size_t stages)
{
    const std::size_t block = e / kCrtTensorValues, value = e % kCrtTensorValues, stage = i / kCrtTensorStageModuli;
    const std::size_t word = i % kCrtTensorStageModuli, chunk = (word / 2) ^ (value % 8);
    return ((block * stages + stage) * kCrtTensorValues + value) * kCrtTensorStageModuli + 2 * chunk + word % 2;
}

// Whether a block on the current device may have the tensor kernel's shared memory (110 KiB:
// sm_80 and sm_90 give more, sm_86 and sm_89 less).
bool crt_tensor_fits_device();
void crt_combine_tensor(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream);
void crt_combine_words(const ModularTablesView& t, bool sign, const CrtChunk& c, cudaStream_t stream);
// Loads both combining kernels into the current context (the second: the tensor kernel alone).
void load_crt_combine_kernels();
void load_crt_combine_tensor_kernel();

}  // namespace zgpu::kernels
