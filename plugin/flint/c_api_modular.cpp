// The C entry points of zgpu_modular.h: the C++ ones (flint_modular.hpp, prime_set.hpp) with
// errors turned into return codes, and the C prime set as a PrimeSet behind a pointer.
#include "plugin/flint/c_prime_set.hpp"
#include "plugin/flint/c_report.hpp"
#include "zgpu/flint_modular.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/zgpu_modular.h"

namespace {

using zgpu::prime_set;

// Initialises `set` with make()'s set; on failure leaves it empty.
template <class Make>
int init(const char* function, zgpu_prime_set_struct* set, Make make)
{
    if (set) set->set = nullptr;
    return zgpu::report(function, [&] {
        if (!set) throw zgpu::Error("set is NULL");
        set->set = new zgpu::PrimeSet(make());
    });
}

std::size_t count(const char* what, slong k)
{
    if (k < 0) throw zgpu::Error(std::string(what) + " is negative (" + std::to_string(k) + ")");
    return std::size_t(k);
}

}  // namespace

extern "C" {

int zgpu_prime_set_init(zgpu_prime_set_t set, const ulong* moduli, slong k)
{
    return init(__func__, set, [&] {
        const std::size_t n = count("k", k);
        if (n > 0 && !moduli) throw zgpu::Error("moduli is NULL with k = " + std::to_string(k));
        return zgpu::PrimeSet({moduli, n});
    });
}

int zgpu_prime_set_init_ntt_primes(zgpu_prime_set_t set, slong k)
{
    return init(__func__, set, [&] { return zgpu::PrimeSet::generated(count("k", k)); });
}

int zgpu_prime_set_init_bits(zgpu_prime_set_t set, flint_bitcnt_t bits, int sign)
{
    return init(__func__, set, [&] { return zgpu::PrimeSet::for_bits(bits, sign != 0); });
}

void zgpu_prime_set_clear(zgpu_prime_set_t set)
{
    delete static_cast<zgpu::PrimeSet*>(set->set);
    set->set = nullptr;
}

slong zgpu_prime_set_size(const zgpu_prime_set_t set) { return set->set ? slong(prime_set(set).size()) : 0; }

const ulong* zgpu_prime_set_moduli(const zgpu_prime_set_t set)
{
    return set->set ? prime_set(set).moduli().data() : nullptr;
}

flint_bitcnt_t zgpu_prime_set_bits(const zgpu_prime_set_t set) { return set->set ? prime_set(set).product_bits() : 0; }

int zgpu_prime_set_represents(const zgpu_prime_set_t set, const fmpz_t bound, int sign)
{
    bool fits = false;
    const int status = zgpu::report(__func__, [&] {
        if (!bound) throw zgpu::Error("bound is NULL");
        fits = prime_set(set).represents(bound, sign != 0);
    });
    return status == 0 ? int(fits) : -1;
}

int zgpu_fmpz_vec_multi_mod_ui(ulong* const* residues, const fmpz* vec, slong len, const zgpu_prime_set_t set)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_vec_multi_mod_ui(residues, vec, len, prime_set(set)); });
}

int zgpu_fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const zgpu_prime_set_t set, int sign)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_vec_multi_CRT_ui(vec, residues, len, prime_set(set), sign); });
}

int zgpu_fmpz_vec_multi_CRT_ui_checked(fmpz* vec, const ulong* const* residues, slong len, const zgpu_prime_set_t set,
                                       const fmpz_t bound, int sign)
{
    return zgpu::report(__func__,
                        [&] { zgpu::fmpz_vec_multi_CRT_ui_checked(vec, residues, len, prime_set(set), bound, sign); });
}

int zgpu_fmpz_mat_multi_mod_ui(nmod_mat_t* residues, slong nres, const fmpz_mat_t mat)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_mat_multi_mod_ui(residues, nres, mat); });
}

int zgpu_fmpz_mat_multi_CRT_ui(fmpz_mat_t mat, nmod_mat_t* const residues, slong nres, int sign)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_mat_multi_CRT_ui(mat, residues, nres, sign); });
}

int zgpu_fmpz_poly_multi_mod_ui(nmod_poly_t* residues, slong nres, const fmpz_poly_t poly)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_poly_multi_mod_ui(residues, nres, poly); });
}

int zgpu_fmpz_poly_multi_CRT_ui(fmpz_poly_t poly, nmod_poly_t* const residues, slong nres, int sign)
{
    return zgpu::report(__func__, [&] { zgpu::fmpz_poly_multi_CRT_ui(poly, residues, nres, sign); });
}

}  // extern "C"
