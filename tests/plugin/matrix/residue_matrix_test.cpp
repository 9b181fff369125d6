// mat_mul and mat_det on residue batches against FLINT's nmod_mat_mul and nmod_mat_det modulo
// each modulus, on each backend: empty and 1 x 1 shapes, shapes off the kernels' tiles and
// panels, moduli from 2 to 2^64 - 1, singular matrices, aliasing, operands that do not match.
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "residue_fixture.hpp"
#include "zgpu/error.hpp"
#include "zgpu/residue_matrix.hpp"

namespace zgpu::testing {
namespace {

class ResidueMatrices : public OnBackendWithResidues {
protected:
    // FLINT's a b modulo each modulus, row-major.
    static Residues flint_products(const PrimeSet& set, const Residues& a, const Residues& b, std::size_t rows,
                                   std::size_t inner, std::size_t cols)
    {
        Residues r(set.size(), std::vector<ulong>(rows * cols));
        for (std::size_t m = 0; m < set.size(); ++m) {
            nmod_mat_t x, y, z;
            nmod_mat_init(x, slong(rows), slong(inner), set.moduli()[m]);
            nmod_mat_init(y, slong(inner), slong(cols), set.moduli()[m]);
            nmod_mat_init(z, slong(rows), slong(cols), set.moduli()[m]);
            for (std::size_t e = 0; e < rows * inner; ++e) nmod_mat_entry(x, slong(e / inner), slong(e % inner)) = a[m][e];
            for (std::size_t e = 0; e < inner * cols; ++e) nmod_mat_entry(y, slong(e / cols), slong(e % cols)) = b[m][e];
            nmod_mat_mul(z, x, y);
            for (std::size_t e = 0; e < rows * cols; ++e) r[m][e] = nmod_mat_entry(z, slong(e / cols), slong(e % cols));
            nmod_mat_clear(x);
            nmod_mat_clear(y);
            nmod_mat_clear(z);
        }
        return r;
    }

