// The devices in use (zgpu/backend.hpp: gpu_devices, set_gpu_devices) and operations on host
// data split over several. A device listed twice has a runtime of its own (streams, staging,
// memory, tables), so the splitting runs on any GPU machine; lists of distinct devices run
// where the machine has several.
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <gmp.h>
#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "devices_in_use.hpp"
#include "flint_fixture.hpp"
#include "flint_random.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_modular.h"
#include "zgpu/zgpu_poly.h"
#ifdef ZGPU_WITH_CUDA
#include <cuda_runtime_api.h>

#include "failing_products.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "pipeline_chunks.hpp"
#endif

namespace zgpu::testing {
namespace {

#ifdef ZGPU_WITH_CUDA
using Outcome = FailingProducts::Outcome;

int device_count()
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Chunks of about 2000 of multiply_failing_at's products while it lives (ZGPU_GPU_MEMORY_LIMIT),
// so that its 100003 products make some 50 chunks and go to every device of a list; cut as
// one device would cut them by default, they make four, which stay on one device.
class SmallChunks {
public:
    SmallChunks() { setenv("ZGPU_GPU_MEMORY_LIMIT", "2097152", 1); }
    ~SmallChunks() { unsetenv("ZGPU_GPU_MEMORY_LIMIT"); }
    SmallChunks(const SmallChunks&) = delete;
    SmallChunks& operator=(const SmallChunks&) = delete;
};

// Lists that split the work: one GPU twice and three times and, where there are several,
// distinct devices in both orders.
std::vector<std::vector<int>> splitting_lists()
{
    std::vector<std::vector<int>> lists = {{0, 0}, {0, 0, 0}};
    if (device_count() >= 2) lists.insert(lists.end(), {{0, 1}, {1, 0}});
    return lists;
}

std::string named(const std::vector<int>& devices)
{
    std::string name = "devices";
    for (const int d : devices) name.append(" ").append(std::to_string(d));
    return name;
}
#endif

TEST(GpuDevices, BadListsAreRefusedAndChangeNothing)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::vector<int> before = gpu_devices();
    ASSERT_FALSE(before.empty());
    for (const std::vector<int>& bad : {std::vector<int>{}, std::vector<int>{-1}, std::vector<int>{0, device_count()}}) {
        EXPECT_THROW(set_gpu_devices(bad), Error) << named(bad);
        EXPECT_EQ(gpu_devices(), before) << named(bad);
    }
#endif
}

// Chunk k runs on the list's entry k mod D, each entry its own runtime, and the results still
// arrive in order and right.
TEST(GpuDevices, ChunksGoRoundTheDevicesInOrder)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 100003;
    for (const std::vector<int>& devices : splitting_lists()) {
        const DevicesInUse use(devices);
        const SmallChunks small;
        EXPECT_EQ(gpu_devices(), devices);
        const Outcome outcome = multiply_failing_at(count, -1);
        const std::size_t d = devices.size();
        EXPECT_FALSE(outcome.threw) << outcome.error;
        EXPECT_EQ(outcome.correct, count) << named(devices);
        ASSERT_GE(outcome.runtimes.size(), 2 * d) << named(devices) << ": the test needs two chunks a device";
        for (std::size_t k = 0; k < outcome.runtimes.size(); ++k) {
            EXPECT_EQ(outcome.runtimes[k], outcome.runtimes[k % d]) << named(devices) << ", chunk " << k;
            EXPECT_EQ(outcome.runtimes[k]->device(), devices[k % d]) << named(devices) << ", chunk " << k;
        }
        EXPECT_EQ(std::set<const gpu::Runtime*>(outcome.runtimes.begin(), outcome.runtimes.end()).size(), d)
            << named(devices) << ": a runtime an entry";
        for (std::size_t k = 1; k < outcome.firsts.size(); ++k) EXPECT_GT(outcome.firsts[k], outcome.firsts[k - 1]);
    }
#endif
}

// A call that one device would cut into four chunks stays on the first device of any list.
TEST(GpuDevices, ACallOfFewChunksStaysOnOneDevice)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    for (const std::vector<int>& devices : splitting_lists()) {
        const DevicesInUse use(devices);
        const Outcome outcome = multiply_failing_at(100003, -1);
        EXPECT_EQ(outcome.correct, 100003u) << named(devices);
        ASSERT_EQ(outcome.runtimes.size(), 4u) << named(devices);
        EXPECT_EQ(std::set<const gpu::Runtime*>(outcome.runtimes.begin(), outcome.runtimes.end()).size(), 1u)
            << named(devices);
        EXPECT_EQ(outcome.runtimes[0]->device(), devices[0]) << named(devices);
    }
