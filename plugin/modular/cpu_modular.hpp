// The CPU backend of reduction and CRT: FLINT's fmpz_multi_mod_ui and fmpz_multi_CRT_ui over a
// prime set's comb, on all host threads, each with its own fmpz_comb_temp_t. Residues are one
// array a modulus (residues[i][e]), as FLINT's callers keep them.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include <flint/fmpz.h>

#include "plugin/modular/prime_set_state.hpp"

namespace zgpu {

// The value of element e: a pointer to it, or to `scratch` after setting it there.
using FmpzSource = std::function<const fmpz*(std::size_t e, fmpz* scratch)>;
// Takes the value of element e; it may swap it out (the thread's scratch is cleared after).
using FmpzSink = std::function<void(std::size_t e, fmpz* value)>;

// residues[i][e] = value(e) mod n_i in [0, n_i), first <= e < last.
void cpu_multi_mod(const PrimeSet::State& set, std::size_t first, std::size_t last, const FmpzSource& value,
                   std::span<limb_t* const> residues);

// sink(e, x) with x in [0, P) (sign: FLINT's symmetric range) of residues residues[i][e] (each
// below its modulus), first <= e < last.
void cpu_multi_crt(const PrimeSet::State& set, std::size_t first, std::size_t last,
                   std::span<const limb_t* const> residues, bool sign, const FmpzSink& sink);

// out = the value in FLINT's symmetric range whose residue modulo each modulus of the set is
// residues[i] (one residue a modulus: zgpu::Error otherwise): a determinant's or a resultant's,
// from their residues.
void crt_one(fmpz_t out, std::span<const limb_t> residues, const PrimeSet::State& set);

// Throws, naming the function, the argument and the first (modulus, element), unless every
// residues[i][e], e < count, is below n_i. Checked on all host threads.
void require_reduced(const PrimeSet::State& set, std::span<const limb_t* const> residues, std::size_t count,
                     const std::string& name, const char* argument);

}  // namespace zgpu
