// FLINT fmpz vectors and fmpz_poly coefficient arrays <-> limb batches.
#pragma once

#include <cstddef>
#include <string_view>

#include <gmp.h>  // before FLINT's headers: FLINT 3 declares its mpz parts only after it
#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::adapters {

// Reads fmpz values through FLINT's public API (small inline values and mpz-backed ones).
class FmpzReader {
public:
    explicit FmpzReader(const fmpz* values) : values_(values) {}
    // Inline: measuring and size-grouping call it for every element.
    std::int64_t size(std::size_t i) const
    {
        const fmpz c = values_[i];
        if (!COEFF_IS_MPZ(c)) return c > 0 ? 1 : c < 0 ? -1 : 0;
        return COEFF_TO_PTR(c)->_mp_size;
    }
    void copy(std::size_t i, limb_t* dst) const;
    // Called before element i is read, elements below `count` existing: fetches the records
    // and limbs of elements further on into cache (they lie apart on the heap, and a
    // conversion would otherwise wait for each miss in turn).
    void prefetch(std::size_t i, std::size_t count) const;

private:
    const fmpz* values_;
};

// Sets fmpz values, demoting to the inline form whenever the value fits, as FLINT does.
class FmpzWriter {
public:
    explicit FmpzWriter(fmpz* values) : values_(values) {}
    void operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const;
    void prefetch(std::size_t i, std::size_t count) const;  // as FmpzReader's, for writing

private:
    fmpz* values_;
};

// values[0 .. count) as a batch; `argument` names the vector in errors (element too large).
LimbBatch pack_fmpz_vec(const fmpz* values, std::size_t count, std::string_view argument = "vec");
// Sets out[0 .. batch.count) from the batch.
void unpack_fmpz_vec(ConstBatchView batch, fmpz* out);

// The coefficients of a polynomial, constant term first.
LimbBatch pack_fmpz_poly(const fmpz_poly_t poly, std::string_view argument = "poly");
// Sets poly to the polynomial with the batch's coefficients (normalised, as FLINT requires).
void unpack_fmpz_poly(ConstBatchView batch, fmpz_poly_t poly);

}  // namespace zgpu::adapters
