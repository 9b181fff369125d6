// The constants of a set of k pairwise coprime moduli n_0 .. n_(k-1) (each 2 <= n_i < 2^64)
// that reduction (multi_mod) and reconstruction (multi_crt) read, built on the host; and the
// same fields as device pointers (ModularTablesView), filled by whoever copies them to the
// device. Pure host C++: no CUDA, no FLINT.
//
// Reduction: x mod n_i = sum_j x_j (B^j mod n_i) over the limbs x_j of x, B = 2^64. Limb j = b R + c
// (R = kPowerBlock) uses powers[c] and block_powers[b], so the powers take (R + kMaxLimbs / R) k
// = 512 k words whatever the length: 4 KiB a modulus, 16 MiB at k = 4096.
// CRT: P = n_0 ... n_(k-1), M_i = P / n_i, c_i = M_i^-1 mod n_i. The cofactors M_i take
// k * product_limbs words: about k^2 / 64 words for 62-bit moduli, 128 MiB at k = 4096 (a
// 2^18-bit P). The fractions y_i / n_i the CRT's quotient estimate needs are computed by the
// kernel from each y_i (one word division), so no table holds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/modular/modulus.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// R: limbs a block of powers. kMaxLimbs / R block powers cover every element of a batch.
inline constexpr std::uint32_t kPowerBlock = 256;
inline constexpr std::uint32_t kPowerBlocks = kMaxLimbs / kPowerBlock;
static_assert(kMaxLimbs % kPowerBlock == 0);

struct ModularTables {
    std::size_t count = 0;                // k
    std::vector<Modulus> moduli;          // [i]: n_i and its reciprocal
    std::vector<limb_t> powers;           // [c * k + i] = B^c mod n_i, c < kPowerBlock
    std::vector<limb_t> block_powers;     // [b * k + i] = B^(R b) mod n_i, b < kPowerBlocks
    std::vector<limb_t> crt_inverses;     // [i] = c_i = (P / n_i)^-1 mod n_i
    std::vector<limb_t> cofactors;        // [i * product_limbs + w]: limb w of M_i = P / n_i
    std::vector<limb_t> product;          // the product_limbs limbs of P (the top one nonzero)
    std::uint32_t product_limbs = 0;
    std::uint64_t product_bits = 0;
};

// Validates `moduli` and builds their tables. Throws zgpu::Error, naming the offending indices,
// for k = 0, a modulus below 2, or two moduli with a common factor (repeated ones included).
// Work: O(k^2) word operations (k^2 products mod n for the coprimality test and c_i, k
// divisions of P by a word for the M_i): well under a second at k = 4096.
ModularTables make_modular_tables(std::span<const limb_t> moduli);

// The reduction's tables alone (moduli, powers, block_powers; the CRT's fields empty,
// product_limbs 0) for moduli known to be pairwise coprime (a generated set of primes): O(k)
// work and 4 KiB a modulus, where make_modular_tables takes O(k^2) and k product_limbs words for
// the cofactors (580 MB at k = 8411). For algorithms that reduce on the GPU and reconstruct one
// value on the host (determinants, resultants). Throws zgpu::Error for k = 0 or a modulus below 2.
ModularTables make_reduction_tables(std::span<const limb_t> moduli);

// The validation alone, with the same errors: O(k^2) products mod n.
void validate_moduli(std::span<const limb_t> moduli);

// The same tables in device memory; the layouts are ModularTables's.
struct ModularTablesView {
    std::size_t count = 0;
    const Modulus* moduli = nullptr;
    const limb_t* powers = nullptr;
    const limb_t* block_powers = nullptr;
    const limb_t* crt_inverses = nullptr;
    const limb_t* cofactors = nullptr;
    const limb_t* product = nullptr;
    std::uint32_t product_limbs = 0;
    std::uint64_t product_bits = 0;
};

}  // namespace zgpu::kernels
