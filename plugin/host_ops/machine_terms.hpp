// The terms of the GPU that several cost models share, measured on the H200 machine. Each
// family's model (mat_choice, the models of fmpz_mat_mul and nmod_mat_lu, poly_choice,
// modular_choice, host_choice) adds the terms it fitted to its own benchmark beside them.
#pragma once

namespace zgpu::machine {

// The H200's IMAD peak: 32 x 32-bit integer multiply-adds a second (bench_matrix's device rows).
inline constexpr double kImadPerSecond = 1.67e13;
// A multiply-add modulo a 62-bit prime in the matrix kernels: 8 IMADs (four 32 x 32-bit
// products and their carries), at about half the peak (mat_mul_mod measured 53 %).
inline constexpr double kGpuSecondsPerTermMod = 8 / (0.5 * kImadPerSecond);

}  // namespace zgpu::machine
