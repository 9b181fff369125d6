// The constants of a set of k pairwise coprime moduli n_0 .. n_(k-1) (each 2 <= n_i < 2^64)
// that reduction (multi_mod) and reconstruction (multi_crt) read, and the same fields as device
// pointers (ModularTablesView). The library builds them on the device (tables_on_device.hpp);
// the host's builder here checks the moduli and serves the kernels' tests, from the same entry
// functions. Host C++ (the entry functions host and device): no CUDA, no FLINT.
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
#include "kernels/modular/power_mod.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// R: limbs a block of powers. kMaxLimbs / R block powers cover every element of a batch.
inline constexpr std::uint32_t kPowerBlock = 256;
inline constexpr std::uint32_t kPowerBlocks = kMaxLimbs / kPowerBlock;
static_assert(kMaxLimbs % kPowerBlock == 0);

// The tables' entries, one at a time, for the builders on the host and on the device.

// B^e mod n.
ZGPU_HOST_DEVICE inline limb_t limb_base_power(const Modulus& m, std::uint64_t e) { return pow_mod(m, m.reduce(1, 0), e); }

// M_i mod n_i = prod_(j != i) n_j mod n_i.
ZGPU_HOST_DEVICE inline limb_t cofactor_mod(const Modulus* moduli, std::size_t k, std::size_t i)
{
    limb_t cofactor = 1;
    for (std::size_t j = 0; j < k; ++j)
        if (j != i) cofactor = moduli[i].mul(cofactor, moduli[i].reduce(moduli[j].n));
    return cofactor;
}

// x^-1 mod n for any n >= 2 and 0 <= x < n coprime to it, by the extended Euclidean algorithm.
// The coefficients of x alternate in sign, so their magnitudes grow by |s_(j+1)| = |s_(j-1)| +
// q_j |s_j| up to n, and the sign of the last follows from the number of steps.
ZGPU_HOST_DEVICE inline limb_t inverse_mod_coprime(limb_t x, limb_t n)
{
    limb_t r0 = n, r1 = x, s0 = 0, s1 = 1;
    bool odd_steps = false;
    while (r1 != 0) {
        const limb_t q = r0 / r1, r = r0 - q * r1, s = s0 + q * s1;
        r0 = r1, r1 = r;
        s0 = s1, s1 = s;
        odd_steps = !odd_steps;
    }
    return odd_steps ? s0 % n : n - s0;
}

// quotient[w * stride] = limb w of P / n for the `limbs` limbs of P, where n divides P.
ZGPU_HOST_DEVICE inline void divide_by_modulus(const Modulus& m, const limb_t* product, std::uint32_t limbs, limb_t* quotient,
                                               std::size_t stride)
{
    limb_t remainder = 0;
    for (std::uint32_t w = limbs; w-- > 0;) {
        const QuotientRemainder qr = m.divide(remainder, product[w]);
        quotient[w * stride] = qr.quotient;
        remainder = qr.remainder;
    }
}

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

// P = n_0 ... n_(k-1), least significant limb first, without leading zero limbs: k^2 / 2 word
// products for 62-bit moduli.
std::vector<limb_t> moduli_product(std::span<const limb_t> moduli);

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
