#include "fmpz_adapter.hpp"

#include <cstdlib>
#include <type_traits>

#include "packing.hpp"

static_assert(std::is_same_v<zgpu::limb_t, ulong>, "FLINT limbs are the batch limbs");

namespace zgpu::adapters {

std::int64_t FmpzReader::size(std::size_t i) const
{
    return std::int64_t(fmpz_size(values_ + i)) * fmpz_sgn(values_ + i);
}

void FmpzReader::copy(std::size_t i, limb_t* dst) const
{
    const fmpz* f = values_ + i;
    if (fmpz_fits_si(f)) {
        const slong v = fmpz_get_si(f);
        if (v != 0) dst[0] = v < 0 ? -ulong(v) : ulong(v);
        return;
    }
    mpz_t z;
    flint_mpz_init_set_readonly(z, f);  // no allocation: f is mpz-backed here
    const mp_size_t n = mpz_size(z);
    std::copy_n(mpz_limbs_read(z), n, dst);
    flint_mpz_clear_readonly(z);
}

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
    fmpz_set_ui_array(f, limbs, n);
    if (size < 0) fmpz_neg(f, f);
}

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
