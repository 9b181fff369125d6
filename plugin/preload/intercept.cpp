#include "plugin/preload/intercept.hpp"

#include <dlfcn.h>
#include <link.h>
#include <malloc.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include <flint/flint.h>

#include "adapters/flint_headers_check.hpp"
#include "base/settings.hpp"
#include "zgpu/error.hpp"
#include "zgpu/zgpu.h"

static_assert(FLINT_BITS == 64, "the plugin mirrors FLINT's 64-bit ABI");

namespace zgpu::preload {
namespace {

// How many libraries whose file name starts with `prefix` the process has loaded.
int libraries_loaded(const char* prefix)
{
    struct Search {
        const char* prefix;
        int count;
    } search{prefix, 0};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            auto& s = *static_cast<Search*>(data);
            const char* slash = info->dlpi_name ? std::strrchr(info->dlpi_name, '/') : nullptr;
            const char* name = slash ? slash + 1 : info->dlpi_name;
            if (name && std::strncmp(name, s.prefix, std::strlen(s.prefix)) == 0) ++s.count;
            return 0;
        },
        &search);
    return search.count;
}

const char* library_name(Library library) { return library == Library::ntl ? "NTL" : "FLINT"; }

// Why the plugin must pass every call on, or empty: the process's FLINT is not the one the
// plugin was built against (FLINT's structures may differ between versions; both plugins hold
// zgpu, which uses them), or the process has a second FLINT or, for the NTL plugin, NTL (a
// program built against another soname: NTL has no version to ask at run time, and its soname
// changes with its ABI).
std::string library_mismatch()
{
    if (std::strcmp(flint_version, FLINT_VERSION) != 0)
        return std::string("built for FLINT ") + FLINT_VERSION + ", but the process runs FLINT " + flint_version;
    if (libraries_loaded("libflint.so") > 1) return "the process has loaded more than one libflint";
    if (plugin_library == Library::ntl && libraries_loaded("libntl.so") > 1) return "the process has loaded more than one libntl";
    return {};
}

Mode read_mode()
{
    if (const std::string why = library_mismatch(); !why.empty()) {
        std::fprintf(stderr, "zgpu plugin: %s; every call goes to %s\n", why.c_str(), library_name(plugin_library));
        return Mode::pass_all;
    }
    try {
        return settings::backend() == "auto" ? Mode::automatic : Mode::forced;
    } catch (const Error& e) {
        // e.what() begins with "zgpu: ".
        std::fprintf(stderr, "zgpu plugin: %s; every call goes to %s\n", e.what() + 6, library_name(plugin_library));
        return Mode::pass_all;
    }
}

// The intercepted functions that have been called, for the report.
class Registry {
public:
    void add(Counts* counts)
    {
        const std::size_t at = size_.fetch_add(1);
        if (at < entries_.size()) entries_[at] = counts;
    }
    template <class Visit>
    void each(Visit visit) const
    {
        const std::size_t n = std::min(size_.load(), entries_.size());
        for (std::size_t i = 0; i < n; ++i) visit(*entries_[i]);
    }

private:
    std::array<Counts*, 64> entries_{};
    std::atomic<std::size_t> size_{0};
};

// Constant-initialised, so that it is there for every Counts and still there at exit.
constinit Registry called_functions;

Registry& registry() { return called_functions; }

thread_local const Counts* current = nullptr;

// Results that zgpu unpacks into fresh fmpz take their limbs from the malloc arenas of the host
// threads, which glibc trims back to the system whenever more than 128 KiB lie free at their top
// (its default): every call of a long product then faults its pages in again, the threads
// contending for the process's memory map. On the H200 machine a product of 32 641 x 32 386
// coefficients (274 primes) unpacked in 34 to 44 ms so, in 6 to 7 ms with a top pad of 64 MiB
// (each arena grows by it and keeps it at every trim), and in 29 to 31 ms with the trim
// threshold alone at 4 GiB. Where the plugin starts the GPU it pads the arenas, unless the
// environment sets malloc's pad itself.
void pad_the_heap()
{
    std::size_t pad = 0;
    try {
        pad = settings::plugin_heap_pad();
    } catch (const Error& e) {
        std::fprintf(stderr, "zgpu plugin: %s; malloc is left as it is\n", e.what() + 6);  // e.what() begins with "zgpu: "
        return;
    }
    if (pad == 0 || std::getenv("MALLOC_TOP_PAD_")) return;
    if (const char* tunables = std::getenv("GLIBC_TUNABLES"); tunables && std::strstr(tunables, "malloc.top_pad")) return;
    mallopt(M_TOP_PAD, int(pad));
}

// exit() runs the calling thread's thread_local destructors before any handler of atexit
// (glibc's order), among those handlers CUDA's teardown and the destructors of zgpu's device
// state, which a GPU start still running would meet half done: on the H200 machine processes
// that exited 0.1 to 0.6 s into the start printed cudaErrorCudartUnloading or crashed, and one
// with eager module loading hung. A thread that holds this guard waits, as it exits, for the
// start to finish.
void wait_for_warm_start();
struct ExitWaitsForStart {
    ~ExitWaitsForStart() { wait_for_warm_start(); }
};
thread_local ExitWaitsForStart exit_waits_for_start;
void guard_this_thread() { static_cast<void>(&exit_waits_for_start); }

// Whether the process can load NVIDIA's driver library, as the CUDA runtime does first. Where
// it cannot there is no GPU, and the start ends there: the FLINT plugin then never loads zgpu,
// whose load (the CUDA runtime's registration of zgpu's kernels, NTL, the C++ runtime) took 5 to
// 10 ms of FLINT's single test functions on a machine without a GPU. Where it can, the handle
// stays open for the runtime.
bool gpu_driver_loadable() { return dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) != nullptr; }

