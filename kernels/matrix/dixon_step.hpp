// The two kernels of a step of Dixon's p-adic lifting for a x = b over Z (a n x n, b n x cols),
// where the host has a's inverse modulo a prime p:
//   y = a^-1 r mod p, the solution's next p-adic digit, with r = d mod p;
//   d = (d - a y) / p, an exact division, as d - a y = 0 mod p.
// d stays in residues modulo a few primes q_j besides p: |d| <= M = max(|b|, n |a|) at every
// step (|d - a y| <= M + n |a| (p - 1) <= M p), so q_0 ... q_{m-1} = Q > 2 M holds it, and the
// division by p is a product by 1/p mod q_j. Each step finds d mod p again from those residues:
// the residues of d + C, C = (Q - 1) / 2, give its mixed-radix digits (Garner), and d + C lies in
// [0, Q). Contract: device memory, entries below their modulus; only enqueue work on `stream`;
// launch errors are thrown as zgpu::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <cuda_runtime_api.h>

#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// Residue moduli of d at most: with primes above 2^61, entries of a up to about 900 bits.
constexpr std::size_t kDixonMaxModuli = 16;

// p, the q_j and the constants of a step.
struct DixonModuli {
    Modulus p;
    std::uint32_t count = 0;                            // m
    std::uint32_t matrix[kDixonMaxModuli] = {};         // q_j's matrix in the batch of a's residues
    Modulus q[kDixonMaxModuli] = {};
    limb_t p_inverse[kDixonMaxModuli] = {};             // 1 / p mod q_j
    limb_t garner[kDixonMaxModuli][kDixonMaxModuli] = {};  // 1 / q_l mod q_j for l < j
    limb_t radix_mod_p[kDixonMaxModuli] = {};           // q_0 ... q_(j-1) mod p
    limb_t offset_mod_p = 0;                            // C mod p
};
// A kernel's parameters hold it whole.
static_assert(sizeof(DixonModuli) <= 4000);

// The constants for p and the primes q (1 <= q.size() <= kDixonMaxModuli, distinct odd primes
// other than p), q[j]'s matrix being matrix[j] of the batch of a's residues. Host only.
DixonModuli dixon_moduli(limb_t p, std::span<const limb_t> q, std::span<const std::uint32_t> matrix);

// y = inverse r mod p: inverse n x n (row stride n), r and y n x cols (row stride cols).
void dixon_digit(const limb_t* inverse, const limb_t* r, std::size_t n, std::size_t cols, const Modulus& p, limb_t* y,
                 cudaStream_t stream);

// For each j < m: d_j = (d_j - a_j y) / p mod q_j, where a_j is matrix moduli.matrix[j] of `a`
// (n x n) and d_j matrix j of `d` (n x cols); then r = d mod p (n x cols, row stride cols).
// `finished`, where not null, is raised by one as block 0 finishes (a count for progress lines).
void dixon_residual(ConstMatricesView a, const limb_t* y, MatricesView d, const DixonModuli& moduli, limb_t* r,
                    unsigned long long* finished, cudaStream_t stream);

}  // namespace zgpu::kernels
