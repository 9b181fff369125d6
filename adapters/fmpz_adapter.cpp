// gmp.h first: FLINT 3's fmpz.h declares _fmpz_promote and the mpz functions only after it.
#include <gmp.h>

#include "zgpu/fmpz_adapter.hpp"

#include <cstdlib>
#include <type_traits>

#include "adapters/flint_headers_check.hpp"
#include "adapters/packing.hpp"

static_assert(std::is_same_v<zgpu::limb_t, ulong>, "FLINT limbs are the batch limbs");

namespace zgpu::adapters {
namespace {

// How many elements ahead the conversions fetch an element's mpz record; its limbs are fetched
// half as far ahead, when the record has arrived.
constexpr std::size_t kPrefetchAhead = 16;

// Before element i of values[0 .. count) is converted.
void prefetch_ahead(const fmpz* values, std::size_t i, std::size_t count, bool for_writing)
{
    if (i + kPrefetchAhead < count && COEFF_IS_MPZ(values[i + kPrefetchAhead]))
        __builtin_prefetch(COEFF_TO_PTR(values[i + kPrefetchAhead]));
    const std::size_t nearer = i + kPrefetchAhead / 2;  // its record came in earlier
    if (nearer >= count || !COEFF_IS_MPZ(values[nearer])) return;
    const ulong* limbs = COEFF_TO_PTR(values[nearer])->_mp_d;
    if (for_writing) __builtin_prefetch(limbs, 1);
    else __builtin_prefetch(limbs);
}

}  // namespace

void FmpzReader::copy(std::size_t i, limb_t* dst) const
{
    const fmpz c = values_[i];
    if (!COEFF_IS_MPZ(c)) {
        if (c != 0) dst[0] = c < 0 ? -ulong(c) : ulong(c);
        return;
    }
    const __mpz_struct* z = COEFF_TO_PTR(c);
    std::copy_n(mpz_limbs_read(z), mpz_size(z), dst);
}

void FmpzReader::prefetch(std::size_t i, std::size_t count) const { prefetch_ahead(values_, i, count, false); }

void FmpzWriter::operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const
{
    fmpz* f = values_ + i;
    const std::uint32_t n = std::abs(size);
    if (n <= 1) {
        const ulong magnitude = n ? limbs[0] : 0;
        if (size < 0) fmpz_neg_ui(f, magnitude);
        else fmpz_set_ui(f, magnitude);
        return;
    }
    __mpz_struct* z = _fmpz_promote(f);
    std::copy_n(limbs, n, mpz_limbs_write(z, n));
    mpz_limbs_finish(z, size);
    _fmpz_demote_val(f);  // only if the limbs were not normalised: FLINT keeps small values inline
}

void FmpzWriter::prefetch(std::size_t i, std::size_t count) const { prefetch_ahead(values_, i, count, true); }

LimbBatch pack_fmpz_vec(const fmpz* values, std::size_t count, std::string_view argument)
{
    return pack(FmpzReader(values), count, argument);
}

void unpack_fmpz_vec(ConstBatchView batch, fmpz* out)
{
    unpack(batch, FmpzWriter(out));
}

LimbBatch pack_fmpz_poly(const fmpz_poly_t poly, std::string_view argument)
{
    return pack_fmpz_vec(poly->coeffs, std::size_t(fmpz_poly_length(poly)), argument);
}

void unpack_fmpz_poly(ConstBatchView batch, fmpz_poly_t poly)
{
    fmpz_poly_fit_length(poly, slong(batch.count));
    unpack_fmpz_vec(batch, poly->coeffs);
    _fmpz_poly_set_length(poly, slong(batch.count));
    _fmpz_poly_normalise(poly);
}

}  // namespace zgpu::adapters