// The GPU's start (for the FLINT plugin, zgpu's load first; then the driver, a context, streams,
// pinned staging: about 0.4 s on the H200 machine) runs on a thread of its own from the first
// call sent to zgpu on, so that no call waits for it: until it is done calls go to FLINT.
class WarmStart {
public:
    bool asked() const { return asked_.load(std::memory_order_acquire); }
    // False once the start has found no GPU, or failed: no call takes it from then on.
    bool possible() const { return !absent_.load(std::memory_order_acquire); }
    bool ready()
    {
        std::call_once(started_, [this] {
            asked_.store(true, std::memory_order_release);
            guard_this_thread();
            thread_ = std::thread([this] {
                const int started = gpu_driver_loadable() ? zgpu_start_gpu() : 0;
                if (started < 0)
                    std::fprintf(stderr, "zgpu plugin: the GPU did not start (%s); calls go to %s\n", zgpu_last_error(),
                                 library_name(plugin_library));
                if (started > 0) pad_the_heap();
                ready_.store(started > 0, std::memory_order_release);
                absent_.store(started <= 0, std::memory_order_release);
            });
        });
        return ready_.load(std::memory_order_acquire);
    }
    // Returns once a start that was asked for has finished. Guarded threads may exit at once:
    // one joins, the others wait for it.
    void wait()
    {
        if (!asked()) return;
        std::call_once(started_, [] {});  // the thread is made by then
        const std::lock_guard lock(joining_);
        if (thread_.joinable()) thread_.join();
    }
    ~WarmStart() { wait(); }

private:
    std::once_flag started_;
    std::mutex joining_;
    std::thread thread_;
    std::atomic<bool> ready_{false}, asked_{false}, absent_{false};
};

WarmStart warm_start;
void wait_for_warm_start() { warm_start.wait(); }

// The thread that loads the plugin, the one that calls exit in nearly every program, holds it;
// so does the thread whose call asks for the start.
[[maybe_unused]] const bool loading_thread_guarded = (guard_this_thread(), true);

// ZGPU_REPORT=1: a line a function called, at exit.
struct ReportAtExit {
    ~ReportAtExit()
    {
        if (!report_on()) return;
        bool any = false;
        registry().each([&](const Counts& c) { any = any || c.calls() > 0; });
        if (!any) return;  // a process that called none (a shell a program starts, say)
        std::fprintf(stderr, "zgpu plugin report (%s): function, calls, sent to zgpu, ran on the GPU, seconds in all calls, seconds in GPU calls\n",
                     mode() == Mode::pass_all ? "every call to FLINT" : mode() == Mode::forced ? "ZGPU_BACKEND forced" : "automatic");
        registry().each([](const Counts& c) {
            if (c.calls() == 0) return;
            std::fprintf(stderr, "zgpu plugin: %-26s %10llu %10llu %10llu %12.6f %12.6f\n", c.name(),
                         (unsigned long long)c.calls(), (unsigned long long)c.zgpu_calls(), (unsigned long long)c.gpu_calls(),
                         c.seconds(), c.gpu_seconds());
        });
    }
} report_at_exit;

}  // namespace

Mode mode()
{
    static const Mode read = read_mode();
    return read;
}

bool report_on()
{
    static const bool on = settings::report();
    return on;
}

bool gpu_ready() { return warm_start.ready(); }
bool gpu_possible() { return warm_start.possible(); }
bool gpu_start_asked() { return warm_start.asked(); }

Counts::Counts(const char* name, const char* symbol)
    : name_(name), symbol_(symbol ? symbol : name), excluded_(settings::plugin_excludes(name))
{
    registry().add(this);
}

void* Counts::next_definition()
{
    void* found = next_.load(std::memory_order_acquire);
    if (found) return found;
    found = dlsym(RTLD_NEXT, symbol_);
    if (!found) {
        std::fprintf(stderr, "zgpu plugin: no %s function %s after the plugin (%s)\n", library_name(plugin_library), name_, dlerror());
        std::abort();
    }
    next_.store(found, std::memory_order_release);
    return found;
}

void Counts::record(bool sent_to_zgpu, bool ran_on_gpu, std::chrono::nanoseconds time)
{
    const auto ns = std::uint64_t(time.count());
    calls_.fetch_add(1, std::memory_order_relaxed);
    nanoseconds_.fetch_add(ns, std::memory_order_relaxed);
    if (sent_to_zgpu) zgpu_calls_.fetch_add(1, std::memory_order_relaxed);
    if (!ran_on_gpu) return;
    gpu_calls_.fetch_add(1, std::memory_order_relaxed);
    gpu_nanoseconds_.fetch_add(ns, std::memory_order_relaxed);
}

const Counts* inside() { return current; }
void set_inside(const Counts* counts) { current = counts; }

bool last_call_ran_on_gpu() { return std::strcmp(zgpu_last_backend(), "gpu") == 0; }

void warn_zgpu_failed(const Counts& counts)
{
    static std::mutex mutex;
    static std::array<const Counts*, 64> warned{};
    const std::lock_guard lock(mutex);
    for (const Counts*& w : warned) {
        if (w == &counts) return;
        if (w) continue;
        w = &counts;
        std::fprintf(stderr, "zgpu plugin: %s (%s); %s's function computes it\n", counts.name(), zgpu_last_error(),
                     library_name(plugin_library));
        return;
    }
}

}  // namespace zgpu::preload
