// base/settings against the environment: each setting's default where unset or empty, its
// values, and a bad value's error, which names the variable and the value.
#include "base/settings.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

// Sets a variable for one test and puts back what was there.
class Environment : public ::testing::Test {
protected:
    void set(const char* name, const char* value)
    {
        if (!saved_.count(name)) {
            const char* old = std::getenv(name);
            saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
        }
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    void TearDown() override
    {
        for (const auto& [name, value] : saved_)
            if (value) setenv(name.c_str(), value->c_str(), 1);
            else unsetenv(name.c_str());
    }

    // The error a call throws, without its "zgpu: ", or "" where it throws none.
    template <class Call>
    static std::string error_of(Call call)
    {
        try {
            call();
        } catch (const Error& e) {
            return std::string(e.what()).substr(6);
        }
        return "";
    }

private:
    std::map<std::string, std::optional<std::string>> saved_;
};

TEST_F(Environment, ChoicesTakeTheirNamesAndDefaultToAuto)
{
    for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
        set("ZGPU_BACKEND", unset);
        set("ZGPU_MUL_ALGORITHM", unset);
        set("ZGPU_DIV_ALGORITHM", unset);
        set("ZGPU_DET_ALGORITHM", unset);
        EXPECT_EQ(settings::backend(), "auto");
        EXPECT_EQ(settings::mul_algorithm(), "auto");
        EXPECT_EQ(settings::div_algorithm(), "auto");
        EXPECT_EQ(settings::det_algorithm(), "auto");
    }
    for (const char* name : {"auto", "cpu", "gpu"}) {
        set("ZGPU_BACKEND", name);
        EXPECT_EQ(settings::backend(), name);
    }
    for (const char* name : {"classical", "tensor", "ntt"}) {
        set("ZGPU_MUL_ALGORITHM", name);
        EXPECT_EQ(settings::mul_algorithm(), name);
    }
    for (const char* name : {"hensel", "block", "newton"}) {
        set("ZGPU_DIV_ALGORITHM", name);
        EXPECT_EQ(settings::div_algorithm(), name);
    }
    for (const char* name : {"primes", "divisor"}) {
        set("ZGPU_DET_ALGORITHM", name);
        EXPECT_EQ(settings::det_algorithm(), name);
    }
    set("ZGPU_BACKEND", "GPU");
    EXPECT_EQ(error_of([] { settings::backend(); }), "ZGPU_BACKEND='GPU' is not one of auto, cpu, gpu");
    set("ZGPU_MUL_ALGORITHM", "fft");
    EXPECT_EQ(error_of([] { settings::mul_algorithm(); }), "ZGPU_MUL_ALGORITHM='fft' is not one of auto, classical, tensor, ntt");
    set("ZGPU_DIV_ALGORITHM", "ntt");
    EXPECT_EQ(error_of([] { settings::div_algorithm(); }), "ZGPU_DIV_ALGORITHM='ntt' is not one of auto, hensel, block, newton");
    set("ZGPU_DET_ALGORITHM", "dixon");
    EXPECT_EQ(error_of([] { settings::det_algorithm(); }), "ZGPU_DET_ALGORITHM='dixon' is not one of auto, primes, divisor");
}

TEST_F(Environment, NumbersArePositiveDecimals)
{
    set("ZGPU_GPU_MEMORY_LIMIT", nullptr);
    EXPECT_EQ(settings::gpu_memory_limit(), SIZE_MAX);
    set("ZGPU_GPU_MEMORY_LIMIT", "1048576");
    EXPECT_EQ(settings::gpu_memory_limit(), 1048576u);
    set("ZGPU_GPU_MEMORY_LIMIT", "18446744073709551615");
    EXPECT_EQ(settings::gpu_memory_limit(), SIZE_MAX);
    for (const char* bad : {"0", "-1", "1e9", "12 ", "18446744073709551616", "99999999999999999999999"}) {
        set("ZGPU_GPU_MEMORY_LIMIT", bad);
        EXPECT_EQ(error_of([] { settings::gpu_memory_limit(); }),
                  "ZGPU_GPU_MEMORY_LIMIT='" + std::string(bad) + "': expected a positive number of bytes");
    }
    set("ZGPU_THREADS", "");
    EXPECT_EQ(settings::threads(), 0u);
    set("ZGPU_THREADS", "3");
    EXPECT_EQ(settings::threads(), 3u);
    for (const char* bad : {"0", "four", "-2", "65537"}) {
        set("ZGPU_THREADS", bad);
        EXPECT_EQ(error_of([] { settings::threads(); }), "ZGPU_THREADS='" + std::string(bad) + "': expected a positive number of threads");
    }
}

