// The C entry points of zgpu_poly.h: the C++ ones (poly.hpp) with errors turned into return
// codes.
#include "plugin/flint/c_report.hpp"
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

}
