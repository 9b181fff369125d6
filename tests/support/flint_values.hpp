// FLINT values that free themselves, for the tests: an fmpz, fmpz and nmod polynomials, fmpz and
// nmod matrices.
#pragma once

#include <cstdint>

#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

namespace zgpu::testing {

struct FmpzValue {
    FmpzValue() { fmpz_init(v); }
    ~FmpzValue() { fmpz_clear(v); }
    FmpzValue(const FmpzValue&) = delete;
    FmpzValue& operator=(const FmpzValue&) = delete;
    fmpz_t v;
};

struct FmpzPoly {
    FmpzPoly() { fmpz_poly_init(p); }
    ~FmpzPoly() { fmpz_poly_clear(p); }
    FmpzPoly(const FmpzPoly&) = delete;
    FmpzPoly& operator=(const FmpzPoly&) = delete;
    fmpz_poly_t p;
};

struct NmodPoly {
    explicit NmodPoly(ulong n) { nmod_poly_init(p, n); }
    ~NmodPoly() { nmod_poly_clear(p); }
    NmodPoly(const NmodPoly&) = delete;
    NmodPoly& operator=(const NmodPoly&) = delete;
    nmod_poly_t p;
};

struct FmpzMat {
    FmpzMat(slong rows, slong cols) { fmpz_mat_init(m, rows, cols); }
    ~FmpzMat() { fmpz_mat_clear(m); }
    FmpzMat(const FmpzMat&) = delete;
    FmpzMat& operator=(const FmpzMat&) = delete;
    fmpz_mat_t m;
};

struct NmodMat {
    NmodMat(slong rows, slong cols, ulong n) { nmod_mat_init(m, rows, cols, n); }
    ~NmodMat() { nmod_mat_clear(m); }
    NmodMat(const NmodMat&) = delete;
    NmodMat& operator=(const NmodMat&) = delete;
    nmod_mat_t m;
};

// Every coefficient of p (len of them) of absolute value 2^bits - 1, the bound's tightest case:
// all positive, all negative, or alternating in sign (from + at the constant term).
enum class Signs { positive, negative, alternating };
inline void set_extreme(fmpz_poly_t p, slong len, flint_bitcnt_t bits, Signs signs)
{
    fmpz_t c;
    fmpz_init(c);
    fmpz_one(c);
    fmpz_mul_2exp(c, c, bits);
    fmpz_sub_ui(c, c, 1);
    fmpz_poly_zero(p);
    for (slong i = len - 1; i >= 0; --i) {
        const bool negative = signs == Signs::negative || (signs == Signs::alternating && i % 2);
        if (negative) fmpz_neg(c, c);
        fmpz_poly_set_coeff_fmpz(p, i, c);
        if (negative) fmpz_neg(c, c);
    }
    fmpz_clear(c);
}

// Sylvester's Hadamard matrix of m's order (a power of two), entries +-(2^bits - 1): rows
// orthogonal, of equal norms, so |det| = ((2^bits - 1)^2 n)^(n / 2) is exactly the product of the
// rows' norms, Hadamard's bound at its tightest.
inline void hadamard_matrix(fmpz_mat_t m, flint_bitcnt_t bits)
{
    fmpz_t c;
    fmpz_init(c);
    fmpz_one(c);
    fmpz_mul_2exp(c, c, bits);
    fmpz_sub_ui(c, c, 1);
    for (slong i = 0; i < m->r; ++i)
        for (slong j = 0; j < m->c; ++j) {
            fmpz_set(fmpz_mat_entry(m, i, j), c);
            if (__builtin_popcountll(std::uint64_t(i & j)) % 2) fmpz_neg(fmpz_mat_entry(m, i, j), fmpz_mat_entry(m, i, j));
        }
    fmpz_clear(c);
}

}  // namespace zgpu::testing
