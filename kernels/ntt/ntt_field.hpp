// Arithmetic modulo the three NTT primes, and the CRT that recombines them; host and device.
//
// Products by the NTT (mul_ntt.cu) cut operands into 32-bit digits and convolve them modulo
// three primes p < 2^30 with p - 1 divisible by 2^21.
// Exactness: a coefficient of the digit convolution is a sum of at most min(da, db) products
// of two digits, so below min(da, db) * (2^32 - 1)^2; CRT recovers it when that is below
// p0 * p1 * p2 (about 2^89.7). kNttMaxMinDigits bounds min(da, db) and the static_assert below
// checks the bound; the largest supported product needs 2^16 digits (2^80), far inside it.
// Inside the transforms residues are lazy (Harvey): any value in [0, 2p) stands for its class,
// and as 4p < 2^32 a butterfly needs no carries and one correction an output.
#pragma once

#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// Longest transform: a result of kMaxLimbs limbs has 2 * kMaxLimbs digits.
inline constexpr std::uint32_t kNttMaxLength = 2 * kMaxLimbs;
// The smaller operand of a product whose result fits in kMaxLimbs has at most this many digits.
inline constexpr std::uint64_t kNttMaxMinDigits = kMaxLimbs;

// On the device one IMAD.HI, where the 64-bit product's low half would go unused (the batch of
// 10^4 products of length 1024 through five primes: 1.34 against 1.32 ms on an H100).
ZGPU_HOST_DEVICE constexpr std::uint32_t mul_high(std::uint32_t x, std::uint32_t y)
{
#ifdef __CUDA_ARCH__
    return __umulhi(x, y);
#else
    return std::uint32_t((std::uint64_t(x) * y) >> 32);
#endif
}

// x y + z for words x, y and a two-word z. On the device one multiply-add (mad.wide.u32), where
// the product written as one of two widened words has ptxas add their zero high halves too.
ZGPU_HOST_DEVICE inline std::uint64_t mul_add_wide(std::uint32_t x, std::uint32_t y, std::uint64_t z)
{
#ifdef __CUDA_ARCH__
    std::uint64_t r;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(x), "r"(y), "l"(z));
    return r;
#else
    return std::uint64_t(x) * y + z;
#endif
}

ZGPU_HOST_DEVICE constexpr std::uint32_t min_word(std::uint32_t x, std::uint32_t y) { return x < y ? x : y; }

// A constant factor w < p and its Shoup companion (PrimeField::shoup), loaded as one 8-byte word:
// the transforms' twiddles, and the constants that other kernels multiply by.
struct alignas(8) ShoupFactor {
    std::uint32_t w, w_shoup;
};
using Twiddle = ShoupFactor;

// One prime and the constants its arithmetic needs.
struct PrimeField {
    using Word = std::uint32_t;
    using Twiddle = kernels::Twiddle;
    // Words hold lazy residues up to 4p (butterfly_bounds.hpp): p < 2^30.
    static constexpr int kHeadroom = 4;

    std::uint32_t p;
    std::uint32_t inverse_p;   // p^-1 mod 2^32
    std::uint32_t one_shoup;   // floor(2^32 / p), Shoup's companion of 1
    // 2p and 4p, loaded rather than computed: a correction is then one ALU instruction (an
    // addition fused with the minimum) where computing them took IMADs, on the pipe that the
    // products need. 4p is for primes below 2^29, whose words have room for 8p.
    std::uint32_t two_p, four_p;

    // x < 2p to [0, p), and x < 4p to [0, 2p): below the bound, x - p (x - 2p) wraps around
    // to a larger word exactly when x is already in range.
    ZGPU_HOST_DEVICE constexpr std::uint32_t normal(std::uint32_t x) const { return min_word(x, x - p); }
    ZGPU_HOST_DEVICE constexpr std::uint32_t lazy(std::uint32_t x) const { return below(x, 2); }
    // x < 4p to [0, p).
    ZGPU_HOST_DEVICE constexpr std::uint32_t exact(std::uint32_t x) const { return normal(lazy(x)); }
    // c p for c = 2 or 4, the constants of the butterflies' differences and corrections; and
    // x < 2c p to [0, c p).
    ZGPU_HOST_DEVICE constexpr std::uint32_t multiple(int c) const { return c == 2 ? two_p : four_p; }
    ZGPU_HOST_DEVICE constexpr std::uint32_t below(std::uint32_t x, int c) const { return min_word(x, x - multiple(c)); }

