// Inverses and determinants modulo primes by block recursion (plugin/gpu/matrix/block_inverse.hpp)
// against FLINT's nmod_mat_inv and nmod_mat_det: batches modulo different primes, sizes on both
// sides of the small blocks (32, 33) and odd splits; singular matrices; a leading block that is
// singular (the plain recursion gives 0, the preconditioned one the inverse).
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "flint_random.hpp"
#include "kernels/common/cuda_check.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::testing {
namespace {

// A batch of n x n matrices, one a prime, on the device, with the primes' constants.
class Batch {
public:
    Batch(std::size_t n, std::vector<limb_t> primes) : n_(n), primes_(std::move(primes))
    {
        const std::size_t k = primes_.size();
        std::vector<kernels::Modulus> moduli;
        for (const limb_t p : primes_) moduli.push_back(kernels::make_modulus(p));
        kernels::check(cudaMalloc(reinterpret_cast<void**>(&m_), k * n * n * sizeof(limb_t)), "cudaMalloc");
        kernels::check(cudaMalloc(reinterpret_cast<void**>(&out_), k * n * n * sizeof(limb_t)), "cudaMalloc");
        kernels::check(cudaMalloc(reinterpret_cast<void**>(&det_), k * sizeof(limb_t)), "cudaMalloc");
        kernels::check(cudaMalloc(reinterpret_cast<void**>(&moduli_), k * sizeof(kernels::Modulus)), "cudaMalloc");
        kernels::check(cudaMemcpy(moduli_, moduli.data(), k * sizeof(kernels::Modulus), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    ~Batch()
    {
        for (void* p : {static_cast<void*>(m_), static_cast<void*>(out_), static_cast<void*>(det_), static_cast<void*>(moduli_)})
            cudaFree(p);
    }

    void set(std::size_t b, const nmod_mat_t a)
    {
        std::vector<limb_t> rows(n_ * n_);
        for (std::size_t i = 0; i < n_; ++i)
            for (std::size_t j = 0; j < n_; ++j) rows[i * n_ + j] = nmod_mat_entry(a, slong(i), slong(j));
        kernels::check(cudaMemcpy(m_ + b * n_ * n_, rows.data(), rows.size() * sizeof(limb_t), cudaMemcpyHostToDevice), "cudaMemcpy");
    }

    // The determinants; the inverses into `inverses` (one nmod_mat a prime).
    std::vector<limb_t> invert(bool preconditioned, std::vector<nmod_mat_struct>& inverses)
    {
        const std::size_t k = primes_.size();
        gpu::Runtime& runtime = gpu::Runtime::get();
        const gpu::Runtime::Lease lease(runtime);
        const kernels::ConstMatricesView m{m_, n_, n_, n_, n_ * n_, k};
        const kernels::MatricesView out{out_, n_, n_, n_, n_ * n_, k};
        const unsigned bits = gpu::modulus_bits(primes_);
        if (preconditioned) gpu::invert_by_blocks_preconditioned(runtime, m, out, moduli_, bits, det_);
        else gpu::invert_by_blocks(runtime, m, out, moduli_, bits, det_);
        runtime.synchronize("test inverses");
        std::vector<limb_t> det(k), all(k * n_ * n_);
        kernels::check(cudaMemcpy(det.data(), det_, k * sizeof(limb_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
        kernels::check(cudaMemcpy(all.data(), out_, all.size() * sizeof(limb_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
        for (std::size_t b = 0; b < k; ++b)
            for (std::size_t i = 0; i < n_; ++i)
                for (std::size_t j = 0; j < n_; ++j) nmod_mat_entry(&inverses[b], slong(i), slong(j)) = all[(b * n_ + i) * n_ + j];
        return det;
    }

private:
    std::size_t n_;
    std::vector<limb_t> primes_;
    limb_t *m_ = nullptr, *out_ = nullptr, *det_ = nullptr;
    kernels::Modulus* moduli_ = nullptr;
};

class BlockInverse : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state_);
        ZGPU_SKIP_WITHOUT(Backend::gpu);
    }
    void TearDown() override { random_clear(state_); }

    // Inverts the matrices (one a prime, made by `fill`) and checks them against FLINT: where the
    // recursion gives a determinant other than 0, it and the inverse must be FLINT's; where FLINT
    // finds a matrix singular, the recursion must give 0; modulo a prime above 2^32 an invertible
    // matrix must not give 0 (a random leading block is singular with probability about n / p,
    // which modulo 3 is large).
    void check(std::size_t n, const std::vector<limb_t>& primes, bool preconditioned, const std::function<void(nmod_mat_t)>& fill)
    {
        Batch batch(n, primes);
        std::vector<nmod_mat_struct> a(primes.size()), ours(primes.size()), theirs(primes.size());
        for (std::size_t b = 0; b < primes.size(); ++b) {
            nmod_mat_init(&a[b], slong(n), slong(n), primes[b]);
            nmod_mat_init(&ours[b], slong(n), slong(n), primes[b]);
            nmod_mat_init(&theirs[b], slong(n), slong(n), primes[b]);
            fill(&a[b]);
            batch.set(b, &a[b]);
        }
        const std::vector<limb_t> det = batch.invert(preconditioned, ours);
        for (std::size_t b = 0; b < primes.size(); ++b) {
            const std::string what = "n = " + std::to_string(n) + ", prime " + std::to_string(b);
            const bool invertible = nmod_mat_inv(&theirs[b], &a[b]);
            if (det[b] != 0) {
                EXPECT_EQ(det[b], nmod_mat_det(&a[b])) << what;
                EXPECT_TRUE(invertible && nmod_mat_equal(&ours[b], &theirs[b])) << what;
            } else {
                EXPECT_TRUE(!invertible || primes[b] < (limb_t(1) << 32)) << what;
            }
            nmod_mat_clear(&a[b]);
            nmod_mat_clear(&ours[b]);
            nmod_mat_clear(&theirs[b]);
        }
    }

    void random_entries(nmod_mat_t m)
    {
        for (slong i = 0; i < m->r; ++i)
            for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, i, j) = n_randint(state_, m->mod.n);
    }

    flint_rand_t state_;
};

TEST_F(BlockInverse, RandomMatricesMatchFlint)
{
    const PrimeSet big = PrimeSet::generated(2);
    const std::vector<limb_t> primes = {big.moduli()[0], big.moduli()[1], 65537, 3};
    const std::vector<limb_t> large = {big.moduli()[0], big.moduli()[1]};
    for (const std::size_t n : {1, 2, 31, 32, 33, 64, 100, 257}) {
        check(n, primes, false, [&](nmod_mat_t m) { random_entries(m); });
        // The preconditioners' entries are below 2^61: moduli above it only.
        check(n, large, true, [&](nmod_mat_t m) { random_entries(m); });
    }
}

TEST_F(BlockInverse, SingularMatricesAndSingularLeadingBlocks)
{
    const PrimeSet big = PrimeSet::generated(2);
    const std::vector<limb_t> primes = {big.moduli()[0], big.moduli()[1]};
    const auto anti_identity = [](nmod_mat_t m) {
        nmod_mat_zero(m);
        for (slong i = 0; i < m->r; ++i) nmod_mat_entry(m, i, m->r - 1 - i) = 1;
    };
    // Its leading blocks of 32 and 64 rows are zero: the plain recursion gives 0.
    Batch batch(128, primes);
    std::vector<nmod_mat_struct> a(2), ours(2);
    for (std::size_t b = 0; b < 2; ++b) {
        nmod_mat_init(&a[b], 128, 128, primes[b]);
        nmod_mat_init(&ours[b], 128, 128, primes[b]);
        anti_identity(&a[b]);
        batch.set(b, &a[b]);
    }
    for (const limb_t d : batch.invert(false, ours)) EXPECT_EQ(d, 0u);
    for (std::size_t b = 0; b < 2; ++b) {
        nmod_mat_clear(&a[b]);
        nmod_mat_clear(&ours[b]);
    }
    check(128, primes, true, anti_identity);
    // Two equal rows: 0 either way.
    for (const bool preconditioned : {false, true})
        check(100, primes, preconditioned, [&](nmod_mat_t m) {
            random_entries(m);
            for (slong j = 0; j < m->c; ++j) nmod_mat_entry(m, 70, j) = nmod_mat_entry(m, 3, j);
        });
}

}  // namespace
}  // namespace zgpu::testing
