// The FLINT plugin's frame (plugin/preload/intercept.hpp) on stand-ins: which calls reach zgpu,
// which reach FLINT, the recursion rule and the settings. The settings are read once a process;
// each test runs in a process of its own (gtest_discover_tests), so each sets the environment
// it needs before the first call (a whole-suite run in one process leaves them out).
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <flint/fmpz_vec.h>

#include "plugin/poly/poly_choice.hpp"
#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::preload {

// The frame stands here for the FLINT plugin's.
const Library plugin_library = Library::flint;

namespace {

// What a stand-in call did, in order.
struct Trace {
    std::vector<std::string> steps;
};

// A stand-in of an intercepted function: route() with a worth_it that says `large` and a zgpu
// call that returns `status` after running `inside_zgpu`.
template <class Inside>
void call(Counts& counts, Trace& trace, bool large, int status, Inside inside_zgpu)
{
    route(
        counts,
        [&] {
            trace.steps.push_back(std::string(counts.name()) + ":test");
            return large;
        },
        [&] {
            trace.steps.push_back(std::string(counts.name()) + ":zgpu");
            EXPECT_EQ(inside(), &counts);
            inside_zgpu();
            return status;
        },
        [&] {
            trace.steps.push_back(std::string(counts.name()) + ":flint");
            EXPECT_EQ(inside(), nullptr) << "FLINT's function runs unmarked";
        });
}

void nothing() {}

// The settings a test sets are unset after it, so that tests run after it in the same process
// (a whole-suite run) see the default environment. The plugin's own reading of them stays
// once a process: these tests need a process each.
class PluginIntercept : public ::testing::Test {
protected:
    void TearDown() override
    {
        for (const char* name : {"ZGPU_BACKEND", "ZGPU_REPORT", "ZGPU_PLUGIN_EXCLUDE"}) unsetenv(name);
    }
};

TEST_F(PluginIntercept, ForcedSendsEveryCallToZgpuWithoutTheTest)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    static Counts f("test_f");
    Trace trace;
    call(f, trace, false, 0, nothing);
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:zgpu"}));
    EXPECT_EQ(inside(), nullptr);
}

TEST_F(PluginIntercept, ZgpuCallingTheSameFunctionReachesFlintAndItsInnerCallsReachZgpuAgain)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    static Counts f("test_f"), g("test_g");
    Trace trace;
    // zgpu's CPU path for f calls f (FLINT's), which calls g: g is a fresh call, sent to zgpu,
    // whose own CPU path for g reaches FLINT's g.
    call(f, trace, true, 0, [&] {
        route(
            f, [] { return true; }, [] { return 0; },
            [&] {
                trace.steps.push_back("test_f:flint");
                EXPECT_EQ(inside(), nullptr);
                call(g, trace, true, 0, [&] { call(g, trace, true, 0, nothing); });
                EXPECT_EQ(inside(), nullptr);
            });
        EXPECT_EQ(inside(), &f) << "the mark is back once FLINT's function returns";
    });
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:zgpu", "test_f:flint", "test_g:zgpu", "test_g:flint"}));
}

TEST_F(PluginIntercept, OtherFunctionsZgpuCallsGoToFlintDirectly)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    static Counts f("test_f"), g("test_g");
    Trace trace;
    call(f, trace, true, 0, [&] {
        route(
            g, [] { return true; }, [] { return 0; },
            [&] {
                trace.steps.push_back("test_g:flint");
                EXPECT_EQ(inside(), &f) << "still inside zgpu for f";
            });
    });
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:zgpu", "test_g:flint"}));
}

TEST_F(PluginIntercept, AFailedZgpuCallIsComputedByFlint)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    static Counts f("test_f");
    Trace trace;
    testing::internal::CaptureStderr();
    call(f, trace, true, -1, nothing);
    call(f, trace, true, -1, nothing);
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:zgpu", "test_f:flint", "test_f:zgpu", "test_f:flint"}));
    EXPECT_NE(said.find("test_f"), std::string::npos) << said;
    EXPECT_EQ(said.find("test_f"), said.rfind("test_f")) << "said once: " << said;
}

