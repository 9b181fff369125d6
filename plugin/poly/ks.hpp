// Kronecker substitution (KS) of polynomials modulo n into integers and back, limb by limb:
// A(x) = sum a_i x^i becomes the integer A(2^b), coefficient i at bit offset b * i, so that a
// polynomial product is one integer product whose b-bit digits are the product's coefficients.
//
// The bound: with every coefficient in [0, n - 1] and m = min(la, lb), coefficient k of the
// product over Z is a sum of at most m products a_i b_j, so c_k <= m (n - 1)^2. As
// m < 2^bits(m) and n - 1 < 2^bits(n), c_k < 2^(2 bits(n) + bits(m)) = 2^b: each c_k fits its
// b bits, the digits of A(2^b) B(2^b) = sum c_k 2^(b k) do not carry into one another, and
// digit k is c_k exactly. At most b = 2 * 64 + 64 bits, in practice (lengths below 2^23 in a
// batch) under 3 limbs: digits are unpacked as 1, 2 or 3 words.
#pragma once

#include <cstddef>
#include <cstdint>

#include <flint/flint.h>
#include <flint/nmod.h>

namespace zgpu::poly {

// b = 2 bits(n) + bits(m) for coefficients mod n and m = min(la, lb) >= 1 (the shorter
// operand's length, after truncation for mullow).
unsigned ks_bits(ulong n, std::uint64_t m);

// Limbs of the packed integer of coeffs[0 .. len) with digits of `bits`: 0 for len = 0. The
// top coefficient coeffs[len - 1] must be nonzero (a normalised polynomial), so that the
// integer's top limb is nonzero, as a batch's sizes say.
std::uint64_t ks_limbs(const ulong* coeffs, std::size_t len, unsigned bits);

// Writes the packed integer of coeffs[0 .. len) into dst[0 .. ks_limbs(coeffs, len, bits)),
// every limb written once (dst may be pinned staging memory), nothing written beyond.
// Coefficients below 2^64; digits at least as wide as each coefficient's bit length.
void ks_pack(const ulong* coeffs, std::size_t len, unsigned bits, ulong* dst);

// out[k] = digit k of the integer src[0 .. size) (limbs from size on read as zero), reduced
// modulo mod.n, for k < out_len. Digits of up to 192 bits. out may not overlap src.
void ks_unpack(const ulong* src, std::size_t size, unsigned bits, nmod_t mod, ulong* out, std::size_t out_len);

}  // namespace zgpu::poly
