// Progress lines of long calls: none unless asked for or for short work, a line at the start, at
// each tenth (with the time left) and at the end otherwise; a total set once the work started;
// the C switch overrides ZGPU_PROGRESS.
#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "plugin/host_ops/progress.hpp"
#include "zgpu/zgpu.h"

namespace zgpu {
namespace {

std::size_t lines(const std::string& text) { return std::size_t(std::count(text.begin(), text.end(), '\n')); }

// The stderr of `body` with progress switched as given.
template <class Body>
std::string stderr_of(int on, const Body& body)
{
    zgpu_set_progress(on);
    ::testing::internal::CaptureStderr();
    body();
    std::string text = ::testing::internal::GetCapturedStderr();
    zgpu_set_progress(0);  // no lines in later tests
    unsetenv("ZGPU_PROGRESS");
    return text;
}

TEST(Progress, ALineAtTheStartEachTenthAndTheEnd)
{
    const std::string text = stderr_of(1, [] {
        Progress progress("a long product", 2.5, 20);
        for (int i = 0; i < 20; ++i) progress.advance(1);
        progress.ran_on(Backend::gpu);
    });
    EXPECT_EQ(lines(text), 11u) << text;
    EXPECT_NE(text.find("zgpu: a long product: started (FLINT on one thread: about 2.5 s)"), std::string::npos) << text;
    EXPECT_NE(text.find("50 % (10 of 20), about "), std::string::npos) << text;
    EXPECT_NE(text.find(" s left"), std::string::npos) << text;
    EXPECT_NE(text.find("done on the gpu"), std::string::npos) << text;
}

TEST(Progress, ATotalKnownOnlyOnceStarted)
{
    const std::string text = stderr_of(1, [] {
        Progress progress("a resultant", 4, 0);
        progress.set_total(4);
        progress.advance(2);
        progress.advance(2);
        progress.ran_on(Backend::gpu);
    });
    EXPECT_EQ(lines(text), 3u) << text;
    EXPECT_NE(text.find("50 % (2 of 4)"), std::string::npos) << text;
}

TEST(Progress, NoLinesForShortWorkOrWhenNotAsked)
{
    EXPECT_EQ(stderr_of(1, [] { Progress("short", 0.5, 10).advance(10); }), "");
    EXPECT_EQ(stderr_of(0, [] { Progress("long", 5, 10).advance(10); }), "");
}

TEST(Progress, AnErrorEndsItsLines)
{
    const std::string text = stderr_of(1, [] { Progress("interrupted", 3, 0); });
    EXPECT_EQ(lines(text), 2u) << text;
    EXPECT_NE(text.find("stopped by an error"), std::string::npos) << text;
}

TEST(Progress, TheSwitchOverridesTheEnvironment)
{
    setenv("ZGPU_PROGRESS", "1", 1);
    EXPECT_EQ(stderr_of(0, [] { Progress("long", 5, 0).ran_on(Backend::cpu); }), "");
    setenv("ZGPU_PROGRESS", "1", 1);
    EXPECT_EQ(lines(stderr_of(1, [] { Progress("long", 5, 0).ran_on(Backend::cpu); })), 2u);
}

TEST(Progress, ShortProductsStaySilent)
{
    // A product far below a second: nothing, though progress is asked for.
    nmod_poly_t a, r;
    nmod_poly_init(a, 17);
    nmod_poly_init(r, 17);
    for (slong i = 0; i < 100; ++i) nmod_poly_set_coeff_ui(a, i, ulong(i + 1));
    EXPECT_EQ(stderr_of(1, [&] { ASSERT_EQ(zgpu_nmod_poly_mul(r, a, a), 0) << zgpu_last_error(); }), "");
    nmod_poly_clear(a);
    nmod_poly_clear(r);
}

}  // namespace
}  // namespace zgpu
