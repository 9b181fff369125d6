// zgpu_fmpz_vec_add/sub and zgpu_fmpz_poly_add/sub against FLINT, on each backend.
#include <string>
#include <thread>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "flint_fixture.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/zgpu.h"

namespace zgpu::testing {
namespace {

using VecOp = int (*)(fmpz*, const fmpz*, const fmpz*, slong);
using FlintVecOp = void (*)(fmpz*, const fmpz*, const fmpz*, slong);

class FlintEntryPoints : public OnBackendWithFlint {
protected:
    // Every aliasing FLINT allows: res distinct, res == vec1, res == vec2, all three the same.
    void check_vec(VecOp ours, FlintVecOp theirs, slong n, flint_bitcnt_t bits)
    {
        Vec a(n), b(n), expected(n), res(n), copy(n);
        random_vec(a, bits);
        random_vec(b, bits);
        random_vec(res, bits);  // old contents must be replaced
        const std::string context = std::to_string(n) + " elements of up to " + std::to_string(bits) + " bits";

        theirs(expected.v, a.v, b.v, n);
        ASSERT_EQ(ours(res.v, a.v, b.v, n), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(res.v, expected.v, n)) << context;
        EXPECT_STREQ(zgpu_last_backend(), GetParam() == Backend::gpu ? "gpu" : "cpu");

        _fmpz_vec_set(copy.v, a.v, n);
        ASSERT_EQ(ours(copy.v, copy.v, b.v, n), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(copy.v, expected.v, n)) << context << ", res == vec1";

        _fmpz_vec_set(copy.v, b.v, n);
        ASSERT_EQ(ours(copy.v, a.v, copy.v, n), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(copy.v, expected.v, n)) << context << ", res == vec2";

        theirs(expected.v, a.v, a.v, n);
        _fmpz_vec_set(copy.v, a.v, n);
        ASSERT_EQ(ours(copy.v, copy.v, copy.v, n), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(copy.v, expected.v, n)) << context << ", res == vec1 == vec2";
    }
};

TEST_P(FlintEntryPoints, VecAddSubMatchFlint)
{
    for (const slong n : {slong(0), slong(1), slong(31), slong(33), slong(5000)}) {
        for (const flint_bitcnt_t bits : {flint_bitcnt_t(10), flint_bitcnt_t(62), flint_bitcnt_t(64),
                                          flint_bitcnt_t(200), flint_bitcnt_t(5000)}) {
            check_vec(zgpu_fmpz_vec_add, _fmpz_vec_add, n, bits);
            check_vec(zgpu_fmpz_vec_sub, _fmpz_vec_sub, n, bits);
        }
    }
    check_vec(zgpu_fmpz_vec_add, _fmpz_vec_add, 100003, 300);
    check_vec(zgpu_fmpz_vec_sub, _fmpz_vec_sub, 200003, 1000);  // the GPU path's chunks: results written while later ones are read
    check_vec(zgpu_fmpz_vec_sub, _fmpz_vec_sub, 3, 1 << 20);
}

// The GPU path writes results chunk by chunk while it still reads later coefficients: an output
// that is the shorter input grows (fit_length moves its coefficients) in the middle of that.
TEST_P(FlintEntryPoints, PolyOutputThatGrowsWhileItIsRead)
{
    fmpz_poly_t shorter, longer, expected, res;
    for (fmpz_poly_struct* p : {shorter, longer, expected, res}) fmpz_poly_init(p);
    fmpz_poly_randtest(shorter, state_, 50000, 1000);
    fmpz_poly_randtest(longer, state_, 200000, 1000);
    // res holds room for the shorter's coefficients only (a fresh copy), so it must grow.
    const auto fresh_copy_of_shorter = [&] {
        fmpz_poly_clear(res);
        fmpz_poly_init(res);
        fmpz_poly_set(res, shorter);
        ASSERT_LT(res->alloc, fmpz_poly_length(longer));
    };
    fmpz_poly_sub(expected, shorter, longer);
    fresh_copy_of_shorter();
    ASSERT_EQ(zgpu_fmpz_poly_sub(res, res, longer), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(res, expected)) << "res == poly1, the shorter";
    fmpz_poly_add(expected, longer, shorter);
    fresh_copy_of_shorter();
    ASSERT_EQ(zgpu_fmpz_poly_add(res, longer, res), 0) << zgpu_last_error();
    EXPECT_TRUE(fmpz_poly_equal(res, expected)) << "res == poly2, the shorter";
    for (fmpz_poly_struct* p : {shorter, longer, expected, res}) fmpz_poly_clear(p);
}

TEST_P(FlintEntryPoints, PolyAddSubMatchFlint)
{
    using PolyOp = int (*)(fmpz_poly_t, const fmpz_poly_t, const fmpz_poly_t);
    using FlintPolyOp = void (*)(fmpz_poly_t, const fmpz_poly_t, const fmpz_poly_t);
    const std::pair<PolyOp, FlintPolyOp> ops[] = {{zgpu_fmpz_poly_add, fmpz_poly_add},
                                                  {zgpu_fmpz_poly_sub, fmpz_poly_sub}};
    fmpz_poly_t a, b, expected, res;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    fmpz_poly_init(expected);
    fmpz_poly_init(res);
    for (int trial = 0; trial < 200; ++trial) {
        const slong len_a = n_randint(state_, 300), len_b = n_randint(state_, 300);
        fmpz_poly_randtest(a, state_, len_a, 1 + n_randint(state_, 400));
        if (trial % 3 == 0) fmpz_poly_neg(b, a);  // sums cancel, leading terms included
        else fmpz_poly_randtest(b, state_, len_b, 1 + n_randint(state_, 400));
        if (trial % 3 == 1 && fmpz_poly_length(b) > 0) {
            fmpz_poly_set(b, a);  // differences cancel in the leading terms only
            fmpz_poly_set_coeff_si(b, 0, trial);
        }
        for (const auto& [ours, theirs] : ops) {
            theirs(expected, a, b);
            fmpz_poly_randtest(res, state_, 400, 100);
            ASSERT_EQ(ours(res, a, b), 0) << zgpu_last_error();
            ASSERT_TRUE(fmpz_poly_equal(res, expected)) << "trial " << trial;
            ASSERT_TRUE(fmpz_poly_is_zero(res) || !fmpz_is_zero(fmpz_poly_lead(res))) << "not normalised";

            fmpz_poly_set(res, a);
            ASSERT_EQ(ours(res, res, b), 0) << zgpu_last_error();
            ASSERT_TRUE(fmpz_poly_equal(res, expected)) << "trial " << trial << ", res == poly1";
            fmpz_poly_set(res, b);
            ASSERT_EQ(ours(res, a, res), 0) << zgpu_last_error();
            ASSERT_TRUE(fmpz_poly_equal(res, expected)) << "trial " << trial << ", res == poly2";
        }
    }
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
    fmpz_poly_clear(expected);
    fmpz_poly_clear(res);
}

TEST_P(FlintEntryPoints, BadInputIsReportedAndNothingIsWritten)
{
    Vec a(4), b(4), res(4), before(4);
    random_vec(a, 100);
    random_vec(b, 100);
    random_vec(res, 100);
    _fmpz_vec_set(before.v, res.v, 4);
    const auto expect_error = [&](int status, const char* argument) {
        EXPECT_EQ(status, -1);
        EXPECT_NE(std::string(zgpu_last_error()).find(argument), std::string::npos) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 4)) << "output written on error";
    };
    expect_error(zgpu_fmpz_vec_add(res.v, a.v, b.v, -1), "len is negative");
    expect_error(zgpu_fmpz_vec_add(nullptr, a.v, b.v, 4), "res is NULL");
    expect_error(zgpu_fmpz_vec_sub(res.v, nullptr, b.v, 4), "vec1 is NULL");
    expect_error(zgpu_fmpz_vec_sub(res.v, a.v, nullptr, 4), "vec2 is NULL");
    EXPECT_EQ(zgpu_fmpz_vec_add(nullptr, nullptr, nullptr, 0), 0) << "len 0 needs no arrays, as in FLINT";

