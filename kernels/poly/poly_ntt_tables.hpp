// The twiddle tables of the polynomial products' transforms (poly_mul.hpp): for each prime of a
// set of 64-bit NTT primes, the roots of unity of every power-of-two length up to N, in device
// memory, built there (make_poly_ntt_tables) from one root a prime.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/ntt/ntt_field64.hpp"

namespace zgpu::kernels {

// Entry h + j of prime i's forward table (1 <= h < N a power of two, j < h) is the twiddle
// w_2h^j mod p_i with its Shoup companion (Twiddle64), with w_2h = w_N^(N / 2h); the inverse
// table holds w_2h^-j. Entry 0 is unused. One table of length N serves every transform of length
// up to N.
struct PolyNttTablesView {
    std::size_t primes = 0;
    std::uint32_t length = 0;           // N
    const Field64* fields = nullptr;     // [i]
    const Twiddle64* forward = nullptr;  // [i * N + h + j]
    const Twiddle64* inverse = nullptr;

    __host__ __device__ const Twiddle64* forward_table(std::size_t i) const { return forward + i * length; }
    __host__ __device__ const Twiddle64* inverse_table(std::size_t i) const { return inverse + i * length; }
};

// Fills `forward` and `inverse` (device memory, primes * length entries each) for the device
// array `fields`, given each prime's root of order `length` in Montgomery form (device arrays
// `roots`, `inverse_roots`). length a power of two >= 2, dividing every p_i - 1. Only enqueues
// work on `stream`; launch errors are thrown as zgpu::Error.
void make_poly_ntt_tables(const Field64* fields, const limb_t* roots, const limb_t* inverse_roots, std::size_t primes,
                          std::uint32_t length, Twiddle64* forward, Twiddle64* inverse, cudaStream_t stream);

}  // namespace zgpu::kernels