TEST_F(PluginIntercept, ValuesComeFromZgpuOrFromFlint)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    static Counts f("test_f");
    int computed = 0;
    EXPECT_EQ(route(f, [] { return true; }, [&] { return computed = 7, 0; }, [&] { return computed; }, [] { return 1; }), 7);
    EXPECT_EQ(route(f, [] { return true; }, [] { return -1; }, [] { return 7; }, [] { return 1; }), 1);
}

TEST_F(PluginIntercept, ExcludedFunctionsGoToFlint)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    setenv("ZGPU_PLUGIN_EXCLUDE", "test_a,test_f,test_b", 1);
    static Counts f("test_f"), g("test_g"), prefix("test_");
    Trace trace;
    call(f, trace, true, 0, nothing);
    call(g, trace, true, 0, nothing);
    call(prefix, trace, true, 0, nothing);
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:flint", "test_g:zgpu", "test_:zgpu"}));
}

TEST_F(PluginIntercept, AnUnknownBackendPassesEveryCallToFlint)
{
    setenv("ZGPU_BACKEND", "fast", 1);
    static Counts f("test_f");
    Trace trace;
    testing::internal::CaptureStderr();
    call(f, trace, true, 0, nothing);
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_EQ(mode(), Mode::pass_all);
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:flint"}));
    EXPECT_NE(said.find("ZGPU_BACKEND='fast'"), std::string::npos) << said;
}

TEST_F(PluginIntercept, AutomaticStartsTheGpuOnlyForACallItWouldSend)
{
    unsetenv("ZGPU_BACKEND");
    static Counts f("test_f");
    Trace trace;
    if (gpu_available()) GTEST_SKIP() << "with a GPU its start may end at any moment; this case is for calls before it does";
    call(f, trace, false, 0, nothing);
    EXPECT_EQ(mode(), Mode::automatic);
    EXPECT_FALSE(gpu_start_asked()) << "a call that stays with FLINT leaves the GPU alone";
    call(f, trace, true, 0, nothing);
    EXPECT_TRUE(gpu_start_asked());
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:test", "test_f:flint", "test_f:test", "test_f:flint"}));
}