TEST_F(Environment, DevicesAreAListOrOne)
{
    set("ZGPU_DEVICES", nullptr);
    set("ZGPU_DEVICE", nullptr);
    EXPECT_TRUE(settings::devices().empty());
    set("ZGPU_DEVICE", "0");
    EXPECT_EQ(settings::devices(), std::vector<int>{0});
    set("ZGPU_DEVICES", "1,0,3");
    EXPECT_EQ(settings::devices(), (std::vector<int>{1, 0, 3}));  // the list wins over one
    for (const char* bad : {"1,", ",1", "1,,2", "a", "-1", "1048577"}) {
        set("ZGPU_DEVICES", bad);
        EXPECT_EQ(error_of([] { settings::devices(); }), "ZGPU_DEVICES='" + std::string(bad) + "': expected device numbers split by commas");
    }
    set("ZGPU_DEVICES", "");
    set("ZGPU_DEVICE", "0,1");
    EXPECT_EQ(error_of([] { settings::devices(); }), "ZGPU_DEVICE='0,1': expected one device number (ZGPU_DEVICES takes a list)");
}

TEST_F(Environment, SwitchesAreOnUnlessEmptyOrZero)
{
    for (const auto& [value, on] : {std::pair<const char*, bool>{nullptr, false}, {"", false}, {"0", false}, {"1", true}, {"yes", true}}) {
        set("ZGPU_TIMING", value);
        set("ZGPU_PROGRESS", value);
        set("ZGPU_REPORT", value);
        EXPECT_EQ(settings::timing(), on) << (value ? value : "unset");
        EXPECT_EQ(settings::progress(), on);
        EXPECT_EQ(settings::report(), on);
    }
}

TEST_F(Environment, PluginHeapPadIsBytesFromZero)
{
    set("ZGPU_PLUGIN_HEAP_PAD", nullptr);
    EXPECT_EQ(settings::plugin_heap_pad(), std::size_t(64) << 20);
    set("ZGPU_PLUGIN_HEAP_PAD", "0");
    EXPECT_EQ(settings::plugin_heap_pad(), 0u);
    set("ZGPU_PLUGIN_HEAP_PAD", "1073741824");
    EXPECT_EQ(settings::plugin_heap_pad(), std::size_t(1) << 30);
    for (const char* bad : {"1073741825", "-1", "64M"}) {
        set("ZGPU_PLUGIN_HEAP_PAD", bad);
        EXPECT_EQ(error_of([] { settings::plugin_heap_pad(); }),
                  "ZGPU_PLUGIN_HEAP_PAD='" + std::string(bad) + "': expected a number of bytes from 0 to 2^30");
    }
    set("ZGPU_PLUGIN_HEAP_PAD", nullptr);
}

TEST_F(Environment, PluginExclusionsAreWholeNames)
{
    set("ZGPU_PLUGIN_EXCLUDE", "_fmpz_poly_mul,nmod_mat_det");
    EXPECT_TRUE(settings::plugin_excludes("_fmpz_poly_mul"));
    EXPECT_TRUE(settings::plugin_excludes("nmod_mat_det"));
    EXPECT_FALSE(settings::plugin_excludes("_fmpz_poly_mullow"));
    EXPECT_FALSE(settings::plugin_excludes("fmpz_poly_mul"));
    set("ZGPU_PLUGIN_EXCLUDE", nullptr);
    EXPECT_FALSE(settings::plugin_excludes("_fmpz_poly_mul"));
}

TEST_F(Environment, MpiTestRanksAreARankOrNone)
{
    const struct {
        const char* variable;
        long (*read)();
    } hooks[] = {{"ZGPU_MPI_TEST_FAIL_RANK", settings::mpi_test_fail_rank}, {"ZGPU_MPI_TEST_HANG_RANK", settings::mpi_test_hang_rank}};
    for (const auto& hook : hooks) {
        set(hook.variable, nullptr);
        EXPECT_EQ(hook.read(), -1);
        set(hook.variable, "0");
        EXPECT_EQ(hook.read(), 0);
        set(hook.variable, "3");
        EXPECT_EQ(hook.read(), 3);
        for (const char* bad : {"-1", "one"}) {
            set(hook.variable, bad);
            EXPECT_EQ(error_of([&] { hook.read(); }), std::string(hook.variable) + "='" + bad + "': expected a rank number");
        }
        set(hook.variable, nullptr);
    }
}

TEST_F(Environment, MpiTimeoutIsAPositiveNumberOfSeconds)
{
    set("ZGPU_MPI_TIMEOUT", nullptr);
    EXPECT_EQ(settings::mpi_timeout(), 600.0);
    set("ZGPU_MPI_TIMEOUT", "2");
    EXPECT_EQ(settings::mpi_timeout(), 2.0);
    for (const char* bad : {"0", "-5", "1.5"}) {
        set("ZGPU_MPI_TIMEOUT", bad);
        EXPECT_EQ(error_of([] { settings::mpi_timeout(); }),
                  "ZGPU_MPI_TIMEOUT='" + std::string(bad) + "': expected a positive number of seconds");
    }
    set("ZGPU_MPI_TIMEOUT", nullptr);
}

TEST(Settings, TheTableNamesEveryVariableOnce)
{
    std::set<std::string_view> names;
    for (const settings::Setting& s : settings::all()) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name;
        EXPECT_EQ(s.name.substr(0, 5), "ZGPU_");
        EXPECT_FALSE(s.default_value.empty() || s.meaning.empty()) << s.name;
    }
    EXPECT_EQ(names.size(), 16u);
}

}  // namespace
}  // namespace zgpu::testing