#endif
}

// A call split over two GPUs leaves the caller's current device as it found it, whichever it
// was. Needs two GPUs.
TEST(GpuDevices, TheCallersDeviceIsKept)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    if (device_count() < 2) GTEST_SKIP() << "needs two GPUs; this machine has one";
    const DevicesInUse use({0, 1});
    const SmallChunks small;
    for (const int callers : {0, 1}) {
        ASSERT_EQ(cudaSetDevice(callers), cudaSuccess);
        const Outcome outcome = multiply_failing_at(100003, -1);
        EXPECT_GE(std::set<const gpu::Runtime*>(outcome.runtimes.begin(), outcome.runtimes.end()).size(), 2u);
        int now = -1;
        ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
        EXPECT_EQ(now, callers);
    }
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
#endif
}

// A failure on any device either throws with nothing given (before the first results: the first
// 2 D chunks are under way before the first is given) or leaves the rest to the host.
TEST(GpuDevices, AFailureOnAnyDeviceWritesNothingOrLeavesTheRestToTheHost)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const std::size_t count = 100003;
    for (const std::vector<int>& devices : splitting_lists()) {
        const DevicesInUse use(devices);
        const SmallChunks small;
        const int d = int(devices.size());
        for (int failing_call = 0; failing_call <= 2 * d + 1; ++failing_call) {
            ::testing::internal::CaptureStderr();
            const Outcome outcome = multiply_failing_at(count, failing_call);
            const std::string warning = ::testing::internal::GetCapturedStderr();
            const std::string context = named(devices) + ", failing call " + std::to_string(failing_call);
            EXPECT_EQ(outcome.threw, failing_call <= 2 * d) << context;
            if (outcome.threw) {
                EXPECT_NE(outcome.error.find("injected failure"), std::string::npos) << outcome.error;
                EXPECT_TRUE(outcome.firsts.empty()) << context;
                EXPECT_FALSE(outcome.finished_from.has_value()) << context;
                continue;
            }
            ASSERT_TRUE(outcome.finished_from.has_value()) << context;
            EXPECT_EQ(outcome.correct, *outcome.finished_from) << context << ": every result given is right";
            EXPECT_EQ(outcome.finished_by, Backend::cpu) << context;
            EXPECT_NE(warning.find("the GPU failed after " + std::to_string(*outcome.finished_from)), std::string::npos)
                << warning;
        }
    }
#endif
}

// FLINT vectors through the public entry points, cut into many chunks by a small device memory
// limit: products (by size groups), divisions with two results a chunk, reduction and CRT with a
// prime set's tables on every device, against FLINT.
class DeviceLists : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state);  // first: TearDown clears it, skipped or not
        ZGPU_SKIP_WITHOUT(Backend::gpu);
        setenv("ZGPU_BACKEND", "gpu", 1);
        setenv("ZGPU_GPU_MEMORY_LIMIT", "262144", 1);
        setenv("ZGPU_TIMING", "1", 1);
    }
    void TearDown() override
    {
        random_clear(state);
        unsetenv("ZGPU_BACKEND");
        unsetenv("ZGPU_GPU_MEMORY_LIMIT");
        unsetenv("ZGPU_TIMING");
    }
    flint_rand_t state;
};

