// From residues modulo a few 64-bit NTT primes to residues modulo other word moduli: the step
// that turns the products of poly_mul into products mod n for a modulus n that is not one of the
// primes (the exact product over Z is below the primes' product P, so x mod n follows from x's
// mixed-radix digits without forming x).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/modular/modulus.hpp"
#include "kernels/modular/residue_view.hpp"
#include "kernels/ntt/ntt_field64.hpp"

namespace zgpu::kernels {

// The most primes crt_to_moduli takes.
inline constexpr std::size_t kCrtToModuliMaxPrimes = 8;

// Garner's constants of primes p_0 .. p_(k-1) (host-built, device memory):
// below[i * k + l] = p_0 ... p_(l-1) mod p_i in Montgomery form (l < i), inverse[i] =
// (p_0 ... p_(i-1))^-1 R mod p_i.
struct GarnerView {
    std::size_t primes = 0;
    const Field64* fields = nullptr;
    const limb_t* below = nullptr;
    const limb_t* inverse = nullptr;
};

// For every value e of group j (e in [offsets[j], offsets[j] + lengths[j])): out[e] = x mod n_j,
// x in [0, P) the value with residues r.prime(i)[e]. moduli[j] is n_j and radix[j * k + l] =
// p_0 ... p_(l-1) mod n_j (radix[j * k] = 1 mod n_j).
// Contract: device memory throughout; r.primes == g.primes <= kCrtToModuliMaxPrimes, every
// prime between 2^60 and 2^62 (a digit v_l < p_l is then below 4 p_i, as the Montgomery product
// needs); residues below their primes; max_length >= every lengths[j]; out does not overlap r.
// Only enqueues work on `stream`; launch errors are thrown as zgpu::Error.
void crt_to_moduli(ConstResidueView r, const GarnerView& g, const Modulus* moduli, const limb_t* radix,
                   const std::uint64_t* offsets, const std::uint32_t* lengths, std::size_t groups,
                   std::uint32_t max_length, limb_t* out, cudaStream_t stream);

}  // namespace zgpu::kernels
