// The plugin's cheap tests, shared by its FLINT and NTL definitions: from a call's shape (and,
// past a size, its operands' bits) whether zgpu's cost model sends it to the GPU. Each costs
// nanoseconds where the call stays with FLINT or NTL.
#pragma once

#include <cstdint>

#include <flint/flint.h>
#include <flint/fmpz.h>

namespace zgpu::preload {

// Below this many coefficients out, a product over Z reads its coefficients' sizes only where
// a sample says they are large: reading every size would cost FLINT's many small products more
// than the 3 % allowed. By the model, products under 256 coefficients out pay on the GPU only
// where their operands' bits add up to kLargeProductBits or more (a test checks it), as in Arb's
// power series: 4096-bit coefficients, products of 32 to 255 coefficients out, 0.5 to 1.5 ms
// each on FLINT's threads.
inline constexpr slong kReadSizesFrom = 256;
inline constexpr slong kSampleSizesFrom = 16;
inline constexpr std::uint64_t kLargeProductBits = 738;

// Below this many coefficients out, no product mod n pays on the GPU by the cost model (the
// GPU's fixed cost a call exceeds FLINT's whole product, for any n and operands of at most that
// many coefficients: a test checks a grid of them), so such calls stay with FLINT before the
// model's arithmetic. FLINT's
// algorithms call tens of thousands of them (fmpz_poly_factor: 54 000 _nmod_poly_mul).
inline constexpr slong kNmodModelFrom = 512;

// Products with a dimension below this stay with FLINT. FLINT's algorithms call many thin ones
// (fmpz_mat_solve's lifting: a 500 x 500 matrix by a column, thousands of times), which the cost
// model sends to the GPU and which ran slower there: fmpz_mat_solve 500 x 500 took 7.6 s with
// the plugin and 4.1 s without (H200, FLINT 3.6 on 16 threads).
inline constexpr slong kMinDimension = 128;

// Below this dimension a determinant over Z stays with FLINT without computing its bound.
inline constexpr slong kDetBoundFrom = 32;

// Below this dimension a solution over Q stays with FLINT without computing its bounds.
inline constexpr slong kSolveBoundsFrom = 32;

// Below this length a resultant over Z stays with FLINT without computing its bound.
inline constexpr slong kResultantBoundFrom = 32;

inline bool thick(slong rows, slong inner, slong cols)
{
    return rows >= kMinDimension && inner >= kMinDimension && cols >= kMinDimension;
}

// A product of la x lb coefficients mod x^out, modulo n.
bool nmod_product_worth_it(slong la, slong lb, slong out, ulong n);

// A power mod f, f of lenf coefficients, to the e, modulo n; of x where of_x.
bool nmod_powmod_worth_it(slong lenf, ulong e, ulong n, bool of_x);
// A product mod f of len1 x len2 coefficients, f of lenf, modulo n.
bool nmod_mulmod_worth_it(slong len1, slong len2, slong lenf, ulong n);

// A composition mod f (f of lenf coefficients) of poly1 of len1 by FLINT's precomputed matrix of
// `rows` powers; a vec composition of `count` polynomials mod f.
bool nmod_compose_precomp_worth_it(slong len1, slong lenf, slong rows, ulong n);
bool nmod_compose_vec_worth_it(slong lenf, slong count, ulong n);

// Whether a product over Z of (a, la) by (b, lb) mod x^out is worth reading its coefficients'
// sizes for: where out >= kReadSizesFrom, or out >= kSampleSizesFrom and the largest of the
// first, middle and last coefficients of the operands' first out have kLargeProductBits bits
// between them. Never for an empty operand (FLINT's object forms pass them).
bool fmpz_sizes_worth_reading(const fmpz* a, slong la, const fmpz* b, slong lb, slong out);

// A product over Z of la x lb coefficients mod x^out (each at most out), of a_bits and b_bits.
bool fmpz_product_pays(slong la, slong lb, slong out, std::uint64_t a_bits, std::uint64_t b_bits);

// A matrix product over Z of rows x inner by inner x cols, entries of a_bits and b_bits.
bool fmpz_mat_product_pays(slong rows, slong inner, slong cols, std::uint64_t a_bits, std::uint64_t b_bits);

// A power f^e over Z, f of len coefficients: whether it is long enough to read f's sizes, and
// whether it pays with coefficients of at most max_bits bits.
bool fmpz_power_long_enough(slong len, ulong e);
bool fmpz_power_pays(slong len, ulong e, std::uint64_t max_bits);

// A composition f(h) over Z, f of len1 and h of len2 coefficients: whether it is long enough to
// read their sizes (and not one of FLINT's shortcuts: len1 <= 4 by Horner's rule, len2 <= 2 by
// a Taylor shift or an evaluation), and whether it pays with coefficients of at most f_bits and
// h_bits bits.
bool fmpz_compose_long_enough(slong len1, slong len2);
bool fmpz_compose_pays(slong len1, slong len2, std::uint64_t f_bits, std::uint64_t h_bits);

}  // namespace zgpu::preload
