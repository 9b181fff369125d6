// FLINT-style reduction of fmpz vectors modulo a prime set and CRT back, and what the
// polynomial and matrix forms share. Every check runs before anything is written.
#include <optional>
#include <string>

#include "adapters/packing.hpp"
#include "plugin/flint/fmpz_residues.hpp"
#include "plugin/modular/host_modular.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint_modular.hpp"

namespace zgpu {
namespace {

// The checks of the vector forms: len, and NULL arrays with len > 0.
void check_vec(const void* vec, const void* const* residues, slong len, const PrimeSet& set, const std::string& name)
{
    if (len < 0) throw Error(name + ": len is negative (" + std::to_string(len) + ")");
    if (len == 0) return;
    if (!vec) throw Error(name + ": vec is NULL with len = " + std::to_string(len));
    if (!residues && set.size() > 0) throw Error(name + ": residues is NULL with len = " + std::to_string(len));
    for (std::size_t i = 0; i < set.size(); ++i)
        if (!residues[i]) throw Error(name + ": residues[" + std::to_string(i) + "] is NULL with len = " + std::to_string(len));
}

void crt(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set, int sign, const std::string& name)
{
    check_vec(vec, reinterpret_cast<const void* const*>(residues), len, set, name);
    const std::size_t n = std::size_t(len);
    const std::span<const limb_t* const> arrays(residues, n ? set.size() : 0);
    require_reduced(set.state(), arrays, n, name, "residues");
    multi_crt_into(set, arrays, n, sign != 0, [vec](std::size_t e) { return vec + e; });
}

}  // namespace

void multi_mod_into(const PrimeSet& set, const std::function<const fmpz*(std::size_t)>& at, std::size_t count,
                    std::span<limb_t* const> residues, const char* argument)
{
    const HostOperand x = host_operand(FmpzAtReader{at}, count, argument);
    multi_mod_host(set, x, count, [&](std::size_t e, fmpz*) { return at(e); }, residues);
}

void multi_crt_into(const PrimeSet& set, std::span<const limb_t* const> residues, std::size_t count, bool sign,
                    const FmpzAt& at)
{
    multi_crt_host(
        set, residues, count, sign, [&](std::size_t e, fmpz* value) { fmpz_swap(at(e), value); },
        [&](std::size_t first, ConstBatchView values) {
            adapters::unpack(values, [&](std::size_t j, std::int32_t size, const limb_t* limbs) {
                adapters::FmpzWriter(at(first + j))(0, size, limbs);
            });
        });
}

const PrimeSet& prime_set_of(const std::vector<limb_t>& moduli)
{
    thread_local std::optional<PrimeSet> last;
    if (!last || !std::equal(moduli.begin(), moduli.end(), last->moduli().begin(), last->moduli().end()))
        last.emplace(moduli);
    return *last;
}

void check_residue_count(const void* residues, slong nres, const std::string& name)
{
    if (nres < 1) throw Error(name + ": nres is " + std::to_string(nres) + ", at least one modulus is needed");
    if (!residues) throw Error(name + ": residues is NULL");
}

void fmpz_vec_multi_mod_ui(ulong* const* residues, const fmpz* vec, slong len, const PrimeSet& set)
{
    const std::string name = "fmpz_vec_multi_mod_ui";
    check_vec(vec, reinterpret_cast<const void* const*>(residues), len, set, name);
    const std::size_t n = std::size_t(len);
    multi_mod_into(set, [vec](std::size_t e) { return vec + e; }, n, {residues, n ? set.size() : 0}, "vec");
}

void fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set, int sign)
{
    crt(vec, residues, len, set, sign, "fmpz_vec_multi_CRT_ui");
}

void fmpz_vec_multi_CRT_ui_checked(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set,
                                   const fmpz_t bound, int sign)
{
    const std::string name = "fmpz_vec_multi_CRT_ui_checked";
    if (!bound) throw Error(name + ": bound is NULL");
    if (fmpz_sgn(bound) < 0) throw Error(name + ": bound is negative");
    if (!set.represents(bound, sign != 0))
        throw Error(name + ": too few moduli: their product (" + std::to_string(set.product_bits()) +
                    " bits) does not represent every " + (sign ? "|value|" : "value") + " up to the bound (" +
                    std::to_string(fmpz_bits(bound)) + " bits)" + (sign ? ", which needs P > 2 bound" : ""));
    crt(vec, residues, len, set, sign, name);
}

}  // namespace zgpu