    std::vector<PrimeSet> sets() const
    {
        const limb_t moduli[] = {2, 7, (limb_t(1) << 62) - 57, ~limb_t(0) - 58, ~limb_t(0)};  // pairwise coprime
        return {PrimeSet::generated(1), PrimeSet::generated(5), PrimeSet(moduli)};
    }
};

TEST_P(ResidueMatrices, ProductsMatchFlintModuloEachModulus)
{
    struct Shape {
        std::size_t rows, inner, cols;
    };
    for (const PrimeSet& set : sets())
        for (const Shape s : {Shape{0, 3, 4}, Shape{3, 0, 4}, Shape{1, 1, 1}, Shape{2, 3, 1}, Shape{33, 65, 17}, Shape{64, 64, 64},
                              Shape{70, 130, 97}}) {
            const Residues a = random_residues(set, s.rows * s.inner), b = random_residues(set, s.inner * s.cols);
            ResidueBatch r(set, 3, GetParam());
            mat_mul(r, upload(set, a), upload(set, b), s.rows, s.inner, s.cols);
            const std::string what = std::to_string(s.rows) + " x " + std::to_string(s.inner) + " x " + std::to_string(s.cols) +
                                     " modulo " + std::to_string(set.size()) + " moduli";
            EXPECT_EQ(r.count(), s.rows * s.cols) << what;
            EXPECT_EQ(r.backend(), GetParam());
            EXPECT_EQ(download(r), flint_products(set, a, b, s.rows, s.inner, s.cols)) << what;
        }
}

TEST_P(ResidueMatrices, EveryEntryAtItsLargest)
{
    const limb_t moduli[] = {~limb_t(0), ~limb_t(0) - 58};
    const PrimeSet set(moduli);
    const std::size_t n = 100;
    const Residues top = {std::vector<ulong>(n * n, moduli[0] - 1), std::vector<ulong>(n * n, moduli[1] - 1)};
    ResidueBatch r(set, 0, GetParam());
    mat_mul(r, upload(set, top), upload(set, top), n, n, n);
    EXPECT_EQ(download(r), flint_products(set, top, top, n, n, n));
}

TEST_P(ResidueMatrices, ResultMayBeAnOperand)
{
    const PrimeSet set = PrimeSet::generated(3);
    const Residues a = random_residues(set, 20 * 20), b = random_residues(set, 20 * 20);
    ResidueBatch ra = upload(set, a), rb = upload(set, b);
    mat_mul(ra, ra, rb, 20, 20, 20);  // r == a
    EXPECT_EQ(download(ra), flint_products(set, a, b, 20, 20, 20));
    ra = upload(set, a);
    mat_mul(rb, ra, rb, 20, 20, 20);  // r == b
    EXPECT_EQ(download(rb), flint_products(set, a, b, 20, 20, 20));
    mat_mul(ra, ra, ra, 20, 20, 20);  // a square
    EXPECT_EQ(download(ra), flint_products(set, a, a, 20, 20, 20));
}

TEST_P(ResidueMatrices, OperandsThatDoNotMatchAreErrors)
{
    const PrimeSet two = PrimeSet::generated(2), three = PrimeSet::generated(3);
    const ResidueBatch a = upload(two, random_residues(two, 6)), c = upload(three, random_residues(three, 6));
    ResidueBatch r = upload(two, random_residues(two, 4));
    const Residues before = download(r);
    EXPECT_THROW(mat_mul(r, a, c, 2, 3, 2), Error);
    EXPECT_THROW(mat_mul(r, a, a, 2, 2, 3), Error);  // a is not 2 x 2
    EXPECT_THROW(mat_mul(r, a, a, 3, 2, 2), Error);  // b is not 2 x 2
    try {
        mat_mul(r, a, a, 2, 3, 4);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "zgpu: mat_mul: b holds 6 values, not 3 x 4");
    }
    EXPECT_EQ(download(r), before);
    if (GetParam() == Backend::gpu) {
        const ResidueBatch on_cpu(two, 6, Backend::cpu);
        EXPECT_THROW(mat_mul(r, a, on_cpu, 2, 3, 2), Error);
        EXPECT_EQ(download(r), before);
    }
}

// FLINT's determinant of each modulus's n x n matrix.
std::vector<ulong> flint_dets(const PrimeSet& set, const Residues& a, std::size_t n)
{
    std::vector<ulong> d(set.size());
    for (std::size_t m = 0; m < set.size(); ++m) {
        nmod_mat_t x;
        nmod_mat_init(x, slong(n), slong(n), set.moduli()[m]);
        for (std::size_t e = 0; e < n * n; ++e) nmod_mat_entry(x, slong(e / n), slong(e % n)) = a[m][e];
        d[m] = nmod_mat_det(x);
        nmod_mat_clear(x);
    }
    return d;
}

TEST_P(ResidueMatrices, DeterminantsMatchFlintModuloEachPrime)
{
    const limb_t primes[] = {2, 3, 65537, (limb_t(1) << 62) - 57, ~limb_t(0) - 58};
    for (const PrimeSet& set : {PrimeSet::generated(1), PrimeSet::generated(5), PrimeSet(primes)})
        for (const std::size_t n : {0, 1, 2, 7, 16, 17, 40}) {
            Residues a = random_residues(set, n * n);
            const ResidueBatch ra = upload(set, a);
            std::vector<ulong> d(set.size(), 99);
            mat_det(d, ra, n);
            EXPECT_EQ(d, flint_dets(set, a, n)) << n << " x " << n << " modulo " << set.size() << " primes";
            EXPECT_EQ(download(ra), a) << "a changed";
            if (n < 2) continue;
            for (auto& m : a)  // the last row a copy of the first: singular
                for (std::size_t j = 0; j < n; ++j) m[(n - 1) * n + j] = m[j];
            mat_det(d, upload(set, a), n);
            EXPECT_EQ(d, std::vector<ulong>(set.size(), 0)) << "singular, " << n << " x " << n;
        }
}

TEST_P(ResidueMatrices, DeterminantsNeedPrimesAndMatchingSizes)
{
    const limb_t coprime[] = {4, 9};
    const PrimeSet composite(coprime), two = PrimeSet::generated(2);
    std::vector<ulong> d(2, 7);
    try {
        mat_det(d, upload(composite, random_residues(composite, 4)), 2);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "zgpu: mat_det: modulus 0 (4) is not prime");
    }
    EXPECT_THROW(mat_det(d, upload(two, random_residues(two, 5)), 2), Error);  // not 2 x 2
    std::vector<ulong> short_det(1, 7);
    EXPECT_THROW(mat_det(short_det, upload(two, random_residues(two, 4)), 2), Error);
    EXPECT_EQ(d, std::vector<ulong>(2, 7));
    EXPECT_EQ(short_det, std::vector<ulong>(1, 7));
}

INSTANTIATE_TEST_SUITE_P(Backends, ResidueMatrices, ::testing::Values(Backend::cpu, Backend::gpu), backend_param_name);

}  // namespace
}  // namespace zgpu::testing