TEST_F(PluginIntercept, WithoutAGpuCallsSkipTheTestOnceTheStartFoundNone)
{
    unsetenv("ZGPU_BACKEND");
    static Counts f("test_f");
    Trace trace;
    if (gpu_available()) GTEST_SKIP() << "for a machine without a GPU";
    call(f, trace, true, 0, nothing);
    for (int i = 0; i < 500 && gpu_possible(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(gpu_possible());
    call(f, trace, true, 0, nothing);
    EXPECT_EQ(trace.steps, (std::vector<std::string>{"test_f:test", "test_f:flint", "test_f:flint"}));
}

TEST_F(PluginIntercept, ReportCountsCallsAndTime)
{
    setenv("ZGPU_BACKEND", "cpu", 1);
    setenv("ZGPU_REPORT", "1", 1);
    static Counts f("test_f");
    Trace trace;
    call(f, trace, true, 0, nothing);
    call(f, trace, true, -1, nothing);
    EXPECT_EQ(f.calls(), 2u);
    EXPECT_EQ(f.zgpu_calls(), 2u);
    EXPECT_EQ(f.gpu_calls(), 0u);
    EXPECT_GE(f.seconds(), 0.0);
}

TEST_F(PluginIntercept, FindsFlintsOwnDefinition)
{
    static Counts f("fmpz_poly_mul");
    EXPECT_NE(next<void (*)()>(f), nullptr);
}

// Powers: the row goes to the GPU, short ones are left without reading sizes, and
// exponents whose bound leaves a batch, or whose length overflows, stay with FLINT.
TEST(PluginGates, PowersGoToTheGpuWhenLongAndLarge)
{
    EXPECT_TRUE(fmpz_power_long_enough(1024, 64));
    EXPECT_TRUE(fmpz_power_pays(1024, 64, 64)) << "fmpz_poly_pow of 1024 coefficients of 64 bits to the 64";
    EXPECT_FALSE(fmpz_power_long_enough(3, 3));
    EXPECT_FALSE(fmpz_power_long_enough(1, 1000));
    EXPECT_FALSE(fmpz_power_long_enough(1000, 2));
    EXPECT_FALSE(fmpz_power_long_enough(WORD_MAX / 4, 3));
    EXPECT_FALSE(fmpz_power_pays(1000, 1000000, 64)) << "the bound leaves a batch";
    EXPECT_FALSE(fmpz_power_pays(2, 1u << 20, 1u << 20));
}

// Compositions mod f, as FLINT's distinct-degree factoring makes them (16 polynomials at once on
// its threads; blocks of about sqrt(degree) rows): degree 3000 goes to the GPU; degree 2^18,
// whose group of rows would take more than the GPU's batches, is left to FLINT's own function by
// the gate itself, so that FLINT's threaded form answers for it.
TEST(PluginGates, CompositionsModFTheGpuCannotBatchStayWithFlint)
{
    const ulong p = (UWORD(1) << 62) - 57;
    EXPECT_TRUE(nmod_compose_vec_worth_it(3001, 16, p));
    EXPECT_TRUE(nmod_compose_precomp_worth_it(3000, 3001, 55, p));
    EXPECT_FALSE(nmod_compose_vec_worth_it((1 << 18) + 1, 16, p));
    EXPECT_FALSE(nmod_compose_precomp_worth_it(1 << 18, (1 << 18) + 1, 513, p));
}

// Compositions over Z: the row goes to the GPU; FLINT's shortcuts (len1 <= 4, len2 <= 2),
// short results, lengths that overflow and bounds past a batch stay with FLINT.
TEST(PluginGates, CompositionsGoToTheGpuWhenLongAndLarge)
{
    EXPECT_TRUE(fmpz_compose_long_enough(256, 256));
    EXPECT_TRUE(fmpz_compose_pays(256, 256, 64, 64)) << "fmpz_poly_compose of 256 of 256 coefficients of 64 bits";
    EXPECT_FALSE(fmpz_compose_long_enough(4, 1000));
    EXPECT_FALSE(fmpz_compose_long_enough(1000, 2));
    EXPECT_FALSE(fmpz_compose_long_enough(6, 6));
    EXPECT_FALSE(fmpz_compose_long_enough(WORD_MAX / 4, 5));
    EXPECT_TRUE(fmpz_compose_long_enough(4097, 4096)) << "a result just under 2^24 coefficients, the longest transform";
    EXPECT_FALSE(fmpz_compose_long_enough(4097, 4097)) << "2^24 + 1 coefficients";
    EXPECT_FALSE(fmpz_compose_long_enough(5000, 5000)) << "a result beyond the longest transform";
    EXPECT_FALSE(fmpz_compose_pays(5000, 5000, 1000, 1000)) << "the bound leaves a batch";
}

}  // namespace
}  // namespace zgpu::preload

