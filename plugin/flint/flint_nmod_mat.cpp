// FLINT-style products, determinants, ranks, inverses, solutions, LU factors, echelon forms and
// null spaces of nmod matrices: the argument checks, then plugin/matrix.
#include <string>

#include "plugin/matrix/nmod_mat_echelon.hpp"
#include "plugin/matrix/nmod_mat_inv.hpp"
#include "plugin/matrix/nmod_mat_lu.hpp"
#include "plugin/matrix/nmod_mat_mul.hpp"
#include "zgpu/error.hpp"
#include "zgpu/matrix.hpp"

namespace zgpu {
namespace {

std::string shape(const nmod_mat_struct* m) { return std::to_string(m->r) + " x " + std::to_string(m->c); }

// The checks FLINT leaves to its caller (it aborts or reads out of bounds): no NULL, shapes that
// multiply, one modulus.
void check_product(const char* function, const nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const std::string f = std::string(function) + ": ";
    if (!c || !a || !b) throw Error(f + (!c ? "c" : !a ? "a" : "b") + " is NULL");
    if (a->c != b->r || c->r != a->r || c->c != b->c)
        throw Error(f + "shapes do not match: a " + shape(a) + ", b " + shape(b) + ", c " + shape(c));
    if (a->mod.n != b->mod.n || a->mod.n != c->mod.n)
        throw Error(f + "different moduli: a mod " + std::to_string(a->mod.n) + ", b mod " + std::to_string(b->mod.n) +
                    ", c mod " + std::to_string(c->mod.n));
}

}  // namespace

void nmod_mat_mul(nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b)
{
    check_product("nmod_mat_mul", c, a, b);
    matrix::nmod_mat_product(c, a, b);
}

ulong nmod_mat_det(const nmod_mat_t a)
{
    if (!a) throw Error("nmod_mat_det: a is NULL");
    // FLINT aborts on a matrix that is not square.
    if (a->r != a->c) throw Error("nmod_mat_det: a is " + shape(a) + ", not square");
    return matrix::nmod_mat_lu_det(a);
}

slong nmod_mat_rank(const nmod_mat_t a)
{
    if (!a) throw Error("nmod_mat_rank: a is NULL");
    return matrix::nmod_mat_lu_rank(a);
}

int nmod_mat_inv(nmod_mat_t b, const nmod_mat_t a)
{
    if (!a || !b) throw Error(std::string("nmod_mat_inv: ") + (!a ? "a" : "b") + " is NULL");
    if (a->r != a->c) throw Error("nmod_mat_inv: a is " + shape(a) + ", not square");
    if (b->r != a->r || b->c != a->c) throw Error("nmod_mat_inv: b is " + shape(b) + ", a is " + shape(a));
    if (a->mod.n != b->mod.n)
        throw Error("nmod_mat_inv: different moduli: a mod " + std::to_string(a->mod.n) + ", b mod " + std::to_string(b->mod.n));
    return matrix::nmod_mat_inverse(b, a);
}

int nmod_mat_solve(nmod_mat_t x, const nmod_mat_t a, const nmod_mat_t b)
{
    if (!x || !a || !b) throw Error(std::string("nmod_mat_solve: ") + (!x ? "x" : !a ? "a" : "b") + " is NULL");
    if (a->r != a->c) throw Error("nmod_mat_solve: a is " + shape(a) + ", not square");
    if (b->r != a->r || x->r != b->r || x->c != b->c)
        throw Error("nmod_mat_solve: shapes do not match: a " + shape(a) + ", b " + shape(b) + ", x " + shape(x));
    if (a->mod.n != b->mod.n || a->mod.n != x->mod.n)
        throw Error("nmod_mat_solve: different moduli: a mod " + std::to_string(a->mod.n) + ", b mod " + std::to_string(b->mod.n) +
                    ", x mod " + std::to_string(x->mod.n));
    return matrix::nmod_mat_solution(x, a, b);
}

slong nmod_mat_lu(slong* P, nmod_mat_t a, int rank_check)
{
    if (!a) throw Error("nmod_mat_lu: a is NULL");
    if (!P && a->r > 0) throw Error("nmod_mat_lu: P is NULL");
    return matrix::nmod_mat_factor_lu(P, a, rank_check);
}

slong nmod_mat_rref(nmod_mat_t a)
{
    if (!a) throw Error("nmod_mat_rref: a is NULL");
    return matrix::nmod_mat_reduced_echelon(a);
}

slong nmod_mat_nullspace(nmod_mat_t x, const nmod_mat_t a)
{
    if (!x || !a) throw Error(std::string("nmod_mat_nullspace: ") + (!x ? "x" : "a") + " is NULL");
    if (x->r != a->c || x->c != a->c) throw Error("nmod_mat_nullspace: x is " + shape(x) + ", a is " + shape(a));
    if (a->mod.n != x->mod.n)
        throw Error("nmod_mat_nullspace: different moduli: a mod " + std::to_string(a->mod.n) + ", x mod " + std::to_string(x->mod.n));
    return matrix::nmod_mat_null_space(x, a);
}

}  // namespace zgpu
