#include "base/settings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::settings {
namespace {

constexpr Setting kSettings[] = {
    {"ZGPU_BACKEND", "auto", "cpu, gpu or auto: where every call runs; auto chooses a call at a time"},
    {"ZGPU_DEVICES", "every device", "the GPUs calls spread over, as numbers split by commas"},
    {"ZGPU_DEVICE", "every device", "one GPU; ZGPU_DEVICES, where set, wins"},
    {"ZGPU_GPU_MEMORY_LIMIT", "what the GPU has free", "the bytes of device memory a call may plan for"},
    {"ZGPU_THREADS", "the cores the process may run on (its CPU affinity)", "the host threads of conversions and of the CPU backend (read once a process)"},
    {"ZGPU_MUL_ALGORITHM", "auto", "classical, tensor, ntt or auto: the GPU's integer products (for tests and benchmarks)"},
    {"ZGPU_DIV_ALGORITHM", "auto", "hensel, block, newton or auto: the GPU's exact divisions (for tests and benchmarks)"},
    {"ZGPU_DET_ALGORITHM", "auto", "primes, divisor or auto: whether the GPU's determinants over Z find a divisor by p-adic lifting first (for tests and benchmarks)"},
    {"ZGPU_TIMING", "off", "1: a line on stderr for each GPU call, with the time of its phases"},
    {"ZGPU_PROGRESS", "off", "1: progress lines on stderr for calls that run for seconds"},
    {"ZGPU_REPORT", "off", "1: the plugin prints a line a function at exit: calls, calls on the GPU, seconds (read once a process)"},
    {"ZGPU_PLUGIN_HEAP_PAD", "67108864", "bytes each malloc arena grows by and keeps once the plugin uses the GPU (M_TOP_PAD); 0 leaves malloc as it is (read once a process)"},
    {"ZGPU_PLUGIN_EXCLUDE", "none", "FLINT or NTL function names, split by commas, that the plugin leaves to FLINT or NTL (read once a process)"},
    {"ZGPU_MPI_TIMEOUT", "600", "seconds a rank of the MPI layer waits for the others beyond twice its own part's time before it ends the job"},
    {"ZGPU_MPI_TEST_FAIL_RANK", "none", "a rank of the MPI layer's calls whose part fails on purpose (for tests)"},
    {"ZGPU_MPI_TEST_HANG_RANK", "none", "a rank of the MPI layer's calls whose part never ends (for tests)"},
};

std::string_view value_of(const char* variable)
{
    const char* value = std::getenv(variable);
    return value ? value : "";
}

// The value of `variable` among `names`; the first where it is unset or empty.
std::string_view choice(const char* variable, std::initializer_list<std::string_view> names)
{
    const std::string_view value = value_of(variable);
    if (value.empty()) return *names.begin();
    std::string list;
    for (const std::string_view name : names) {
        if (value == name) return name;
        list += (list.empty() ? "" : ", ") + std::string(name);
    }
    throw Error(std::string(variable) + "='" + std::string(value) + "' is not one of " + list);
}

// A number of decimal digits alone (strtoull would take "-1" as the largest number), at most
// `limit`; none otherwise.
std::optional<std::uint64_t> decimal(std::string_view text, std::uint64_t limit)
{
    if (text.empty()) return std::nullopt;
    std::uint64_t n = 0;
    for (const char c : text) {
        const std::uint64_t digit = std::uint64_t(c - '0');
        if (!std::isdigit(static_cast<unsigned char>(c)) || n > (limit - digit) / 10) return std::nullopt;
        n = 10 * n + digit;
    }
    return n;
}

// The positive number of at most `limit` that `variable` holds; 0 where unset or empty.
std::uint64_t positive_number(const char* variable, std::uint64_t limit, const char* what)
{
    const std::string_view value = value_of(variable);
    if (value.empty()) return 0;
    const std::optional<std::uint64_t> n = decimal(value, limit);
    if (!n || *n == 0) throw Error(std::string(variable) + "='" + std::string(value) + "': expected " + what);
    return *n;
}

// A rank number from `variable`, -1 where unset or empty.
long rank_from(const char* variable)
{
    const std::string_view value = value_of(variable);
    if (value.empty()) return -1;
    const std::optional<std::uint64_t> rank = decimal(value, 1 << 30);
    if (!rank) throw Error(std::string(variable) + "='" + std::string(value) + "': expected a rank number");
    return long(*rank);
}

bool switched_on(const char* variable)
{
    const std::string_view value = value_of(variable);
    return !value.empty() && value != "0";
}

}  // namespace