namespace zgpu::preload {
namespace {

// plugin/preload/gates.hpp reads the sizes of products over Z under kReadSizesFrom coefficients
// out only where a sample of their coefficients has kLargeProductBits bits in all; its comment
// says that by the cost model no product with fewer pays on the GPU. Checked here for every
// split of lengths under 256 out, operands' bits split evenly and unevenly, and the thread counts
// of both machines.
TEST(PluginGates, SmallProductsOverZPayOnTheGpuOnlyWithLargeCoefficients)
{
    const std::uint64_t most = kLargeProductBits - 1;
    for (unsigned threads : {1u, 2u, 16u})
        for (std::uint64_t out = 1; out < std::uint64_t(kReadSizesFrom); ++out)
            for (std::uint64_t a_length = (out + 1) / 2; a_length <= out; ++a_length) {
                const std::uint64_t b_length = out + 1 - a_length;
                for (std::uint64_t a_bits : {std::uint64_t(1), std::uint64_t(64), most / 2, most - 64, most - 1}) {
                    const std::uint64_t b_bits = most - a_bits;
                    ASSERT_FALSE(poly::gpu_pays_for_fmpz_poly_product(
                        poly::fmpz_product_shape(a_length, b_length, out, a_bits, b_bits), threads))
                        << a_length << " x " << b_length << ", " << a_bits << " and " << b_bits << " bits, " << threads
                        << " threads";
                }
            }
    EXPECT_TRUE(poly::gpu_pays_for_fmpz_poly_product(poly::fmpz_product_shape(128, 128, 255, 4096, 4096), 16))
        << "large coefficients pay";
    EXPECT_TRUE(poly::gpu_pays_for_fmpz_poly_product(poly::fmpz_product_shape(64, 64, 64, 4096, 4096), 16))
        << "Arb's power series at 4096 bits";
}

// The sample that decides whether a small product's sizes are read: empty operands (FLINT's
// object forms pass them) never, short outputs never, long ones always; between them, a large
// coefficient first, in the middle or last (of the operands' first out), the bits of both
// operands' largest counted together.
TEST(PluginGates, ProductSizesAreReadWhereASampleSaysTheyMayPay)
{
    const slong n = 100;
    fmpz* a = _fmpz_vec_init(2 * n);
    fmpz* b = _fmpz_vec_init(n);
    EXPECT_FALSE(fmpz_sizes_worth_reading(a, 0, b, n, n)) << "an empty operand";
    EXPECT_FALSE(fmpz_sizes_worth_reading(nullptr, 0, nullptr, 0, 300)) << "two empty operands";
    EXPECT_FALSE(fmpz_sizes_worth_reading(a, n, b, n, n)) << "zeros";
    EXPECT_TRUE(fmpz_sizes_worth_reading(a, n, b, n, kReadSizesFrom)) << "long enough to read whatever the sample";
    const auto set_bits = [](fmpz* x, std::uint64_t bits) { fmpz_one_2exp(x, bits - 1); };
    for (const slong at : {slong(0), n / 2, n - 1}) {
        _fmpz_vec_zero(a, 2 * n), _fmpz_vec_zero(b, n);
        set_bits(a + at, kLargeProductBits / 2), set_bits(b + at, kLargeProductBits - kLargeProductBits / 2);
        EXPECT_TRUE(fmpz_sizes_worth_reading(a, n, b, n, n)) << "large coefficients at " << at;
        EXPECT_FALSE(fmpz_sizes_worth_reading(a, n, b, n, kSampleSizesFrom - 1)) << "too few coefficients out";
        fmpz_zero(b + at);
        EXPECT_FALSE(fmpz_sizes_worth_reading(a, n, b, n, n)) << "too few bits in all, at " << at;
    }
    // Only the first out coefficients count: a's coefficient 2n - 1 is past them.
    _fmpz_vec_zero(a, 2 * n), _fmpz_vec_zero(b, n);
    set_bits(a + 2 * n - 1, 4096), set_bits(b, 64);
    EXPECT_FALSE(fmpz_sizes_worth_reading(a, 2 * n, b, n, n));
    set_bits(a + n - 1, 4096);
    EXPECT_TRUE(fmpz_sizes_worth_reading(a, 2 * n, b, n, n));
    _fmpz_vec_clear(a, 2 * n), _fmpz_vec_clear(b, n);
}

// The same for products mod n under kNmodModelFrom coefficients out, truncated ones included
// (operands as long as the output each): none pays on the GPU, for the moduli whose products
// go through one prime, three or five.
// A modulus below 2^62 with every transform length here dividing n - 1, which the model takes to
// be a prime of one transform.
std::uint64_t one_transform_modulus() { return (std::uint64_t(1) << 62) - (std::uint64_t(1) << 32) + 1; }

TEST(PluginGates, SmallProductsModNNeverPayOnTheGpu)
{
    for (unsigned threads : {1u, 2u, 16u})
        for (const std::uint64_t n : {std::uint64_t(3), std::uint64_t(1) << 31, one_transform_modulus(), ~std::uint64_t(0)})
            for (std::uint64_t out = 1; out < std::uint64_t(kNmodModelFrom); out += 7)
                for (std::uint64_t a_length = 1; a_length <= out; a_length += 9)
                    for (std::uint64_t b_length = std::max<std::uint64_t>(1, out + 1 - a_length); b_length <= out; b_length += 11) {
                        const poly::PolyShape shape =
                            poly::nmod_product_shape(a_length, b_length, out, n, poly::transform_length_estimate(a_length, b_length));
                        ASSERT_FALSE(poly::gpu_pays_for_nmod_products({&shape, 1}, threads))
                            << a_length << " x " << b_length << " to " << out << " mod " << n << ", " << threads << " threads";
                    }
}

}  // namespace
}  // namespace zgpu::preload
