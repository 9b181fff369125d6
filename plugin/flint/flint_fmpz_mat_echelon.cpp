// FLINT-style reduced echelon forms, ranks and null spaces of fmpz matrices, their heavy parts on
// zgpu's own entry points. Where FLINT takes its multimodular way (fmpz_mat_rref_mul), zgpu takes
// the same certified one: an LU modulo a prime gives the rank, the pivot rows and the pivot
// columns; the pivot block's solution for the other columns gives the echelon form's rows; they
// are certified when they are in echelon form and every row left out lies in their span (its
// product with the null space basis they give is zero); another prime is tried otherwise. The LU
// mod p, the solution and the product each run where their own choice sends them (the GPU for
// large ones). The certified form is unique and its den is FLINT's fmpz_mat_solve's, so the
// answer is FLINT's. Elsewhere FLINT's own functions answer: its fraction-free ways, and ranks of
// at most 15, whose den (a determinant) depends on the pivot rows.
#include <optional>
#include <string>
#include <vector>

#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>

#include "base/parallel.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/flint/fmpz_mat_temp.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_echelon.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/error.hpp"
#include "zgpu/matrix.hpp"

namespace zgpu {
namespace {

// Primes tried before FLINT answers: an unlucky prime divides a minor of a, so a second one
// nearly always serves.
constexpr std::size_t kPrimesTried = 4;

std::string shape(const fmpz_mat_struct* m) { return std::to_string(m->r) + " x " + std::to_string(m->c); }

// Whether FLINT's fmpz_mat_rref takes its multimodular way for an m x n matrix (its own rule).
bool flint_takes_rref_mul(slong m, slong n)
{
#if __FLINT_RELEASE >= 30000
    return !(m <= 3 || n <= 2 || (m <= 20 && n > m) || (m > 20 && m <= 100 && double(n) > double(m) + double(m - 20) / 80.0 * double(m)));
#else
    return !(FLINT_MIN(n, m) <= 20 || (m <= 105 && double(n) >= 1.4 * double(m)));
#endif
}

// Whether zgpu takes a's echelon form: FLINT's multimodular way, and an LU mod p the choice
// sends to the GPU.
bool zgpu_takes(const fmpz_mat_struct* a)
{
    return flint_takes_rref_mul(a->r, a->c) &&
           choose(matrix::gpu_pays_for_nmod_mat_lu_factors(std::size_t(a->r), std::size_t(a->c), host_threads())) != Backend::cpu;
}

// What a prime gave: the certified echelon form (its rank), an unlucky prime, or a rank of at most
// 15 (FLINT's then).
struct Outcome {
    enum Kind { certified, unlucky, flints } kind;
    slong rank = 0;
};

// The rows of a certified echelon form modulo p into r (den times it, zero rows below).
Outcome certified_echelon(fmpz_mat_struct* r, fmpz_t den, const fmpz_mat_struct* a, ulong p)
{
    const slong m = a->r, n = a->c;
    std::vector<slong> P(static_cast<std::size_t>(m)), pivots, others;
    slong rank = 0;
    {
        nmod_mat_t lu;
        nmod_mat_init(lu, m, n, p);
        fmpz_mat_get_nmod_mat(lu, a);
        rank = matrix::nmod_mat_factor_lu(P.data(), lu, 0);
        // U's row i starts at its pivot, from column i on.
        for (slong i = 0, j = 0; i < rank; ++i, ++j) {
            while (nmod_mat_entry(lu, i, j) == 0) others.push_back(j++);
            pivots.push_back(j);
        }
        for (slong j = pivots.empty() ? 0 : pivots.back() + 1; j < n; ++j) others.push_back(j);
        nmod_mat_clear(lu);
    }
    if (rank == n) {
        fmpz_mat_one(r);
        fmpz_one(den);
        return {Outcome::certified, rank};
    }
    if (rank <= slong(matrix::kSolveAboveRows)) return {Outcome::flints};
    const slong nullity = n - rank;
    FmpzMatTemp b(rank, rank), c(rank, nullity), solution(rank, nullity);
    for (slong i = 0; i < rank; ++i) {
        for (slong j = 0; j < rank; ++j) fmpz_set(fmpz_mat_entry(b.get(), i, j), fmpz_mat_entry(a, P[i], pivots[j]));
        for (slong j = 0; j < nullity; ++j) fmpz_set(fmpz_mat_entry(c.get(), i, j), fmpz_mat_entry(a, P[i], others[j]));
    }
    // b is invertible modulo p, so over Z.
    if (!zgpu::fmpz_mat_solve(solution.get(), den, b.get(), c.get())) return {Outcome::flints};
    FmpzMatTemp echelon(rank, n);
    for (slong i = 0; i < rank; ++i) {
        fmpz_set(fmpz_mat_entry(echelon.get(), i, pivots[i]), den);
        for (slong j = 0; j < nullity; ++j) fmpz_set(fmpz_mat_entry(echelon.get(), i, others[j]), fmpz_mat_entry(solution.get(), i, j));
    }
    if (!fmpz_mat_is_in_rref_with_rank(echelon.get(), den, rank)) return {Outcome::unlucky};
    // The null space basis the rows give, and the rows left out times it.
    FmpzMatTemp basis(n, nullity), left_out(m - rank, n), product(m - rank, nullity);
    for (slong j = 0; j < nullity; ++j) {
        fmpz_set(fmpz_mat_entry(basis.get(), others[j], j), den);
        for (slong i = 0; i < rank; ++i) fmpz_neg(fmpz_mat_entry(basis.get(), pivots[i], j), fmpz_mat_entry(echelon.get(), i, others[j]));
    }
    for (slong i = 0; i < m - rank; ++i)
        for (slong j = 0; j < n; ++j) fmpz_set(fmpz_mat_entry(left_out.get(), i, j), fmpz_mat_entry(a, P[rank + i], j));
    if (m > rank) zgpu::fmpz_mat_mul(product.get(), left_out.get(), basis.get());
    if (!fmpz_mat_is_zero(product.get())) return {Outcome::unlucky};
    for (slong i = 0; i < m; ++i)
        for (slong j = 0; j < n; ++j)
            if (i < rank) fmpz_swap(fmpz_mat_entry(r, i, j), fmpz_mat_entry(echelon.get(), i, j));
            else fmpz_zero(fmpz_mat_entry(r, i, j));
    return {Outcome::certified, rank};
}

// zgpu's certified echelon form of a into r, or nothing where FLINT answers.
std::optional<slong> zgpu_echelon(fmpz_mat_struct* r, fmpz_t den, const fmpz_mat_struct* a)
{
    if (!zgpu_takes(a)) return std::nullopt;
    for (const limb_t p : kernels::ntt_primes(kPrimesTried)) {
        const Outcome outcome = certified_echelon(r, den, a, p);
        if (outcome.kind == Outcome::certified) return outcome.rank;
        if (outcome.kind == Outcome::flints) break;
    }
    return std::nullopt;
}

// FLINT's function on all host threads.
template <class Flint>
auto on_flint_threads(const Flint& flint)
{
    const FlintThreads threads(host_threads());
    return flint();
}

}  // namespace

slong fmpz_mat_rref(fmpz_mat_t r, fmpz_t den, const fmpz_mat_t a)
{
    const std::string f = "fmpz_mat_rref: ";
    if (!r || !den || !a) throw Error(f + (!r ? "r" : !den ? "den" : "a") + " is NULL");
    if (r->r != a->r || r->c != a->c) throw Error(f + "r is " + shape(r) + ", a is " + shape(a));
    // r and den are written once, at the end (r may be a).
    FmpzMatTemp form(a->r, a->c);
    FmpzTemp common;
    if (const std::optional<slong> rank = zgpu_echelon(form.get(), common.get(), a)) {
        fmpz_mat_swap_entrywise(r, form.get());
        fmpz_swap(den, common.get());
        return *rank;
    }
    slong flint_rank = 0;
    run_on(Backend::cpu, {}, [&] { flint_rank = on_flint_threads([&] { return ::fmpz_mat_rref(r, den, a); }); });
    return flint_rank;
}

slong fmpz_mat_rank(const fmpz_mat_t a)
{
    if (!a) throw Error("fmpz_mat_rank: a is NULL");
    // FLINT's small entries and small shapes have ways of their own; its echelon form beyond.
    if (FLINT_ABS(fmpz_mat_max_bits(a)) > (FLINT_BITS - 4) / 2 && FLINT_MIN(a->r, a->c) >= 25) {
        FmpzMatTemp form(a->r, a->c);
        FmpzTemp den;
        if (const std::optional<slong> rank = zgpu_echelon(form.get(), den.get(), a)) return *rank;
    }
    slong flint_rank = 0;
    run_on(Backend::cpu, {}, [&] { flint_rank = on_flint_threads([&] { return ::fmpz_mat_rank(a); }); });
    return flint_rank;
}

slong fmpz_mat_nullspace(fmpz_mat_t x, const fmpz_mat_t a)
{
    const std::string f = "fmpz_mat_nullspace: ";
    if (!x || !a) throw Error(f + (!x ? "x" : "a") + " is NULL");
    if (x->r != a->c || x->c != a->c) throw Error(f + "x is " + shape(x) + ", a is " + shape(a));
    const slong n = a->c;
    FmpzMatTemp form(a->r, n);
    FmpzTemp den;
    const slong rank = zgpu::fmpz_mat_rref(form.get(), den.get(), a);
    // FLINT's basis: column k for the k-th column without a pivot, the first pivot's entry
    // negated there and the echelon form's column in the pivot rows.
    std::vector<slong> pivots, others;
    for (slong j = 0; j < n; ++j)
        if (slong(pivots.size()) < rank && !fmpz_is_zero(fmpz_mat_entry(form.get(), slong(pivots.size()), j))) pivots.push_back(j);
        else others.push_back(j);
    fmpz_mat_zero(x);
    if (rank == 0) {
        for (slong k = 0; k < n; ++k) fmpz_one(fmpz_mat_entry(x, k, k));
    } else {
        const fmpz* first_pivot = fmpz_mat_entry(form.get(), 0, pivots[0]);
        for (std::size_t k = 0; k < others.size(); ++k) {
            for (slong i = 0; i < rank; ++i) fmpz_set(fmpz_mat_entry(x, pivots[i], slong(k)), fmpz_mat_entry(form.get(), i, others[k]));
            fmpz_neg(fmpz_mat_entry(x, others[k], slong(k)), first_pivot);
        }
    }
    return n - rank;
}

}  // namespace zgpu
