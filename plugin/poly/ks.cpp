#include "plugin/poly/ks.hpp"

#include <bit>

#include <flint/ulong_extras.h>

namespace zgpu::poly {

unsigned ks_bits(ulong n, std::uint64_t m)
{
    return 2 * unsigned(std::bit_width(n)) + unsigned(std::bit_width(m));
}

std::uint64_t ks_limbs(const ulong* coeffs, std::size_t len, unsigned bits)
{
    if (len == 0) return 0;
    const std::uint64_t top = std::uint64_t(len - 1) * bits + std::uint64_t(std::bit_width(coeffs[len - 1]));
    return (top + 63) / 64;
}

void ks_pack(const ulong* coeffs, std::size_t len, unsigned bits, ulong* dst)
{
    // acc holds bits [64 written, 64 written + 128) of the integer: each coefficient starts
    // below bit 64 of it once the limbs under it are out, and ends below bit 128.
    unsigned __int128 acc = 0;
    std::uint64_t written = 0, position = 0;
    for (std::size_t i = 0; i < len; ++i, position += bits) {
        while (position - 64 * written >= 64) {
            dst[written++] = ulong(acc);
            acc >>= 64;
        }
        acc |= static_cast<unsigned __int128>(coeffs[i]) << (position - 64 * written);
    }
    for (const std::uint64_t limbs = ks_limbs(coeffs, len, bits); written < limbs; acc >>= 64) dst[written++] = ulong(acc);
}

namespace {

// Bits [position, position + bits) of src[0 .. size), bits <= 192, as three words.
struct Digit {
    ulong lo, mid, hi;
};

Digit digit_at(const ulong* src, std::size_t size, std::uint64_t position, unsigned bits)
{
    const std::size_t w = std::size_t(position / 64);
    const unsigned shift = unsigned(position % 64);
    const std::size_t words = (shift + bits + 63) / 64;  // at most 4
    ulong x[4] = {0, 0, 0, 0};
    for (std::size_t t = 0; t < words && w + t < size; ++t) x[t] = src[w + t];
    ulong y[3];
    for (int t = 0; t < 3; ++t) y[t] = shift ? (x[t] >> shift) | (x[t + 1] << (64 - shift)) : x[t];
    // Keep `bits` bits: the words from bits / 64 up are masked or cleared.
    const unsigned full = bits / 64, rest = bits % 64;
    for (unsigned t = full; t < 3; ++t) y[t] = (t == full && rest) ? y[t] & ((ulong(1) << rest) - 1) : 0;
    return {y[0], y[1], y[2]};
}

}  // namespace

void ks_unpack(const ulong* src, std::size_t size, unsigned bits, nmod_t mod, ulong* out, std::size_t out_len)
{
    std::uint64_t position = 0;
    for (std::size_t k = 0; k < out_len; ++k, position += bits) {
        const Digit d = digit_at(src, size, position, bits);
        // FLINT's functions, not its NMOD_RED macros: FLINT 2.9's shift an int by the
        // modulus's normalisation (undefined behaviour the sanitizers report).
        if (d.hi) out[k] = n_lll_mod_preinv(n_mod2_preinv(d.hi, mod.n, mod.ninv), d.mid, d.lo, mod.n, mod.ninv);
        else if (d.mid) out[k] = n_ll_mod_preinv(d.mid, d.lo, mod.n, mod.ninv);
        else out[k] = n_mod2_preinv(d.lo, mod.n, mod.ninv);
    }
}

}  // namespace zgpu::poly
