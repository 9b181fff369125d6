// NTL-style reduction of Vec<ZZ> and ZZX modulo a prime set, and CRT back, through the host
// dispatch of the modular layer (plugin/modular/host_modular.hpp).
#include <string>

#include "plugin/modular/fmpz_convert.hpp"
#include "plugin/modular/host_modular.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_modular.hpp"

namespace zgpu {
namespace {

// NULL arrays of a call on `count` values.
void check_arrays(const void* const* residues, std::size_t count, const PrimeSet& set, const std::string& name)
{
    if (count == 0) return;
    if (!residues) throw Error(name + ": residues is NULL with " + std::to_string(count) + " values");
    for (std::size_t i = 0; i < set.size(); ++i)
        if (!residues[i]) throw Error(name + ": residues[" + std::to_string(i) + "] is NULL");
}

}  // namespace

void multi_mod(ulong* const* residues, const NTL::Vec<NTL::ZZ>& a, const PrimeSet& set)
{
    const std::size_t n = std::size_t(a.length());
    check_arrays(reinterpret_cast<const void* const*>(residues), n, set, "multi_mod");
    const ZZArray values{&a, n};
    const adapters::ZZReader reader(a.elts());
    multi_mod_host(
        set, host_operand(values, n, "a"), n,
        [&](std::size_t e, fmpz* scratch) {
            set_fmpz(scratch, reader, e);
            return scratch;
        },
        {residues, n ? set.size() : 0});
}

void multi_mod(ulong* const* residues, const NTL::ZZX& a, const PrimeSet& set) { multi_mod(residues, a.rep, set); }

void multi_crt(NTL::Vec<NTL::ZZ>& x, const ulong* const* residues, long count, const PrimeSet& set, bool sign)
{
    const std::string name = "multi_crt";
    if (count < 0) throw Error(name + ": count is negative (" + std::to_string(count) + ")");
    const std::size_t n = std::size_t(count);
    check_arrays(reinterpret_cast<const void* const*>(residues), n, set, name);
    require_resizable(x, n, name, "x");
    const std::span<const limb_t* const> arrays(residues, n ? set.size() : 0);
    require_reduced(set.state(), arrays, n, name, "residues");
    x.SetLength(count);
    multi_crt_host(
        set, arrays, n, sign, [&](std::size_t e, fmpz* value) { write_fmpz(adapters::ZZWriter(x.elts()), e, value); },
        [&](std::size_t first, ConstBatchView values) { adapters::unpack_zz_array(values, x.elts() + first); });
}

void multi_crt(NTL::ZZX& x, const ulong* const* residues, long count, const PrimeSet& set, bool sign)
{
    multi_crt(x.rep, residues, count, set, sign);
    x.normalize();
}

}  // namespace zgpu
