// FLINT's matrix products, determinants, ranks, solutions, inverses, LU factors and echelon
// forms, defined in FLINT's name: zgpu where its cost
// model picks the GPU, else FLINT's own function. FLINT's checks stay FLINT's: a call zgpu
// refuses (shapes that do not match, a non-square determinant) goes to FLINT, which aborts.
#include <bit>

#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>

#include "base/parallel.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_lu.hpp"
#include "plugin/matrix/nmod_mat_mul.hpp"
#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_matrix.h"

namespace {

using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::route;

using zgpu::preload::kDetBoundFrom;
using zgpu::preload::thick;

bool fmpz_product_worth_it(const fmpz_mat_struct* a, const fmpz_mat_struct* b)
{
    return thick(a->r, a->c, b->c) && a->c == b->r &&
           zgpu::preload::fmpz_mat_product_pays(a->r, a->c, b->c, zgpu::fmpz_mat_bits(a), zgpu::fmpz_mat_bits(b));
}

// Hadamard's bound of a square matrix from its largest entry: n (bits + log2(n) / 2) bits.
std::uint64_t hadamard_estimate(const fmpz_mat_struct* a)
{
    const std::uint64_t n = std::uint64_t(a->r), bits = zgpu::fmpz_mat_bits(a);
    return n * (bits + std::uint64_t(std::bit_width(n)) / 2 + 1);
}

bool lu_worth_it(const nmod_mat_struct* a, bool rank_mode)
{
    return a->r && a->c &&
           zgpu::matrix::gpu_pays_for_nmod_mat_lu(std::size_t(a->r), std::size_t(a->c), rank_mode, zgpu::host_threads());
}

}  // namespace