TEST_F(DeviceLists, FlintVectorsMatchOnEveryList)
{
#ifdef ZGPU_WITH_CUDA
    constexpr slong kCount = 3001, kPrimes = 40;  // 3001: prime
    Vec a(kCount), b(kCount), expected(kCount), got(kCount), q(kCount), r(kCount), eq(kCount), er(kCount), back(kCount);
    _fmpz_vec_randtest(a.v, state, kCount, 2000);  // mixed sizes and signs, below P/2 of the 40 primes
    _fmpz_vec_randtest_unsigned(b.v, state, kCount, 300);
    for (slong i = 0; i < kCount; ++i) {
        if (fmpz_is_zero(b.v + i)) fmpz_set_si(b.v + i, -7);
        fmpz_mul(expected.v + i, a.v + i, b.v + i);
        fmpz_fdiv_qr(eq.v + i, er.v + i, a.v + i, b.v + i);
    }
    zgpu_prime_set_t set;
    ASSERT_EQ(zgpu_prime_set_init_ntt_primes(set, kPrimes), 0) << zgpu_last_error();
    std::vector<std::vector<ulong>> words(kPrimes, std::vector<ulong>(kCount));
    std::vector<ulong*> rows;
    for (auto& w : words) rows.push_back(w.data());
    for (const std::vector<int>& devices : splitting_lists()) {
        const DevicesInUse use(devices);
        const std::size_t d = devices.size();
        // call() returns the C entry point's status, checked once stderr is no longer captured.
        const auto check_split = [&](const char* what, auto call) {
            ::testing::internal::CaptureStderr();
            const int status = call();
            const std::string log = ::testing::internal::GetCapturedStderr();
            ASSERT_EQ(status, 0) << named(devices) << ", " << what << ": " << zgpu_last_error();
            EXPECT_EQ(most_after(log, " chunks over "), d) << named(devices) << ", " << what << ": " << log;
            EXPECT_STREQ(zgpu_last_backend(), "gpu") << named(devices) << ", " << what;
        };
        check_split("product", [&] { return zgpu_fmpz_vec_mul(got.v, a.v, b.v, kCount); });
        EXPECT_TRUE(_fmpz_vec_equal(got.v, expected.v, kCount)) << named(devices);
        check_split("fdiv_qr", [&] { return zgpu_fmpz_vec_fdiv_qr(q.v, r.v, a.v, b.v, kCount); });
        EXPECT_TRUE(_fmpz_vec_equal(q.v, eq.v, kCount)) << named(devices);
        EXPECT_TRUE(_fmpz_vec_equal(r.v, er.v, kCount)) << named(devices);
        check_split("reduction", [&] { return zgpu_fmpz_vec_multi_mod_ui(rows.data(), a.v, kCount, set); });
        check_split("CRT", [&] { return zgpu_fmpz_vec_multi_CRT_ui(back.v, rows.data(), kCount, set, 1); });
        EXPECT_TRUE(_fmpz_vec_equal(back.v, a.v, kCount)) << named(devices) << ": the round trip";
    }
    zgpu_prime_set_clear(set);
#endif
}

// Products of polynomials over Z whose transforms are long enough to split their primes: a
// square, an unbalanced product of signed coefficients, and one of two primes only (fewer primes
// than three entries), against FLINT.
TEST_F(DeviceLists, PolynomialProductsOverZMatchOnEveryList)
{
#ifdef ZGPU_WITH_CUDA
    // Whole products, whose primes split: under the fixture's memory limit they would go in
    // pieces too small to split (TearDown unsets it anyway).
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
    struct Case {
        slong a_length, b_length;
        flint_bitcnt_t bits;
        bool square;
        std::size_t primes;  // that the bound needs
    };
    fmpz_poly_t a, b, expected, got;
    fmpz_t top;
    fmpz_init(top);
    for (fmpz_poly_struct* p : {a, b, expected, got}) fmpz_poly_init(p);
    for (const Case c : {Case{1 << 15, 1 << 15, 1024, true, 34}, Case{1 << 15, (1 << 14) + 3, 1000, false, 33},
                         Case{1 << 19, 1 << 19, 30, false, 2}}) {
        // randtest's lengths and sizes are at most those asked for: leading coefficients of
        // exactly c.bits bits set both.
        fmpz_poly_randtest(a, state, c.a_length, c.bits);
        fmpz_poly_randtest(b, state, c.b_length, c.bits);
        fmpz_one(top);
        fmpz_mul_2exp(top, top, c.bits);
        fmpz_sub_ui(top, top, 1);
        fmpz_poly_set_coeff_fmpz(a, c.a_length - 1, top);
        fmpz_neg(top, top);
        fmpz_poly_set_coeff_fmpz(b, c.b_length - 1, top);
        fmpz_poly_mul(expected, a, c.square ? a : b);
        for (const std::vector<int>& devices : splitting_lists()) {
            const DevicesInUse use(devices);
            const std::string context = named(devices) + ", lengths " + std::to_string(c.a_length) + " and " +
                                        std::to_string(c.b_length) + ", " + std::to_string(c.bits) + " bits";
            fmpz_poly_zero(got);
            ::testing::internal::CaptureStderr();
            const int status = c.square ? zgpu_fmpz_poly_sqr(got, a) : zgpu_fmpz_poly_mul(got, a, b);
            const std::string log = ::testing::internal::GetCapturedStderr();
            ASSERT_EQ(status, 0) << zgpu_last_error();
            EXPECT_STREQ(zgpu_last_backend(), "gpu") << context;
            EXPECT_EQ(most_after(log, " primes on "), std::min(devices.size(), c.primes)) << context << ": " << log;
            EXPECT_TRUE(fmpz_poly_equal(got, expected)) << context;
        }
    }
    for (fmpz_poly_struct* p : {a, b, expected, got}) fmpz_poly_clear(p);
    fmpz_clear(top);
#endif
}

