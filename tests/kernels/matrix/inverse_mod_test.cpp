// Inverses of small matrices mod p on the GPU (kernels/matrix/inverse_mod.hpp) against FLINT's
// nmod_mat_inv and nmod_mat_det: primes from 2 to 2^64 - 59, one matrix a prime in a batch, every
// size from 1 to the largest; matrices whose pivots come from later rows (zeros on the diagonal,
// permutations, a lower anti-triangle), singular ones, every entry p - 1; the determinant
// multiplied into what det held.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "flint_random.hpp"
#include "kernels/matrix/inverse_mod.hpp"

namespace zgpu::testing {
namespace {

class InverseMod : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state_);  // first: TearDown clears it after a skip too
        ZGPU_SKIP_WITHOUT(Backend::gpu);
    }
    void TearDown() override { random_clear(state_); }

    // Each matrix made by fill(m, b) (b: its place in the batch), mod primes[b % primes]: the
    // batch inverted on the device against FLINT, det starting at b + 2 (reduced).
    void check(std::size_t n, const std::function<void(nmod_mat_t, std::size_t)>& fill)
    {
        const std::vector<limb_t> primes = {2, 3, 251, 65537, (limb_t(1) << 31) - 1, (limb_t(1) << 62) - 57, ~limb_t(0) - 58};
        const std::size_t count = 2 * primes.size();
        std::vector<limb_t> entries, start;
        std::vector<kernels::Modulus> moduli;
        std::vector<nmod_mat_struct> a(count);
        for (std::size_t b = 0; b < count; ++b) {
            const limb_t p = primes[b % primes.size()];
            nmod_mat_init(&a[b], slong(n), slong(n), p);
            fill(&a[b], b);
            for (slong i = 0; i < slong(n); ++i)
                for (slong j = 0; j < slong(n); ++j) entries.push_back(nmod_mat_entry(&a[b], i, j));
            start.push_back((b + 2) % p);
            moduli.push_back(kernels::make_modulus(p));
        }
        DeviceArray<limb_t> m(entries), det(start);
        DeviceArray<kernels::Modulus> dm(moduli);
        kernels::invert_small_mod({m.data(), n, n, n, n * n, count}, dm.data(), det.data(), nullptr);
        const std::vector<limb_t> got = m.download(), dets = det.download();
        for (std::size_t b = 0; b < count; ++b) {
            const std::string what = "n = " + std::to_string(n) + ", matrix " + std::to_string(b) + " mod " + std::to_string(moduli[b].n);
            const limb_t expected_det = limb_t((unsigned __int128)start[b] * nmod_mat_det(&a[b]) % moduli[b].n);
            EXPECT_EQ(dets[b], expected_det) << what;
            nmod_mat_t inverse;
            nmod_mat_init(inverse, slong(n), slong(n), moduli[b].n);
            if (nmod_mat_inv(inverse, &a[b])) {
                for (slong i = 0; i < slong(n); ++i)
                    for (slong j = 0; j < slong(n); ++j)
                        ASSERT_EQ(got[b * n * n + std::size_t(i) * n + std::size_t(j)], nmod_mat_entry(inverse, i, j))
                            << what << ", entry " << i << ", " << j;
            }
            nmod_mat_clear(inverse);
            nmod_mat_clear(&a[b]);
        }
    }

    flint_rand_t state_;
};

TEST_F(InverseMod, RandomMatricesOfEverySize)
{
    for (std::size_t n = 1; n <= kernels::kSmallInverse; ++n) check(n, [&](nmod_mat_t m, std::size_t) { nmod_mat_randtest(m, state_); });
}

TEST_F(InverseMod, PivotsFromLaterRows)
{
    for (const std::size_t n : {2, 5, 17, 31, 32}) {
        // A random permutation of a random invertible lower triangle: every column's pivot lies
        // below some zero, in a different row each time.
        check(n, [&](nmod_mat_t m, std::size_t) {
            nmod_mat_t lower;
            nmod_mat_init(lower, m->r, m->c, m->mod.n);
            for (slong i = 0; i < m->r; ++i)
                for (slong j = 0; j <= i; ++j) nmod_mat_entry(lower, i, j) = j == i ? 1 + n_randint(state_, m->mod.n - 1) : n_randint(state_, m->mod.n);
            std::vector<slong> order(std::size_t(m->r));
            for (slong i = 0; i < m->r; ++i) order[std::size_t(i)] = i;
            for (slong i = m->r - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[n_randint(state_, ulong(i + 1))]);
            for (slong i = 0; i < m->r; ++i)
                for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = nmod_mat_entry(lower, order[std::size_t(i)], j);
            nmod_mat_clear(lower);
        });
        // The anti-diagonal and below it: the last row holds the first pivot.
        check(n, [&](nmod_mat_t m, std::size_t) {
            for (slong i = 0; i < m->r; ++i)
                for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = i + j >= m->r - 1 ? 1 + n_randint(state_, m->mod.n - 1) : 0;
        });
    }
}

TEST_F(InverseMod, SingularMatricesAndEveryEntryPMinusOne)
{
    for (const std::size_t n : {1, 2, 16, 32}) {
        // Two equal rows, or a zero column (half the batch each).
        check(n, [&](nmod_mat_t m, std::size_t b) {
            nmod_mat_randtest(m, state_);
            for (slong k = 0; k < m->r; ++k) {
                if (b % 2) nmod_mat_entry(m, k, m->c / 2) = 0;
                else if (m->r > 1) nmod_mat_entry(m, m->r - 1, k) = nmod_mat_entry(m, 0, k);
            }
        });
        // p - 1 everywhere (singular from 2 rows), and p - 1 on the diagonal only.
        check(n, [&](nmod_mat_t m, std::size_t b) {
            for (slong i = 0; i < m->r; ++i)
                for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = b % 2 || i == j ? m->mod.n - 1 : 0;
        });
    }
}

}  // namespace
}  // namespace zgpu::testing