extern "C" {

void nmod_mat_mul(nmod_mat_t C, const nmod_mat_t A, const nmod_mat_t B)
{
    static Counts counts("nmod_mat_mul");
    route(
        counts, [&] { return A->c == B->r && thick(A->r, A->c, B->c) && zgpu::matrix::gpu_pays_for_nmod_mat_product(A, B); },
        [&] { return zgpu_nmod_mat_mul(C, A, B); }, [&] { next<decltype(&nmod_mat_mul)>(counts)(C, A, B); });
}

void fmpz_mat_mul(fmpz_mat_t C, const fmpz_mat_t A, const fmpz_mat_t B)
{
    static Counts counts("fmpz_mat_mul");
    route(
        counts, [&] { return fmpz_product_worth_it(A, B); }, [&] { return zgpu_fmpz_mat_mul(C, A, B); },
        [&] { next<decltype(&fmpz_mat_mul)>(counts)(C, A, B); });
}

void fmpz_mat_det(fmpz_t det, const fmpz_mat_t A)
{
    static Counts counts("fmpz_mat_det");
    route(
        counts, [&] { return A->r >= kDetBoundFrom && A->r == A->c; }, [&] { return zgpu_fmpz_mat_det(det, A); },
        [&] { next<decltype(&fmpz_mat_det)>(counts)(det, A); });
}

int fmpz_mat_solve(fmpz_mat_t X, fmpz_t den, const fmpz_mat_t A, const fmpz_mat_t B)
{
    static Counts counts("fmpz_mat_solve");
    int nonsingular = 0;
    return route(
        counts,
        [&] {
            if (A->r < zgpu::preload::kSolveBoundsFrom || A->r != A->c || B->r != A->r || X->r != B->r || X->c != B->c || B->c < 1)
                return false;
            if (std::size_t(B->c) <= zgpu::matrix::kSolveMaxColumns) return true;
            // Beyond Dixon's columns, Cramer's numerators modulo many primes: b's entries add to a's.
            const std::uint64_t bound = hadamard_estimate(A), b_bits = zgpu::fmpz_mat_bits(B);
            return zgpu::matrix::gpu_pays_for_solve_by_primes(std::size_t(A->r), std::size_t(B->c), bound, bound + b_bits,
                                                              zgpu::host_threads());
        },
        [&] { return zgpu_fmpz_mat_solve(&nonsingular, X, den, A, B); }, [&] { return nonsingular; },
        [&] { return next<decltype(&fmpz_mat_solve)>(counts)(X, den, A, B); });
}

int fmpz_mat_inv(fmpz_mat_t B, fmpz_t den, const fmpz_mat_t A)
{
    static Counts counts("fmpz_mat_inv");
    int invertible = 0;
    return route(
        counts,
        [&] {
            if (A->r != A->c || B->r != A->r || B->c != A->c || std::size_t(A->r) <= zgpu::matrix::kSolveAboveRows) return false;
            const std::uint64_t bound = hadamard_estimate(A);
            return zgpu::matrix::gpu_pays_for_solve_by_primes(std::size_t(A->r), std::size_t(A->r), bound, bound, zgpu::host_threads());
        },
        [&] { return zgpu_fmpz_mat_inv(&invertible, B, den, A); }, [&] { return invertible; },
        [&] { return next<decltype(&fmpz_mat_inv)>(counts)(B, den, A); });
}

// FLINT's fmpz_mat_rank and fmpz_mat_nullspace call it; zgpu answers with FLINT's own function
// where FLINT would not take its multimodular way.
slong fmpz_mat_rref(fmpz_mat_t R, fmpz_t den, const fmpz_mat_t A)
{
    static Counts counts("fmpz_mat_rref");
    slong rank = 0;
    return route(
        counts,
        [&] {
            return R->r == A->r && R->c == A->c && A->r > 20 && A->c > 2 &&
                   zgpu::matrix::gpu_pays_for_nmod_mat_lu_factors(std::size_t(A->r), std::size_t(A->c), zgpu::host_threads());
        },
        [&] { return zgpu_fmpz_mat_rref(&rank, R, den, A); }, [&] { return rank; },
        [&] { return next<decltype(&fmpz_mat_rref)>(counts)(R, den, A); });
}

ulong nmod_mat_det(const nmod_mat_t A)
{
    static Counts counts("nmod_mat_det");
    ulong det = 0;
    return route(
        counts, [&] { return A->r == A->c && lu_worth_it(A, false); }, [&] { return zgpu_nmod_mat_det(&det, A); },
        [&] { return det; }, [&] { return next<decltype(&nmod_mat_det)>(counts)(A); });
}

slong nmod_mat_rank(const nmod_mat_t A)
{
    static Counts counts("nmod_mat_rank");
    slong rank = 0;
    return route(
        counts, [&] { return lu_worth_it(A, true); }, [&] { return zgpu_nmod_mat_rank(&rank, A); }, [&] { return rank; },
        [&] { return next<decltype(&nmod_mat_rank)>(counts)(A); });
}

int nmod_mat_inv(nmod_mat_t B, const nmod_mat_t A)
{
    static Counts counts("nmod_mat_inv");
    int invertible = 0;
    return route(
        counts,
        [&] {
            return A->r == A->c && B->r == A->r && B->c == A->c && A->r >= 2 &&
                   zgpu::matrix::gpu_pays_for_nmod_mat_inv(std::size_t(A->r), zgpu::host_threads());
        },
        [&] { return zgpu_nmod_mat_inv(&invertible, B, A); }, [&] { return invertible; },
        [&] { return next<decltype(&nmod_mat_inv)>(counts)(B, A); });
}

// FLINT's own nmod_mat_lu picks its pivots by its algorithm (recursive on large matrices); the
// GPU's are nmod_mat_lu_classical's. Both give P A = L U, which is all FLINT promises.
slong nmod_mat_lu(slong* P, nmod_mat_t A, int rank_check)
{
    static Counts counts("nmod_mat_lu");
    slong rank = 0;
    return route(
        counts,
        [&] {
            return A->r && A->c &&
                   zgpu::matrix::gpu_pays_for_nmod_mat_lu_factors(std::size_t(A->r), std::size_t(A->c), zgpu::host_threads());
        },
        [&] { return zgpu_nmod_mat_lu(&rank, P, A, rank_check); }, [&] { return rank; },
        [&] { return next<decltype(&nmod_mat_lu)>(counts)(P, A, rank_check); });
}

// FLINT's nmod_mat_nullspace calls it.
slong nmod_mat_rref(nmod_mat_t A)
{
    static Counts counts("nmod_mat_rref");
    slong rank = 0;
    return route(
        counts,
        [&] {
            return A->r && A->c &&
                   zgpu::matrix::gpu_pays_for_nmod_mat_lu_factors(std::size_t(A->r), std::size_t(A->c), zgpu::host_threads());
        },
        [&] { return zgpu_nmod_mat_rref(&rank, A); }, [&] { return rank; }, [&] { return next<decltype(&nmod_mat_rref)>(counts)(A); });
}

int nmod_mat_solve(nmod_mat_t X, const nmod_mat_t A, const nmod_mat_t B)
{
    static Counts counts("nmod_mat_solve");
    int nonsingular = 0;
    return route(
        counts,
        [&] {
            return A->r == A->c && B->r == A->r && X->r == B->r && X->c == B->c && A->r >= 2 && B->c >= 1 &&
                   zgpu::matrix::gpu_pays_for_nmod_mat_solve(std::size_t(A->r), std::size_t(B->c), zgpu::host_threads());
        },
        [&] { return zgpu_nmod_mat_solve(&nonsingular, X, A, B); }, [&] { return nonsingular; },
        [&] { return next<decltype(&nmod_mat_solve)>(counts)(X, A, B); });
}

}  // extern "C"
