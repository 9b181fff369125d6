// What the NTL-style matrix entry points check of their arguments, and how they name a shape in
// their messages: one wording for mat_ZZ and mat_zz_p alike. Each check throws zgpu::Error
// before anything is written.
#pragma once

#include <string>

#include "zgpu/error.hpp"

namespace zgpu::ntl {

template <class Matrix>
std::string shape(const Matrix& m)
{
    return std::to_string(m.NumRows()) + " x " + std::to_string(m.NumCols());
}

template <class Matrix>
void check_square(const Matrix& a, const char* what)
{
    if (a.NumRows() != a.NumCols()) throw Error(std::string(what) + ": a is " + shape(a) + ", not square");
}

// a b defined: a's columns as many as b's rows.
template <class Matrix>
void check_product(const Matrix& a, const Matrix& b, const char* what)
{
    if (a.NumCols() != b.NumRows())
        throw Error(std::string(what) + ": a is " + shape(a) + " and b " + shape(b) + ": they do not multiply");
}

// a square and b as long as a's side.
template <class Matrix, class Vector>
void check_system(const Matrix& a, const Vector& b, const char* what)
{
    check_square(a, what);
    if (b.length() != a.NumRows())
        throw Error(std::string(what) + ": a is " + shape(a) + " and b of length " + std::to_string(b.length()) + ": they do not match");
}

}  // namespace zgpu::ntl
