// NTL's functions that zgpu has, defined in NTL's name: zgpu where its cost model picks the GPU,
// else NTL's own function. NTL's own algorithms reach these through the dynamic linker too (in
// Debian's libntl 11.5: 50 call sites of mul on zz_pX, 9 on ZZX, 4 on mat_ZZ). zgpu's NTL front
// ends keep NTL's semantics (aliasing included); their CPU path is NTL's function.
#include <NTL/ZZX.h>
#include <NTL/lzz_pX.h>
#include <NTL/mat_ZZ.h>
#include <NTL/mat_lzz_p.h>

#include <flint/ulong_extras.h>

#include <algorithm>
#include <bit>

#include "base/parallel.hpp"
#include "plugin/flint/c_report.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/ntl.hpp"
#include "zgpu/ntl_matrix.hpp"
#include "zgpu/ntl_poly.hpp"

// This library is the NTL plugin (the FLINT plugin's is in fmpz_poly_products.cpp).
const zgpu::preload::Library zgpu::preload::plugin_library = zgpu::preload::Library::ntl;

namespace {

using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::route;

bool zz_px_product_worth_it(const NTL::zz_pX& a, const NTL::zz_pX& b)
{
    const long la = a.rep.length(), lb = b.rep.length();
    // An empty operand may come before any modulus is set: the modulus is read after.
    return la > 0 && lb > 0 && zgpu::preload::nmod_product_worth_it(la, lb, la + lb - 1, ulong(NTL::zz_p::modulus()));
}

bool zzx_product_worth_it(const NTL::ZZX& a, const NTL::ZZX& b)
{
    const long la = a.rep.length(), lb = b.rep.length();
    return la > 0 && lb > 0 && la + lb - 1 >= zgpu::preload::kReadSizesFrom &&
           zgpu::preload::fmpz_product_pays(la, lb, la + lb - 1, std::uint64_t(NTL::MaxBits(a)), std::uint64_t(NTL::MaxBits(b)));
}

bool mat_zz_p_product_worth_it(const NTL::mat_zz_p& a, const NTL::mat_zz_p& b)
{
    const long rows = a.NumRows(), inner = a.NumCols(), cols = b.NumCols();
    if (inner != b.NumRows() || !zgpu::preload::thick(rows, inner, cols)) return false;
    const zgpu::matrix::MatShape shape{std::uint64_t(rows), std::uint64_t(inner), std::uint64_t(cols),
                                       unsigned(std::bit_width(ulong(NTL::zz_p::modulus()) - 1))};
    return zgpu::matrix::gpu_pays_for_nmod_mat_mul(shape, zgpu::host_threads());
}

// The primality test last, where the model already sends the matrix to the GPU.
bool mat_zz_p_determinant_worth_it(const NTL::mat_zz_p& a)
{
    const long n = a.NumRows();
    return n == a.NumCols() && n >= zgpu::preload::kMinDimension &&
           zgpu::matrix::gpu_pays_for_nmod_mat_lu(std::size_t(n), std::size_t(n), false, zgpu::host_threads()) &&
           n_is_prime(ulong(NTL::zz_p::modulus()));
}

// A system x A = b over Z that the GPU's lifting may take (its cost model decides).
bool mat_zz_system_worth_it(const NTL::mat_ZZ& a, const NTL::vec_ZZ& b)
{
    return a.NumRows() == a.NumCols() && b.length() == a.NumRows() && a.NumRows() >= zgpu::preload::kDetBoundFrom;
}

// An inverse (right_sides 0) or a solution with one right side, of a matrix the GPU's inverse
// by blocks takes.
bool mat_zz_p_inverse_worth_it(const NTL::mat_zz_p& a, long right_sides)
{
    const long n = a.NumRows();
    if (n != a.NumCols() || n < zgpu::preload::kMinDimension) return false;
    const bool pays = right_sides == 0 ? zgpu::matrix::gpu_pays_for_nmod_mat_inv(std::size_t(n), zgpu::host_threads())
                                       : zgpu::matrix::gpu_pays_for_nmod_mat_solve(std::size_t(n), std::size_t(right_sides),
                                                                                    zgpu::host_threads());
    return pays && n_is_prime(ulong(NTL::zz_p::modulus()));
}

// An elimination (gauss, image, kernel) of a that the GPU's LU takes.
bool mat_zz_p_elimination_worth_it(const NTL::mat_zz_p& a)
{
    const long rows = a.NumRows(), cols = a.NumCols();
    return rows >= zgpu::preload::kMinDimension && cols >= zgpu::preload::kMinDimension &&
           zgpu::matrix::gpu_pays_for_nmod_mat_lu_factors(std::size_t(rows), std::size_t(cols), zgpu::host_threads()) &&
           n_is_prime(ulong(NTL::zz_p::modulus()));
}

}  // namespace