    EXPECT_EQ(zgpu_fmpz_poly_add(nullptr, nullptr, nullptr), -1);
    EXPECT_NE(std::string(zgpu_last_error()).find("res is NULL"), std::string::npos) << zgpu_last_error();
}

TEST_P(FlintEntryPoints, ElementsAboveTheBatchLimit)
{
    // Batches hold at most kMaxLimbs limbs an element: the GPU backend refuses larger ones,
    // naming them, with nothing written; the CPU backend adds them as FLINT does.
    Vec a(4), b(4), res(4), before(4), expected(4);
    random_vec(a, 100);
    random_vec(b, 100);
    random_vec(res, 100);
    _fmpz_vec_set(before.v, res.v, 4);
    fmpz_one(b.v + 2);
    fmpz_mul_2exp(b.v + 2, b.v + 2, 64 * (kMaxLimbs + 1));
    _fmpz_vec_add(expected.v, a.v, b.v, 4);

    fmpz_poly_t p, q, p_before;
    fmpz_poly_init(p);
    fmpz_poly_init(q);
    fmpz_poly_init(p_before);
    fmpz_poly_set_coeff_fmpz(q, 1, b.v + 2);
    fmpz_poly_set_coeff_si(p, 3, 5);
    fmpz_poly_set(p_before, p);
    if (GetParam() == Backend::gpu) {
        EXPECT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, 4), -1);
        EXPECT_NE(std::string(zgpu_last_error()).find("vec2[2]"), std::string::npos) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(res.v, before.v, 4)) << "output written on error";
        EXPECT_EQ(zgpu_fmpz_poly_sub(p, p, q), -1);
        EXPECT_NE(std::string(zgpu_last_error()).find("poly2[1]"), std::string::npos) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(p, p_before)) << "output written on error";
    } else {
        ASSERT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, 4), 0) << zgpu_last_error();
        EXPECT_TRUE(_fmpz_vec_equal(res.v, expected.v, 4));
        fmpz_poly_sub(p_before, p_before, q);
        ASSERT_EQ(zgpu_fmpz_poly_sub(p, p, q), 0) << zgpu_last_error();
        EXPECT_TRUE(fmpz_poly_equal(p, p_before));
    }
    fmpz_poly_clear(p);
    fmpz_poly_clear(q);
    fmpz_poly_clear(p_before);
}

