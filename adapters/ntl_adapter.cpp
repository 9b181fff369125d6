#include "zgpu/ntl_adapter.hpp"

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include <NTL/ZZ_limbs.h>

#include "adapters/packing.hpp"
#include "zgpu/error.hpp"

static_assert(sizeof(NTL::ZZ_limb_t) == sizeof(zgpu::limb_t), "zgpu needs NTL built on GMP with 64-bit limbs");

namespace zgpu::adapters {

std::int64_t ZZReader::size(std::size_t i) const
{
    return std::int64_t(values_[i].size()) * NTL::sign(values_[i]);
}

void ZZReader::copy(std::size_t i, limb_t* dst) const
{
    const NTL::ZZ& value = values_[i];
    std::copy_n(NTL::ZZ_limbs_get(value), value.size(), dst);
}

void ZZWriter::operator()(std::size_t i, std::int32_t size, const limb_t* limbs) const
{
    NTL::ZZ& value = values_[i];
    NTL::ZZ_limbs_set(value, reinterpret_cast<const NTL::ZZ_limb_t*>(limbs), std::abs(size));
    if (size < 0) NTL::negate(value, value);
}

LimbBatch pack_zz(const NTL::ZZ& value, std::string_view argument)
{
    return pack(ZZReader(&value), 1, argument);
}

void unpack_zz(ConstBatchView batch, NTL::ZZ& out)
{
    if (batch.count != 1) throw Error("unpack_zz: the batch holds " + std::to_string(batch.count) + " elements, not 1");
    unpack(batch, ZZWriter(&out));
}

LimbBatch pack_vec_zz(const NTL::Vec<NTL::ZZ>& values, std::string_view argument)
{
    return pack(ZZReader(values.elts()), std::size_t(values.length()), argument);
}

void unpack_vec_zz(ConstBatchView batch, NTL::Vec<NTL::ZZ>& out)
{
    out.SetLength(long(batch.count));
    unpack_zz_array(batch, out.elts());
}

void unpack_zz_array(ConstBatchView batch, NTL::ZZ* out)
{
    unpack(batch, ZZWriter(out));
}

LimbBatch pack_zzx(const NTL::ZZX& poly, std::string_view argument)
{
    return pack_vec_zz(poly.rep, argument);
}

void unpack_zzx(ConstBatchView batch, NTL::ZZX& poly)
{
    unpack_vec_zz(batch, poly.rep);
    poly.normalize();
}

}  // namespace zgpu::adapters
