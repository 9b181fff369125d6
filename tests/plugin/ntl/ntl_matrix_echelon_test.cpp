// zgpu::gauss, image and kernel on NTL's mat_zz_p against NTL's own, on each backend: empty and
// non-square shapes, full and deficient ranks, pivots that need row swaps, every entry p - 1,
// moduli from 2 to an FFT prime of 60 bits, a composite one (left to NTL), sizes where NTL's
// elimination runs in blocks (from 128 rows and columns), aliasing, a bad w. And, without a GPU,
// NTL's forms made from a plain LU on the host (lu_forms.hpp), as the GPU's LU would give them.
#include <functional>
#include <string>
#include <vector>

#include <NTL/mat_lzz_p.h>
#include <gtest/gtest.h>

#include <flint/nmod_mat.h>

#include "backend_env.hpp"
#include "flint_random.hpp"
#include "plugin/matrix/nmod_mat_echelon.hpp"
#include "plugin/ntl/lu_forms.hpp"
#include "plugin/ntl/mat_zz_p_rows.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl_matrix.hpp"

namespace zgpu::testing {
namespace {

// a random rows x cols matrix of rank at most `rank` (a product through `rank` columns), its
// first column zero but for the last row so that the first pivot needs a swap.
NTL::mat_zz_p deficient(long rows, long cols, long rank)
{
    NTL::mat_zz_p left, right, a;
    NTL::random(left, rows, rank);
    NTL::random(right, rank, cols);
    NTL::mul(a, left, right);
    for (long i = 0; i + 1 < rows && cols > 0; ++i) a[i][0] = 0;
    return a;
}

// The matrices every test takes: shapes empty, thin, wide and square; ranks full and deficient;
// one large enough for the host threads (kernel_from_lu splits rows from 2^16 entries).
std::vector<NTL::mat_zz_p> cases()
{
    std::vector<NTL::mat_zz_p> all;
    const long shapes[][3] = {{0, 0, 0}, {0, 5, 0}, {5, 0, 0}, {1, 1, 1}, {3, 7, 3}, {7, 3, 3},
                              {40, 40, 40}, {40, 40, 25}, {60, 30, 30}, {30, 60, 12}, {200, 150, 90}, {150, 200, 150},
                              {600, 500, 400}};
    for (const auto& s : shapes) {
        NTL::mat_zz_p a;
        if (s[2] == std::min(s[0], s[1])) NTL::random(a, s[0], s[1]);
        else a = deficient(s[0], s[1], s[2]);
        all.push_back(a);
    }
    NTL::mat_zz_p minus_one;
    minus_one.SetDims(130, 140);
    for (long i = 0; i < 130; ++i)
        for (long j = 0; j < 140; ++j) minus_one[i][j] = -1;
    all.push_back(minus_one);
    all.push_back(NTL::ident_mat_zz_p(50));
    NTL::mat_zz_p zero;
    zero.SetDims(20, 30);
    all.push_back(zero);
    return all;
}

std::string context(const NTL::mat_zz_p& a, const char* what)
{
    return std::string(what) + " of " + std::to_string(a.NumRows()) + " x " + std::to_string(a.NumCols()) + " mod " +
           std::to_string(NTL::zz_p::modulus());
}

// The moduli: the smallest, a small odd prime, a prime of 31 bits, an FFT prime of 60 bits.
void for_each_prime(const std::function<void()>& test)
{
    for (const long p : {2L, 3L, 2147483647L}) {
        NTL::zz_p::init(p);
        test();
    }
    NTL::zz_p::FFTInit(0);
    test();
}

class NtlEchelonModP : public OnBackend {
protected:
    void SetUp() override
    {
        OnBackend::SetUp();
        NTL::SetSeed(NTL::ZZ(7));
    }
};

TEST_P(NtlEchelonModP, GaussImageAndKernelMatchNtl)
{
    for_each_prime([] {
        for (const NTL::mat_zz_p& a : cases()) {
            NTL::mat_zz_p ours = a, theirs = a;
            const long their_rank = NTL::gauss(theirs);
            EXPECT_EQ(zgpu::gauss(ours), their_rank) << context(a, "gauss");
            EXPECT_TRUE(ours == theirs) << context(a, "gauss");
            NTL::mat_zz_p x;
            NTL::image(theirs, a);
            zgpu::image(x, a);
            EXPECT_TRUE(x == theirs) << context(a, "image");
            NTL::kernel(theirs, a);
            zgpu::kernel(x, a);
            EXPECT_TRUE(x == theirs) << context(a, "kernel");
        }
    });
}

TEST_P(NtlEchelonModP, OutputsMayBeInputs)
{
    NTL::zz_p::FFTInit(0);
    const NTL::mat_zz_p a = deficient(160, 140, 100);
    NTL::mat_zz_p expected, x = a;
    NTL::image(expected, a);
    zgpu::image(x, x);
    EXPECT_TRUE(x == expected);
    x = a;
    NTL::kernel(expected, a);
    zgpu::kernel(x, x);
    EXPECT_TRUE(x == expected);
}

TEST_P(NtlEchelonModP, GaussStoppedAtAColumnAndBadColumns)
{
    NTL::zz_p::init(65537);
    const NTL::mat_zz_p a = deficient(50, 40, 30);
    for (const long w : {0L, 1L, 20L, 39L, 40L}) {
        NTL::mat_zz_p ours = a, theirs = a;
        EXPECT_EQ(zgpu::gauss(ours, w), NTL::gauss(theirs, w)) << "w = " << w;
        EXPECT_TRUE(ours == theirs) << "w = " << w;
    }
    NTL::mat_zz_p untouched = a;
    for (const long w : {-1L, 41L}) EXPECT_THROW(zgpu::gauss(untouched, w), zgpu::Error) << "w = " << w;
    EXPECT_TRUE(untouched == a);
}

// A composite modulus stays with NTL; unit pivots keep NTL's elimination defined.
TEST_P(NtlEchelonModP, CompositeModuliAsNtl)
{
    NTL::zz_p::init((1L << 40) + 1);
    NTL::mat_zz_p a = NTL::ident_mat_zz_p(140);
    swap(a[0], a[139]);
    a[5][7] = 12345;
    NTL::mat_zz_p ours = a, theirs = a;
    EXPECT_EQ(zgpu::gauss(ours), NTL::gauss(theirs));
    EXPECT_TRUE(ours == theirs);
    NTL::mat_zz_p x;
    NTL::kernel(theirs, a);
    zgpu::kernel(x, a);
    EXPECT_TRUE(x == theirs);
}

INSTANTIATE_TEST_SUITE_P(Backends, NtlEchelonModP, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

// The GPU's LU's form (nmod_mat_lu_classical's), made on the host: each column's first nonzero
// entry from the current row down is the pivot, its row swapped up; the multiplier of row i for
// pivot t stored in column t (not the pivot's column, where a column had no pivot).
gpu::LuPivots plain_lu(NTL::mat_zz_p& a)
{
    gpu::LuPivots pivots;
    long row = 0;
    for (long col = 0; col < a.NumCols() && row < a.NumRows(); ++col) {
        long pivot = row;
        while (pivot < a.NumRows() && a[pivot][col] == 0) ++pivot;
        if (pivot == a.NumRows()) continue;
        swap(a[row], a[pivot]);
        pivots.rows.push_back(std::size_t(pivot));
        pivots.columns.push_back(std::size_t(col));
        const NTL::zz_p inverse = NTL::inv(a[row][col]);
        for (long i = row + 1; i < a.NumRows(); ++i) {
            const NTL::zz_p e = a[i][col] * inverse;
            for (long j = col + 1; j < a.NumCols(); ++j) a[i][j] -= e * a[row][j];
            a[i][col] = 0;
            a[i][row] = e;
        }
        ++row;
    }
    return pivots;
}

// The GPU's parts of the kernel apart: its LU (factors and pivots) against the plain one, and
// its triangular solve against FLINT's, modulo small primes too.
TEST(NtlLuForms, TheGpuLuIsThePlainLu)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
    NTL::SetSeed(NTL::ZZ(7));
    for_each_prime([] {
        for (const NTL::mat_zz_p& a : cases()) {
            if (a.NumRows() == 0 || a.NumCols() == 0) continue;
            NTL::mat_zz_p plain = a, ours;
            ours.SetDims(a.NumRows(), a.NumCols());
            const gpu::LuPivots expected = plain_lu(plain);
            const gpu::LuPivots pivots = gpu::nmod_mat_lu(ntl::rows_of<const limb_t*>(a), std::size_t(a.NumCols()), ntl::modulus(),
                                                          ntl::rows_of<limb_t*>(ours), {});
            EXPECT_EQ(pivots.rows, expected.rows) << context(a, "LU's row swaps");
            EXPECT_EQ(pivots.columns, expected.columns) << context(a, "LU's pivot columns");
            EXPECT_TRUE(ours == plain) << context(a, "LU");
        }
    });
}

TEST(NtlLuForms, TheGpuTriangularSolveIsFlints)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
    const ScopedBackend gpu("gpu");
    flint_rand_t state;
    random_init(state);
    for (const ulong p : {2UL, 3UL, 65537UL})
        for (const slong r : {12L, 38L, 90L}) {
            nmod_mat_t u, v, expected;
            nmod_mat_init(u, r, r, p);
            nmod_mat_init(v, r, 2 * r, p);
            nmod_mat_init(expected, r, 2 * r, p);
            nmod_mat_randtriu(u, state, 1);
            nmod_mat_randtest(v, state);
            nmod_mat_solve_triu(expected, u, v, 0);
            matrix::solve_upper_triangular(v, u);
            EXPECT_TRUE(nmod_mat_equal(v, expected)) << "p = " << p << ", r = " << r;
            nmod_mat_clear(u);
            nmod_mat_clear(v);
            nmod_mat_clear(expected);
        }
    random_clear(state);
}

// Whether lu is a's LU as FLINT's nmod_mat_lu_classical packs it.
bool is_flints_lu(const NTL::mat_zz_p& lu, const NTL::mat_zz_p& a)
{
    nmod_mat_t flint;
    nmod_mat_init(flint, a.NumRows(), a.NumCols(), ulong(NTL::zz_p::modulus()));
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) nmod_mat_entry(flint, i, j) = ulong(NTL::rep(a[i][j]));
    std::vector<slong> P(std::size_t(a.NumRows()));
    nmod_mat_lu_classical(P.data(), flint, 0);
    bool same = true;
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) same = same && nmod_mat_entry(flint, i, j) == ulong(NTL::rep(lu[i][j]));
    nmod_mat_clear(flint);
    return same;
}

TEST(NtlLuForms, FromAPlainLuAsNtl)
{
    NTL::SetSeed(NTL::ZZ(11));
    for_each_prime([] {
        for (const NTL::mat_zz_p& a : cases()) {
            if (a.NumRows() == 0 || a.NumCols() == 0) continue;  // the faces leave these to NTL
            NTL::mat_zz_p lu = a, expected = a, x;
            const gpu::LuPivots pivots = plain_lu(lu);
            EXPECT_TRUE(is_flints_lu(lu, a)) << context(a, "plain LU");
            NTL::kernel(expected, a);
            ntl::kernel_from_lu(x, lu, pivots);
            EXPECT_TRUE(x == expected) << context(a, "kernel");
            EXPECT_EQ(long(pivots.columns.size()), NTL::gauss(expected = a)) << context(a, "rank");
            ntl::echelon_from_lu(lu, pivots);
            EXPECT_TRUE(lu == expected) << context(a, "gauss");
        }
    });
}

}  // namespace
}  // namespace zgpu::testing
