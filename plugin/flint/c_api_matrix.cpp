// The C entry points of zgpu_matrix.h: the C++ ones (matrix.hpp) with errors turned into return
// codes.
#include "plugin/flint/c_report.hpp"
#include "zgpu/matrix.hpp"
#include "zgpu/zgpu_matrix.h"

using zgpu::report;

extern "C" {

int zgpu_nmod_mat_mul(nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b)
{
    return report(__func__, [&] { zgpu::nmod_mat_mul(c, a, b); });
}

int zgpu_nmod_mat_det(ulong* det, const nmod_mat_t a)
{
    return report(__func__, [&] {
        if (!det) throw zgpu::Error("nmod_mat_det: det is NULL");
        *det = zgpu::nmod_mat_det(a);
    });
}

int zgpu_nmod_mat_rank(slong* rank, const nmod_mat_t a)
{
    return report(__func__, [&] {
        if (!rank) throw zgpu::Error("nmod_mat_rank: rank is NULL");
        *rank = zgpu::nmod_mat_rank(a);
    });
}

int zgpu_nmod_mat_inv(int* invertible, nmod_mat_t b, const nmod_mat_t a)
{
    return report(__func__, [&] {
        if (!invertible) throw zgpu::Error("nmod_mat_inv: invertible is NULL");
        *invertible = zgpu::nmod_mat_inv(b, a);
    });
}

int zgpu_nmod_mat_solve(int* nonsingular, nmod_mat_t x, const nmod_mat_t a, const nmod_mat_t b)
{
    return report(__func__, [&] {
        if (!nonsingular) throw zgpu::Error("nmod_mat_solve: nonsingular is NULL");
        *nonsingular = zgpu::nmod_mat_solve(x, a, b);
    });
}

int zgpu_nmod_mat_lu(slong* rank, slong* P, nmod_mat_t a, int rank_check)
{
    return report(__func__, [&] {
        if (!rank) throw zgpu::Error("nmod_mat_lu: rank is NULL");
        *rank = zgpu::nmod_mat_lu(P, a, rank_check);
    });
}

int zgpu_nmod_mat_rref(slong* rank, nmod_mat_t a)
{
    return report(__func__, [&] {
        if (!rank) throw zgpu::Error("nmod_mat_rref: rank is NULL");
        *rank = zgpu::nmod_mat_rref(a);
    });
}

int zgpu_nmod_mat_nullspace(slong* nullity, nmod_mat_t x, const nmod_mat_t a)
{
    return report(__func__, [&] {
        if (!nullity) throw zgpu::Error("nmod_mat_nullspace: nullity is NULL");
        *nullity = zgpu::nmod_mat_nullspace(x, a);
    });
}

int zgpu_fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b)
{
    return report(__func__, [&] { zgpu::fmpz_mat_mul(c, a, b); });
}

int zgpu_fmpz_mat_det(fmpz_t det, const fmpz_mat_t a)
{
    return report(__func__, [&] { zgpu::fmpz_mat_det(det, a); });
}

int zgpu_fmpz_mat_inv(int* invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a)
{
    return report(__func__, [&] {
        if (!invertible) throw zgpu::Error("fmpz_mat_inv: invertible is NULL");
        *invertible = zgpu::fmpz_mat_inv(b, den, a);
    });
}

int zgpu_fmpz_mat_rref(slong* rank, fmpz_mat_t r, fmpz_t den, const fmpz_mat_t a)
{
    return report(__func__, [&] {
        if (!rank) throw zgpu::Error("fmpz_mat_rref: rank is NULL");
        *rank = zgpu::fmpz_mat_rref(r, den, a);
    });
}

int zgpu_fmpz_mat_rank(slong* rank, const fmpz_mat_t a)
{
    return report(__func__, [&] {
        if (!rank) throw zgpu::Error("fmpz_mat_rank: rank is NULL");
        *rank = zgpu::fmpz_mat_rank(a);
    });
}

int zgpu_fmpz_mat_nullspace(slong* nullity, fmpz_mat_t x, const fmpz_mat_t a)
{
    return report(__func__, [&] {
        if (!nullity) throw zgpu::Error("fmpz_mat_nullspace: nullity is NULL");
        *nullity = zgpu::fmpz_mat_nullspace(x, a);
    });
}

int zgpu_fmpz_mat_solve(int* nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b)
{
    return report(__func__, [&] {
        if (!nonsingular) throw zgpu::Error("fmpz_mat_solve: nonsingular is NULL");
        *nonsingular = zgpu::fmpz_mat_solve(x, den, a, b);
    });
}
}