namespace NTL {

void mul(zz_pX& x, const zz_pX& a, const zz_pX& b)
{
    static Counts counts("NTL::mul(zz_pX)", "_ZN3NTL3mulERNS_5zz_pXERKS0_S3_");
    route(
        counts, [&] { return zz_px_product_worth_it(a, b); }, [&] { return zgpu::report("zgpu_mul", [&] { zgpu::mul(x, a, b); }); },
        [&] { next<void (*)(zz_pX&, const zz_pX&, const zz_pX&)>(counts)(x, a, b); });
}

void sqr(zz_pX& x, const zz_pX& a)
{
    static Counts counts("NTL::sqr(zz_pX)", "_ZN3NTL3sqrERNS_5zz_pXERKS0_");
    route(
        counts, [&] { return zz_px_product_worth_it(a, a); }, [&] { return zgpu::report("zgpu_sqr", [&] { zgpu::sqr(x, a); }); },
        [&] { next<void (*)(zz_pX&, const zz_pX&)>(counts)(x, a); });
}

void mul(ZZX& x, const ZZX& a, const ZZX& b)
{
    static Counts counts("NTL::mul(ZZX)", "_ZN3NTL3mulERNS_3ZZXERKS0_S3_");
    route(
        counts, [&] { return zzx_product_worth_it(a, b); }, [&] { return zgpu::report("zgpu_mul", [&] { zgpu::mul(x, a, b); }); },
        [&] { next<void (*)(ZZX&, const ZZX&, const ZZX&)>(counts)(x, a, b); });
}

void sqr(ZZX& x, const ZZX& a)
{
    static Counts counts("NTL::sqr(ZZX)", "_ZN3NTL3sqrERNS_3ZZXERKS0_");
    route(
        counts, [&] { return zzx_product_worth_it(a, a); }, [&] { return zgpu::report("zgpu_sqr", [&] { zgpu::sqr(x, a); }); },
        [&] { next<void (*)(ZZX&, const ZZX&)>(counts)(x, a); });
}

void mul(mat_ZZ& X, const mat_ZZ& A, const mat_ZZ& B)
{
    static Counts counts("NTL::mul(mat_ZZ)", "_ZN3NTL3mulERNS_3MatINS_2ZZEEERKS2_S5_");
    route(
        counts,
        [&] {
            return A.NumCols() == B.NumRows() && zgpu::preload::thick(A.NumRows(), A.NumCols(), B.NumCols()) &&
                   zgpu::preload::fmpz_mat_product_pays(A.NumRows(), A.NumCols(), B.NumCols(), zgpu::max_bits(A), zgpu::max_bits(B));
        },
        [&] { return zgpu::report("zgpu_mul", [&] { zgpu::mul(X, A, B); }); },
        [&] { next<void (*)(mat_ZZ&, const mat_ZZ&, const mat_ZZ&)>(counts)(X, A, B); });
}

// zgpu's determinant is exact whatever `deterministic` asks (NTL's own may use a randomised
// strategy when it is 0; its result is exact all the same).
void determinant(ZZ& d, const mat_ZZ& A, long deterministic)
{
    static Counts counts("NTL::determinant(mat_ZZ)", "_ZN3NTL11determinantERNS_2ZZERKNS_3MatIS0_EEl");
    route(
        counts, [&] { return A.NumRows() == A.NumCols() && A.NumRows() >= zgpu::preload::kDetBoundFrom; },
        [&] { return zgpu::report("zgpu_determinant", [&] { zgpu::determinant(d, A); }); },
        [&] { next<void (*)(ZZ&, const mat_ZZ&, long)>(counts)(d, A, deterministic); });
}

// d = det A and X = d A^-1, exact whatever `deterministic` asks, as the determinant's.
void inv(ZZ& d, mat_ZZ& X, const mat_ZZ& A, long deterministic)
{
    static Counts counts("NTL::inv(mat_ZZ)", "_ZN3NTL3invERNS_2ZZERNS_3MatIS0_EERKS3_l");
    route(
        counts, [&] { return A.NumRows() == A.NumCols() && A.NumRows() > long(zgpu::matrix::kSolveAboveRows); },
        [&] { return zgpu::report("zgpu_inv", [&] { zgpu::inv(d, X, A); }); },
        [&] { next<void (*)(ZZ&, mat_ZZ&, const mat_ZZ&, long)>(counts)(d, X, A, deterministic); });
}

// x A = d b over Z: d minimal (solve1) or det A (solve); zgpu's from the plugin's gate on.
void solve1(ZZ& d, vec_ZZ& x, const mat_ZZ& A, const vec_ZZ& b)
{
    static Counts counts("NTL::solve1(mat_ZZ)", "_ZN3NTL6solve1ERNS_2ZZERNS_3VecIS0_EERKNS_3MatIS0_EERKS3_");
    route(
        counts, [&] { return mat_zz_system_worth_it(A, b); },
        [&] { return zgpu::report("zgpu_solve1", [&] { zgpu::solve1(d, x, A, b); }); },
        [&] { next<void (*)(ZZ&, vec_ZZ&, const mat_ZZ&, const vec_ZZ&)>(counts)(d, x, A, b); });
}

// zgpu's d is exact whatever `deterministic` asks, as its determinant's.
void solve(ZZ& d, vec_ZZ& x, const mat_ZZ& A, const vec_ZZ& b, long deterministic)
{
    static Counts counts("NTL::solve(mat_ZZ)", "_ZN3NTL5solveERNS_2ZZERNS_3VecIS0_EERKNS_3MatIS0_EERKS3_l");
    route(
        counts, [&] { return mat_zz_system_worth_it(A, b); },
        [&] { return zgpu::report("zgpu_solve", [&] { zgpu::solve(d, x, A, b); }); },
        [&] { next<void (*)(ZZ&, vec_ZZ&, const mat_ZZ&, const vec_ZZ&, long)>(counts)(d, x, A, b, deterministic); });
}

void resultant(ZZ& res, const ZZX& a, const ZZX& b, long deterministic)
{
    static Counts counts("NTL::resultant(ZZX)", "_ZN3NTL9resultantERNS_2ZZERKNS_3ZZXES4_l");
    route(
        counts,
        [&] { return a.rep.length() >= zgpu::preload::kResultantBoundFrom && b.rep.length() >= zgpu::preload::kResultantBoundFrom; },
        [&] { return zgpu::report("zgpu_resultant", [&] { zgpu::resultant(res, a, b); }); },
        [&] { next<void (*)(ZZ&, const ZZX&, const ZZX&, long)>(counts)(res, a, b, deterministic); });
}

void mul(mat_zz_p& X, const mat_zz_p& A, const mat_zz_p& B)
{
    static Counts counts("NTL::mul(mat_zz_p)", "_ZN3NTL3mulERNS_3MatINS_4zz_pEEERKS2_S5_");
    route(
        counts, [&] { return mat_zz_p_product_worth_it(A, B); }, [&] { return zgpu::report("zgpu_mul", [&] { zgpu::mul(X, A, B); }); },
        [&] { next<void (*)(mat_zz_p&, const mat_zz_p&, const mat_zz_p&)>(counts)(X, A, B); });
}

// NTL's determinant(d, A) is relaxed_determinant(d, A, false), reported under the name users
// call. zgpu's equals NTL's modulo a prime, where `relax` changes nothing; modulo a composite
// zgpu's front end is NTL's strict function, so a relaxed call modulo a composite runs NTL's own
// (from inside zgpu's report where ZGPU_BACKEND forced the call there).
void relaxed_determinant(zz_p& d, const mat_zz_p& A, bool relax)
{
    static Counts counts("NTL::determinant(mat_zz_p)", "_ZN3NTL19relaxed_determinantERNS_4zz_pERKNS_3MatIS0_EEb");
    const auto ntl = [&] { next<void (*)(zz_p&, const mat_zz_p&, bool)>(counts)(d, A, relax); };
    route(
        counts, [&] { return mat_zz_p_determinant_worth_it(A); },
        [&] {
            return zgpu::report("zgpu_determinant", [&] {
                if (relax && !n_is_prime(ulong(zz_p::modulus()))) return ntl();
                zgpu::determinant(d, A);
            });
        },
        ntl);
}

// NTL's inv and solve call these with relax = false; modulo a composite a relaxed call runs
// NTL's own, as the determinant's does.
void relaxed_inv(zz_p& d, mat_zz_p& X, const mat_zz_p& A, bool relax)
{
    static Counts counts("NTL::inv(mat_zz_p)", "_ZN3NTL11relaxed_invERNS_4zz_pERNS_3MatIS0_EERKS3_b");
    const auto ntl = [&] { next<void (*)(zz_p&, mat_zz_p&, const mat_zz_p&, bool)>(counts)(d, X, A, relax); };
    route(
        counts, [&] { return mat_zz_p_inverse_worth_it(A, 0); },
        [&] {
            return zgpu::report("zgpu_inv", [&] {
                if (relax && !n_is_prime(ulong(zz_p::modulus()))) return ntl();
                zgpu::inv(d, X, A);
            });
        },
        ntl);
}

// x A = b.
void relaxed_solve(zz_p& d, vec_zz_p& x, const mat_zz_p& A, const vec_zz_p& b, bool relax)
{
    static Counts counts("NTL::solve(vec_zz_p, mat_zz_p)", "_ZN3NTL13relaxed_solveERNS_4zz_pERNS_3VecIS0_EERKNS_3MatIS0_EERKS3_b");
    const auto ntl = [&] { next<void (*)(zz_p&, vec_zz_p&, const mat_zz_p&, const vec_zz_p&, bool)>(counts)(d, x, A, b, relax); };
    route(
        counts, [&] { return b.length() == A.NumRows() && mat_zz_p_inverse_worth_it(A, 1); },
        [&] {
            return zgpu::report("zgpu_solve", [&] {
                if (relax && !n_is_prime(ulong(zz_p::modulus()))) return ntl();
                zgpu::solve(d, x, A, b);
            });
        },
        ntl);
}

// A x = b.
void relaxed_solve(zz_p& d, const mat_zz_p& A, vec_zz_p& x, const vec_zz_p& b, bool relax)
{
    static Counts counts("NTL::solve(mat_zz_p, vec_zz_p)", "_ZN3NTL13relaxed_solveERNS_4zz_pERKNS_3MatIS0_EERNS_3VecIS0_EERKS7_b");
    const auto ntl = [&] { next<void (*)(zz_p&, const mat_zz_p&, vec_zz_p&, const vec_zz_p&, bool)>(counts)(d, A, x, b, relax); };
    route(
        counts, [&] { return b.length() == A.NumRows() && mat_zz_p_inverse_worth_it(A, 1); },
        [&] {
            return zgpu::report("zgpu_solve", [&] {
                if (relax && !n_is_prime(ulong(zz_p::modulus()))) return ntl();
                zgpu::solve(d, A, x, b);
            });
        },
        ntl);
}

// NTL's gauss(M) is gauss(M, M.NumCols()) through the dynamic linker: this takes both. zgpu's
// gauss is NTL's on the whole width; a narrower w stays with NTL.
long gauss(mat_zz_p& M, long w)
{
    static Counts counts("NTL::gauss(mat_zz_p)", "_ZN3NTL5gaussERNS_3MatINS_4zz_pEEEl");
    // A w outside 0 to M's columns is the caller's error: NTL's own reports it.
    if (w < 0 || w > M.NumCols()) return next<long (*)(mat_zz_p&, long)>(counts)(M, w);
    long rank = 0;
    return route(
        counts, [&] { return w == M.NumCols() && mat_zz_p_elimination_worth_it(M); },
        [&] { return zgpu::report("zgpu_gauss", [&] { rank = zgpu::gauss(M, w); }); }, [&] { return rank; },
        [&] { return next<long (*)(mat_zz_p&, long)>(counts)(M, w); });
}

void image(mat_zz_p& X, const mat_zz_p& A)
{
    static Counts counts("NTL::image(mat_zz_p)", "_ZN3NTL5imageERNS_3MatINS_4zz_pEEERKS2_");
    route(
        counts, [&] { return mat_zz_p_elimination_worth_it(A); }, [&] { return zgpu::report("zgpu_image", [&] { zgpu::image(X, A); }); },
        [&] { next<void (*)(mat_zz_p&, const mat_zz_p&)>(counts)(X, A); });
}

void kernel(mat_zz_p& X, const mat_zz_p& A)
{
    static Counts counts("NTL::kernel(mat_zz_p)", "_ZN3NTL6kernelERNS_3MatINS_4zz_pEEERKS2_");
    route(
        counts, [&] { return mat_zz_p_elimination_worth_it(A); }, [&] { return zgpu::report("zgpu_kernel", [&] { zgpu::kernel(X, A); }); },
        [&] { next<void (*)(mat_zz_p&, const mat_zz_p&)>(counts)(X, A); });
}

}  // namespace NTL
