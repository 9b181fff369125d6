// The C entry points of zgpu_poly.h: the C++ ones (poly.hpp) with errors turned into return
// codes.
#include "plugin/flint/c_report.hpp"
#include "zgpu/error.hpp"
#include "zgpu/poly.hpp"
#include "zgpu/zgpu_poly.h"

using zgpu::report;

extern "C" {

int zgpu_nmod_poly_mul(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b)
{
    return report(__func__, [&] { zgpu::nmod_poly_mul(res, a, b); });
}

int zgpu_nmod_poly_mullow(nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n)
{
    return report(__func__, [&] { zgpu::nmod_poly_mullow(res, a, b, n); });
}

int zgpu_nmod_poly_sqr(nmod_poly_t res, const nmod_poly_t a)
{
    return report(__func__, [&] { zgpu::nmod_poly_sqr(res, a); });
}

int zgpu_nmod_poly_mul_many(nmod_poly_struct* res, const nmod_poly_struct* a, const nmod_poly_struct* b, slong count)
{
    return report(__func__, [&] { zgpu::nmod_poly_mul_many(res, a, b, count); });
}

int _zgpu_nmod_poly_mul(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_mul(res, a, lena, b, lenb, mod); });
}

int _zgpu_nmod_poly_mullow(ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, slong n, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_mullow(res, a, lena, b, lenb, n, mod); });
}

int _zgpu_nmod_poly_sqr(ulong* res, const ulong* a, slong len, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_sqr(res, a, len, mod); });
}

int _zgpu_nmod_poly_mulmod_preinv(ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, const ulong* f, slong lenf,
                                  const ulong* finv, slong lenfinv, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_mulmod_preinv(res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod); });
}

int zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv(nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A,
                                                         const nmod_poly_t poly3, const nmod_poly_t poly3inv)
{
    return report(__func__, [&] { zgpu::nmod_poly_compose_mod_brent_kung_precomp_preinv(res, poly1, A, poly3, poly3inv); });
}

int zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv(nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1, slong n,
                                                     const nmod_poly_t g, const nmod_poly_t poly, const nmod_poly_t polyinv)
{
    return report(__func__, [&] { zgpu::nmod_poly_compose_mod_brent_kung_vec_preinv(res, polys, len1, n, g, poly, polyinv); });
}

int zgpu_nmod_poly_powmod_ui_binexp(nmod_poly_t res, const nmod_poly_t poly, ulong e, const nmod_poly_t f)
{
    return report(__func__, [&] { zgpu::nmod_poly_powmod_ui_binexp(res, poly, e, f); });
}

int _zgpu_nmod_poly_powmod_ui_binexp(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_powmod_ui_binexp(res, poly, e, f, lenf, mod); });
}

int _zgpu_nmod_poly_powmod_ui_binexp_preinv(ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, const ulong* finv,
                                            slong lenfinv, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_powmod_ui_binexp_preinv(res, poly, e, f, lenf, finv, lenfinv, mod); });
}

int _zgpu_nmod_poly_powmod_x_ui_preinv(ulong* res, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod)
{
    return report(__func__, [&] { zgpu::_nmod_poly_powmod_x_ui_preinv(res, e, f, lenf, finv, lenfinv, mod); });
}

int zgpu_nmod_poly_resultant(ulong* res, const nmod_poly_t a, const nmod_poly_t b)
{
    return report(__func__, [&] {
        if (!res) throw zgpu::Error("nmod_poly_resultant: res is NULL");
        *res = zgpu::nmod_poly_resultant(a, b);
    });
}

int zgpu_fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b)
{
    return report(__func__, [&] { zgpu::fmpz_poly_mul(res, a, b); });
}

int zgpu_fmpz_poly_mullow(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, slong n)
{
    return report(__func__, [&] { zgpu::fmpz_poly_mullow(res, a, b, n); });
}

int zgpu_fmpz_poly_sqr(fmpz_poly_t res, const fmpz_poly_t a)
{
    return report(__func__, [&] { zgpu::fmpz_poly_sqr(res, a); });
}

int _zgpu_fmpz_poly_mul(fmpz* res, const fmpz* a, slong lena, const fmpz* b, slong lenb)
{
    return report(__func__, [&] { zgpu::_fmpz_poly_mul(res, a, lena, b, lenb); });
}

int zgpu_fmpz_poly_pow(fmpz_poly_t res, const fmpz_poly_t poly, ulong e)
{
    return report(__func__, [&] { zgpu::fmpz_poly_pow(res, poly, e); });
}

int _zgpu_fmpz_poly_pow(fmpz* res, const fmpz* poly, slong len, ulong e)
{
    return report(__func__, [&] { zgpu::_fmpz_poly_pow(res, poly, len, e); });
}

int zgpu_fmpz_poly_compose(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    return report(__func__, [&] { zgpu::fmpz_poly_compose(res, poly1, poly2); });
}

int _zgpu_fmpz_poly_compose(fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2)
{
    return report(__func__, [&] { zgpu::_fmpz_poly_compose(res, poly1, len1, poly2, len2); });
}

int zgpu_fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b)
{
    return report(__func__, [&] { zgpu::fmpz_poly_resultant(res, a, b); });
}

void zgpu_set_progress(int on) { zgpu::set_progress(on != 0); }

}