    // Exact arithmetic on [0, p).
    ZGPU_HOST_DEVICE constexpr std::uint32_t add(std::uint32_t x, std::uint32_t y) const { return normal(x + y); }
    ZGPU_HOST_DEVICE constexpr std::uint32_t sub(std::uint32_t x, std::uint32_t y) const { return normal(x + p - y); }
    ZGPU_HOST_DEVICE constexpr std::uint32_t mul(std::uint32_t x, std::uint32_t w, std::uint32_t w_shoup) const
    {
        return normal(mul_lazy(x, w, w_shoup));
    }

    // Shoup's companion of a constant w < p: floor(w * 2^32 / p).
    ZGPU_HOST_DEVICE constexpr std::uint32_t shoup(std::uint32_t w) const { return std::uint32_t((std::uint64_t(w) << 32) / p); }
    // x * w mod p in [0, 2p) for any 32-bit x, given w's companion: the quotient estimate
    // mul_high(x, w_shoup) is low by at most one.
    ZGPU_HOST_DEVICE constexpr std::uint32_t mul_lazy(std::uint32_t x, std::uint32_t w, std::uint32_t w_shoup) const
    {
        return x * w - mul_high(x, w_shoup) * p;
    }
    ZGPU_HOST_DEVICE constexpr std::uint32_t mul_twiddle(std::uint32_t x, const ShoupFactor& w) const
    {
        return mul_lazy(x, w.w, w.w_shoup);
    }
    // Any 32-bit word, into [0, 2p): x * 1 the same way.
    ZGPU_HOST_DEVICE constexpr std::uint32_t reduce_word(std::uint32_t x) const { return x - mul_high(x, one_shoup) * p; }
    // x * y / 2^32 mod p (Montgomery) in (0, x y / 2^32 + p], below 2p for x, y < 2p as 4p < 2^32:
    // with m = x y p^-1 mod 2^32, m p has x y's low word, so x y - m p is 2^32 (high(x y) -
    // high(m p)) with no borrow, and high(m p) < p.
    ZGPU_HOST_DEVICE constexpr std::uint32_t mul_montgomery(std::uint32_t x, std::uint32_t y) const
    {
        const std::uint64_t t = std::uint64_t(x) * y;
        const std::uint32_t m = std::uint32_t(t) * inverse_p;
        return std::uint32_t(t >> 32) - mul_high(m, p) + p;
    }

    ZGPU_HOST_DEVICE constexpr std::uint32_t pow(std::uint32_t x, std::uint64_t e) const
    {
        std::uint64_t result = 1, base = x % p;
        for (; e; e >>= 1, base = base * base % p)
            if (e & 1) result = result * base % p;
        return std::uint32_t(result);
    }
    ZGPU_HOST_DEVICE constexpr std::uint32_t inverse(std::uint32_t x) const { return pow(x, p - 2); }
};

ZGPU_HOST_DEVICE constexpr std::uint32_t inverse_mod_word(std::uint32_t p)
{
    std::uint32_t inv = 1;  // Newton's iteration for p^-1 mod 2^32: each step doubles the correct bits
    for (int i = 0; i < 5; ++i) inv *= 2 - p * inv;
    return inv;
}

ZGPU_HOST_DEVICE constexpr PrimeField make_field(std::uint32_t p)
{
    return {p, inverse_mod_word(p), std::uint32_t((std::uint64_t(1) << 32) / p), 2 * p, 4 * p};
}

// 479 * 2^21 + 1, 119 * 2^23 + 1, 235 * 2^22 + 1: each < 2^30, each within a factor of two of
// the others (so one conditional subtraction moves a residue between them). Scalars, so that
// device code may read them in constant expressions.
inline constexpr int kNttPrimeCount = 3;
inline constexpr std::uint32_t kNttPrimes[kNttPrimeCount] = {1004535809u, 998244353u, 985661441u};

