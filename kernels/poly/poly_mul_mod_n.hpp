// Short polynomial products modulo word moduli, each product its own modulus n (any 2 <= n <
// 2^64), in one kernel: the operands reduced modulo five 29-bit primes (five_primes.hpp), the
// products modulo each by the NTT in shared memory, and the CRT to each n. For the batches
// of modular algorithms: thousands of short products modulo different n.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <cuda_runtime_api.h>

#include "kernels/ntt/ntt_field.hpp"
#include "kernels/poly/five_primes.hpp"
#include "kernels/poly/poly_mul.hpp"

namespace zgpu::kernels {

// The longest transform poly_mul_mod_n takes: the five primes' spectra of a product fill 40 KiB of
// shared memory.
inline constexpr std::uint32_t kPolyMulModNMaxLength = 2048;

// The five primes' twiddle tables, kPolyMulModNMaxLength entries a prime and direction, prime i's
// at i * kPolyMulModNMaxLength: entry h + j is w_2h^j (forward) or w_2h^-j (inverse) with its
// Shoup companion, as ntt_twiddles.hpp's fill_twiddles lays them out. Device memory.
struct FivePrimeTablesView {
    const Twiddle* forward = nullptr;
    const Twiddle* inverse = nullptr;
};

// The tables on the host, for copying to the device: `forward` and `inverse` each of
// kFivePrimeCount kPolyMulModNMaxLength entries.
void fill_five_prime_tables(std::span<Twiddle> forward, std::span<Twiddle> inverse);

// out_j = a_j b_j mod x^(out.lengths[j]) mod moduli[j], every coefficient in [0, n_j), for
// j < products; `square` computes a_j^2 (b is not read).
// Contract: a, b and out read and write values.prime(0) (any words in a and b, reduced on the
// way); moduli[j] >= 2; out.lengths[j] <= min(la, n) + min(lb, n) - 1 as poly_mul's; `length` a
// power of two from poly_ntt_length(...) of every product up to kPolyMulModNMaxLength; everything
// in device memory; out overlaps neither a nor b. Only enqueues work on `stream`; launch errors
// are thrown as zgpu::Error.
void poly_mul_mod_n(ConstPolyBatchView a, ConstPolyBatchView b, bool square, std::size_t products, std::uint32_t length,
                    const limb_t* moduli, const FivePrimeTablesView& tables, PolyBatchView out, cudaStream_t stream);

}  // namespace zgpu::kernels
