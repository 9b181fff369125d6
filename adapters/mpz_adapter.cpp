#include "zgpu/mpz_adapter.hpp"

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "adapters/packing.hpp"

static_assert(std::is_same_v<mp_limb_t, zgpu::limb_t>, "zgpu needs GMP with 64-bit limbs");

namespace zgpu::adapters {

void MpzReader::copy(std::size_t i, limb_t* dst) const
{
    std::copy_n(mpz_limbs_read(values_[i]), mpz_size(values_[i]), dst);
}

void MpzWriter::operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const
{
    const std::uint32_t n = std::abs(size);
    if (n == 0) return mpz_set_ui(values_[i], 0);
    std::copy_n(limbs, n, mpz_limbs_write(values_[i], n));
    mpz_limbs_finish(values_[i], size);
}

LimbBatch pack_mpz_array(const mpz_t* values, std::size_t count, std::string_view argument)
{
    return pack(MpzReader(values), count, argument);
}

void unpack_mpz_array(ConstBatchView batch, mpz_t* out)
{
    unpack(batch, MpzWriter(out));
}

}  // namespace zgpu::adapters