TEST_P(FlintEntryPoints, LargestSupportedElements)
{
    // Operands of kMaxLimbs limbs, all ones: the sum has kMaxLimbs + 1 limbs.
    Vec a(2), b(2), res(2), expected(2);
    for (slong i = 0; i < 2; ++i) {
        fmpz_one(a.v + i);
        fmpz_mul_2exp(a.v + i, a.v + i, 64 * kMaxLimbs);
        fmpz_sub_ui(a.v + i, a.v + i, 1);
    }
    fmpz_one(b.v);
    fmpz_neg(b.v + 1, a.v + 1);
    fmpz_add_ui(b.v + 1, b.v + 1, 1);
    _fmpz_vec_add(expected.v, a.v, b.v, 2);
    ASSERT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, 2), 0) << zgpu_last_error();
    EXPECT_TRUE(_fmpz_vec_equal(res.v, expected.v, 2));
}

TEST_P(FlintEntryPoints, ConcurrentCallers)
{
    // Host threads calling at once share the GPU runtime's staging buffers and the thread pool.
    constexpr int kThreads = 4;
    std::vector<int> mismatches(kThreads, -1);
    const auto run_caller = [&](int t) {
        flint_rand_t state;
        random_init(state);
        random_seed(state, 1 + t, 2 + t);
        const slong n = 30000;
        Vec a(n), b(n), ours(n), theirs(n);
        _fmpz_vec_randtest(a.v, state, n, 64 + 200 * t);
        _fmpz_vec_randtest(b.v, state, n, 64 + 200 * t);
        _fmpz_vec_sub(theirs.v, a.v, b.v, n);
        mismatches[t] = 0;
        for (int round = 0; round < 5; ++round) {
            if (zgpu_fmpz_vec_sub(ours.v, a.v, b.v, n) != 0 || !_fmpz_vec_equal(ours.v, theirs.v, n)) ++mismatches[t];
        }
        random_clear(state);
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            run_caller(t);
            flint_cleanup();  // once the vectors are freed: freeing them refills this thread's FLINT cache
        });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(Backends, FlintEntryPoints, ::testing::Values(Backend::cpu, Backend::gpu),
                         backend_param_name);

}  // namespace
}  // namespace zgpu::testing
