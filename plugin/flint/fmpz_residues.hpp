// What the FLINT-style modular entry points share (flint_modular.cpp: vectors;
// flint_modular_objects.cpp: polynomials and matrices).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <flint/fmpz.h>

#include "adapters/host_operand.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

// Entries of a FLINT object by index, looked up at each access.
using FmpzAt = std::function<fmpz*(std::size_t e)>;

// The entries at(0 .. count) as an adapter reader, for the GPU's packing.
struct FmpzAtReader {
    std::function<const fmpz*(std::size_t e)> at;
    std::int64_t size(std::size_t e) const { return adapters::FmpzReader(at(e)).size(0); }
    void copy(std::size_t e, limb_t* dst) const { adapters::FmpzReader(at(e)).copy(0, dst); }
};

// residues[i][e] = at(e) mod n_i, e < count; `argument` names the values in errors.
void multi_mod_into(const PrimeSet& set, const std::function<const fmpz*(std::size_t)>& at, std::size_t count,
                    std::span<limb_t* const> residues, const char* argument);

// at(e) = the value with residues residues[i][e], e < count, each below its modulus (checked
// by the caller), in [0, P) or (sign) FLINT's symmetric range.
void multi_crt_into(const PrimeSet& set, std::span<const limb_t* const> residues, std::size_t count, bool sign,
                    const FmpzAt& at);

// The prime set of these moduli: this thread's last one when its moduli are the same, so that
// repeated calls build their tables once.
const PrimeSet& prime_set_of(const std::vector<limb_t>& moduli);

// The checks of an nres argument (1 or more) and its array of residue objects.
void check_residue_count(const void* residues, slong nres, const std::string& name);

}  // namespace zgpu