// Batched nmod products in several chunks of 16 MiB, which go round the devices: 3500 pairs of
// length 1024 modulo an NTT prime (one transform each) and 2100 of length 1000 modulo
// 2^64 - 59 (three primes and a reduction), against FLINT.
TEST_F(DeviceLists, BatchedNmodProductsMatchOnEveryList)
{
#ifdef ZGPU_WITH_CUDA
    struct Group {
        ulong n;
        slong count, length;
    };
    for (const Group g : {Group{kernels::ntt_primes(1)[0], 3500, 1024}, Group{~ulong(0) - 58, 2100, 1000}}) {
        std::vector<nmod_poly_struct> a(g.count), b(g.count), expected(g.count), got(g.count);
        for (auto* polys : {&a, &b, &expected, &got})
            for (nmod_poly_struct& p : *polys) nmod_poly_init(&p, g.n);
        for (slong i = 0; i < g.count; ++i) {
            nmod_poly_randtest(&a[i], state, g.length);
            nmod_poly_randtest(&b[i], state, g.length);
            nmod_poly_mul(&expected[i], &a[i], &b[i]);
        }
        for (const std::vector<int>& devices : splitting_lists()) {
            const DevicesInUse use(devices);
            const std::string context = named(devices) + ", modulus " + std::to_string(g.n);
            ::testing::internal::CaptureStderr();
            const int status = zgpu_nmod_poly_mul_many(got.data(), a.data(), b.data(), g.count);
            const std::string log = ::testing::internal::GetCapturedStderr();
            ASSERT_EQ(status, 0) << zgpu_last_error();
            EXPECT_STREQ(zgpu_last_backend(), "gpu") << context;
            const std::size_t chunks = most_after(log, " primes, ");
            EXPECT_GE(chunks, 2u) << context << ": " << log;
            EXPECT_EQ(most_after(log, " chunks over "), std::min(devices.size(), chunks)) << context << ": " << log;
            for (slong i = 0; i < g.count; ++i)
                ASSERT_TRUE(nmod_poly_equal(&got[i], &expected[i])) << context << ", pair " << i;
            for (nmod_poly_struct& p : got) nmod_poly_zero(&p);
        }
        for (auto* polys : {&a, &b, &expected, &got})
            for (nmod_poly_struct& p : *polys) nmod_poly_clear(&p);
    }
#endif
}

// Device-resident data stays on the device it was made on: after the first device changes,
// operations on it fail with an error naming both devices, and work again once it is back.
// Needs two GPUs; a list that keeps the first device changes nothing.
TEST(GpuDevices, DeviceResidentDataStaysOnItsDevice)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    const DevicesInUse on_zero({0});
    LimbBatch host(5, 4);
    for (std::size_t i = 0; i < 5; ++i) {
        host.view().element(i)[0] = i + 1;
        host.view().sizes[i] = i % 2 ? 1 : -1;
    }
    const DeviceBatch a = DeviceBatch::upload(host.view(), Backend::gpu);
    const PrimeSet set = PrimeSet::generated(3);
    const ulong column[3] = {1, 2, 3};
    const ulong* rows[3] = {column, column, column};
    const ResidueBatch residues = ResidueBatch::upload(set, rows, 3, Backend::gpu);
    {
        const DevicesInUse twice({0, 0});
        DeviceBatch sum(Backend::gpu, 5, 4);
        add(sum, a, a);
        EXPECT_EQ(sum.download().view().element(4)[0], 10u);
    }
    if (device_count() < 2) GTEST_SKIP() << "moving the first device needs two GPUs; this machine has one";
    {
        const DevicesInUse on_one({1});
        DeviceBatch sum(Backend::gpu, 5, 4);
        try {
            add(sum, a, a);
            ADD_FAILURE() << "an operation on data of device 0 ran on device 1";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("CUDA device 0"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("first device is 1"), std::string::npos) << e.what();
        }
        std::vector<ulong> out(3);
        ulong* out_rows[3] = {out.data(), out.data(), out.data()};
        EXPECT_THROW(residues.download(out_rows), Error);
    }
    DeviceBatch sum(Backend::gpu, 5, 4);
    add(sum, a, a);
    EXPECT_EQ(sum.download().view().element(2)[0], 6u);
#endif
}

}  // namespace
}  // namespace zgpu::testing
