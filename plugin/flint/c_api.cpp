// The C entry points of zgpu.h: the C++ ones with errors turned into return codes.
#include "plugin/flint/c_report.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/flint.hpp"
#include "zgpu/zgpu.h"

namespace zgpu {

thread_local std::string c_last_error;

}  // namespace zgpu

using zgpu::report;

extern "C" {

int zgpu_fmpz_vec_add(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_add(res, vec1, vec2, len); });
}

int zgpu_fmpz_vec_sub(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_sub(res, vec1, vec2, len); });
}

int zgpu_fmpz_poly_add(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    return report(__func__, [&] { zgpu::fmpz_poly_add(res, poly1, poly2); });
}

int zgpu_fmpz_poly_sub(fmpz_poly_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    return report(__func__, [&] { zgpu::fmpz_poly_sub(res, poly1, poly2); });
}

int zgpu_fmpz_vec_mul(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_mul(res, vec1, vec2, len); });
}

int zgpu_fmpz_vec_sqr(fmpz* res, const fmpz* vec, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_sqr(res, vec, len); });
}

int zgpu_fmpz_vec_scalar_mul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_mul_fmpz(res, vec, len, c); });
}

int zgpu_fmpz_vec_scalar_addmul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_addmul_fmpz(res, vec, len, c); });
}

int zgpu_fmpz_vec_scalar_submul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_submul_fmpz(res, vec, len, c); });
}

int zgpu_fmpz_vec_divexact(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_divexact(res, vec1, vec2, len); });
}

int zgpu_fmpz_vec_divexact_checked(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_divexact_checked(res, vec1, vec2, len); });
}

int zgpu_fmpz_vec_scalar_divexact_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_divexact_fmpz(res, vec, len, c); });
}

int zgpu_fmpz_vec_scalar_divexact_fmpz_checked(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_divexact_fmpz_checked(res, vec, len, c); });
}

int zgpu_fmpz_vec_fdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_fdiv_qr(q, r, vec1, vec2, len); });
}

int zgpu_fmpz_vec_tdiv_qr(fmpz* q, fmpz* r, const fmpz* vec1, const fmpz* vec2, slong len)
{
    return report(__func__, [&] { zgpu::fmpz_vec_tdiv_qr(q, r, vec1, vec2, len); });
}

int zgpu_fmpz_vec_scalar_mod_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t p)
{
    return report(__func__, [&] { zgpu::fmpz_vec_scalar_mod_fmpz(res, vec, len, p); });
}

int zgpu_fmpz_poly_scalar_mul_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    return report(__func__, [&] { zgpu::fmpz_poly_scalar_mul_fmpz(res, poly, x); });
}

int zgpu_fmpz_poly_scalar_divexact_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    return report(__func__, [&] { zgpu::fmpz_poly_scalar_divexact_fmpz(res, poly, x); });
}

int zgpu_fmpz_poly_scalar_mod_fmpz(fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x)
{
    return report(__func__, [&] { zgpu::fmpz_poly_scalar_mod_fmpz(res, poly, x); });
}

const char* zgpu_last_error(void) { return zgpu::c_last_error.c_str(); }

// backend_name's views are of string literals, so null-terminated.
const char* zgpu_last_backend(void) { return zgpu::backend_name(zgpu::last_backend()).data(); }

int zgpu_start_gpu(void)
{
    if (!zgpu::gpu_available()) return 0;
    if (report(__func__, [] { zgpu::gpu::warm_up(); }) != 0) return -1;
    return zgpu::gpu_available() ? 1 : 0;
}

}  // extern "C"
