// NTL-style reduction of Vec<ZZ> and ZZX modulo the moduli of a zgpu::PrimeSet, and CRT back.
// Residues are one array a modulus: residues[i][e] is entry (coefficient) e modulo modulus i, in
// [0, n_i). Errors are thrown as zgpu::Error, with the outputs untouched.
#pragma once

#include <NTL/ZZ.h>
#include <NTL/ZZX.h>
#include <NTL/vector.h>

#include "zgpu/error.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

// residues[i][e] = a[e] mod n_i, e < a.length() (for a ZZX, its a.rep.length() coefficients).
void multi_mod(ulong* const* residues, const NTL::Vec<NTL::ZZ>& a, const PrimeSet& set);
void multi_mod(ulong* const* residues, const NTL::ZZX& a, const PrimeSet& set);

// x = the `count` values with residues residues[i][e], each below its modulus (checked first),
// in [0, P) or, with sign, FLINT's symmetric range (see prime_set.hpp); a ZZX is normalised.
void multi_crt(NTL::Vec<NTL::ZZ>& x, const ulong* const* residues, long count, const PrimeSet& set, bool sign);
void multi_crt(NTL::ZZX& x, const ulong* const* residues, long count, const PrimeSet& set, bool sign);

}  // namespace zgpu
