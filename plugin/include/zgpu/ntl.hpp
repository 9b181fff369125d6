// NTL-style entry points: the semantics of NTL's add, sub and mul on Vec<ZZ> and ZZX, aliasing allowed
// (x may be a or b). Errors are thrown as zgpu::Error, with x untouched.
#pragma once

#include <NTL/ZZ.h>
#include <NTL/ZZX.h>
#include <NTL/vector.h>

#include "zgpu/error.hpp"

namespace zgpu {

// x[i] = a[i] +- b[i]; a and b must have the same length (as NTL requires).
void add(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b);
void sub(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b);

// x[i] = a[i] * b (as NTL's mul of a vector by a scalar), and x[i] = a[i] * b[i] (a and b of
// the same length).
void mul(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b);
void mul(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b);

// x = a * b for a polynomial and a scalar (as NTL's mul(ZZX&, const ZZX&, const ZZ&)):
// coefficient by coefficient, normalized.
void mul(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZ& b);

// Division by a scalar b, entry by entry, as NTL's functions of the same names on ZZ (floor
// rounding: rem has the sign of b). On the host threads or the GPU (where a cost model of the
// entries' sizes says it pays, or as ZGPU_BACKEND says). b is read before any output changes; b = 0 throws with the outputs
// untouched.
void div(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b);
void rem(NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b);
void DivRem(NTL::Vec<NTL::ZZ>& q, NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b);
// q = a / b and true if b divides every entry; else false, with q untouched. As NTL's divide,
// b = 0 divides only zeros.
bool divide(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b);

// A polynomial divided exactly by a scalar, as NTL's div(ZZX&, const ZZX&, const ZZ&), which
// requires b to divide every coefficient: the first that it does not is named in the error,
// q untouched. divide returns false instead.
void div(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b);
bool divide(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b);

// x = a +- b as polynomials.
void add(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b);
void sub(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b);

// x = a * b and x = a^2 as polynomials, as NTL's mul and sqr (x may be a or b): the product
// over Z of zgpu_poly.h's fmpz_poly functions.
void mul(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b);
void sqr(NTL::ZZX& x, const NTL::ZZX& a);

// res = the resultant of a and b, as NTL's resultant (0 where a or b is zero; res may be a
// coefficient of a or b): zgpu_fmpz_poly_resultant's modular path, exact on every input; on
// the CPU NTL's own function with deterministic = 1.
void resultant(NTL::ZZ& res, const NTL::ZZX& a, const NTL::ZZX& b);

}  // namespace zgpu
