// FLINT values that free themselves, for the tests: an fmpz, fmpz and nmod polynomials, fmpz and
// nmod matrices.
#pragma once

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

}  // namespace zgpu::testing