std::span<const Setting> all() { return kSettings; }

std::string_view backend() { return choice("ZGPU_BACKEND", {"auto", "cpu", "gpu"}); }

std::string_view mul_algorithm() { return choice("ZGPU_MUL_ALGORITHM", {"auto", "classical", "tensor", "ntt"}); }

std::string_view div_algorithm() { return choice("ZGPU_DIV_ALGORITHM", {"auto", "hensel", "block", "newton"}); }

std::string_view det_algorithm() { return choice("ZGPU_DET_ALGORITHM", {"auto", "primes", "divisor"}); }

std::vector<int> devices()
{
    const bool listed = !value_of("ZGPU_DEVICES").empty();
    const char* variable = listed ? "ZGPU_DEVICES" : "ZGPU_DEVICE";
    const std::string_view text = value_of(variable);
    std::vector<int> devices;
    for (std::size_t at = 0; !text.empty() && at <= text.size();) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::optional<std::uint64_t> device = decimal(text.substr(at, comma - at), 1 << 20);
        if (!device) throw Error(std::string(variable) + "='" + std::string(text) + "': expected device numbers split by commas");
        devices.push_back(int(*device));
        at = comma + 1;
    }
    if (!listed && devices.size() > 1)
        throw Error("ZGPU_DEVICE='" + std::string(text) + "': expected one device number (ZGPU_DEVICES takes a list)");
    return devices;
}

std::size_t gpu_memory_limit()
{
    const std::uint64_t bytes = positive_number("ZGPU_GPU_MEMORY_LIMIT", SIZE_MAX, "a positive number of bytes");
    return bytes ? std::size_t(bytes) : SIZE_MAX;
}

unsigned threads() { return unsigned(positive_number("ZGPU_THREADS", 1 << 16, "a positive number of threads")); }

std::size_t plugin_heap_pad()
{
    constexpr std::uint64_t kLimit = std::uint64_t(1) << 30;
    const std::string_view value = value_of("ZGPU_PLUGIN_HEAP_PAD");
    if (value.empty()) return std::size_t(64) << 20;
    const std::optional<std::uint64_t> bytes = decimal(value, kLimit);
    if (!bytes) throw Error("ZGPU_PLUGIN_HEAP_PAD='" + std::string(value) + "': expected a number of bytes from 0 to 2^30");
    return std::size_t(*bytes);
}

long mpi_test_fail_rank() { return rank_from("ZGPU_MPI_TEST_FAIL_RANK"); }
long mpi_test_hang_rank() { return rank_from("ZGPU_MPI_TEST_HANG_RANK"); }

double mpi_timeout()
{
    const std::uint64_t seconds = positive_number("ZGPU_MPI_TIMEOUT", std::uint64_t(1) << 31, "a positive number of seconds");
    return seconds ? double(seconds) : 600.0;
}

bool plugin_excludes(std::string_view function)
{
    std::string_view rest = value_of("ZGPU_PLUGIN_EXCLUDE");
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        if (rest.substr(0, comma) == function) return true;
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    return false;
}

bool timing() { return switched_on("ZGPU_TIMING"); }
bool progress() { return switched_on("ZGPU_PROGRESS"); }
bool report() { return switched_on("ZGPU_REPORT"); }

}  // namespace zgpu::settings