constexpr bool exact_for_largest_product()
{
    unsigned __int128 modulus = 1;
    for (const std::uint32_t p : kNttPrimes) modulus *= p;
    const unsigned __int128 digit_max = 0xffffffffu;
    return kNttMaxMinDigits * digit_max * digit_max < modulus;
}
static_assert(exact_for_largest_product(), "the CRT modulus must exceed every coefficient of the digit convolution");
constexpr bool primes_fit_lazy_residues()
{
    std::uint32_t smallest = kNttPrimes[0], largest = kNttPrimes[0];
    for (const std::uint32_t p : kNttPrimes) {
        if (p >= (1u << 30) || (p - 1) % kNttMaxLength != 0) return false;
        smallest = p < smallest ? p : smallest;
        largest = p > largest ? p : largest;
    }
    return largest < 2 * smallest;
}
static_assert(primes_fit_lazy_residues(), "primes below 2^30 with roots of unity of every transform length, within a factor of two");

// A primitive root of unity of order `length` (a power of two up to kNttMaxLength) modulo f.p.
ZGPU_HOST_DEVICE constexpr std::uint32_t root_of_unity(const PrimeField& f, std::uint32_t length)
{
    std::uint32_t g = 2;
    while (f.pow(g, (f.p - 1) / 2) == 1) ++g;  // a quadratic non-residue generates the 2-part
    return f.pow(g, (f.p - 1) / length);
}

// A coefficient of the convolution: three 32-bit words, least significant first.
struct Words96 {
    std::uint32_t word[3];
};

// Garner's CRT for the three primes: from residues (r0, r1, r2) in [0, p) the unique x < p0 p1 p2.
// x = r0 + p0 * v1 + p0 p1 * v2 with v1 < p1 and v2 < p2.
ZGPU_HOST_DEVICE constexpr Words96 crt_combine(std::uint32_t r0, std::uint32_t r1, std::uint32_t r2)
{
    constexpr PrimeField f0 = make_field(kNttPrimes[0]), f1 = make_field(kNttPrimes[1]), f2 = make_field(kNttPrimes[2]);
    constexpr std::uint32_t inv_p0_mod_p1 = f1.inverse(f0.p % f1.p), inv_p0_mod_p1_shoup = f1.shoup(inv_p0_mod_p1);
    constexpr std::uint32_t p0_mod_p2 = f0.p % f2.p, p0_mod_p2_shoup = f2.shoup(p0_mod_p2);
    constexpr std::uint32_t inv_p0p1_mod_p2 = f2.inverse(std::uint32_t(std::uint64_t(f0.p) * f1.p % f2.p));
    constexpr std::uint32_t inv_p0p1_mod_p2_shoup = f2.shoup(inv_p0p1_mod_p2);
    constexpr std::uint64_t p0p1 = std::uint64_t(f0.p) * f1.p;

    const std::uint32_t v1 = f1.mul(f1.sub(r1, f1.normal(r0)), inv_p0_mod_p1, inv_p0_mod_p1_shoup);
    const std::uint32_t y_mod_p2 = f2.add(f2.normal(r0), f2.mul(v1, p0_mod_p2, p0_mod_p2_shoup));
    const std::uint32_t v2 = f2.mul(f2.sub(r2, y_mod_p2), inv_p0p1_mod_p2, inv_p0p1_mod_p2_shoup);
    const std::uint64_t y = r0 + std::uint64_t(f0.p) * v1;  // < p0 p1 < 2^60
    // x = y + p0p1 * v2: a 64-bit value plus a 64 x 32-bit product, in 96 bits.
    const std::uint64_t low = std::uint64_t(std::uint32_t(p0p1)) * v2 + std::uint32_t(y);
    const std::uint64_t high = (p0p1 >> 32) * v2 + (y >> 32) + (low >> 32);
    return {{std::uint32_t(low), std::uint32_t(high), std::uint32_t(high >> 32)}};
}

}  // namespace zgpu::kernels
