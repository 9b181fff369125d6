// The frame of every function the plugins define in FLINT's name (libzgpu_flint.so) or NTL's
// (libzgpu_ntl.so): the next definition of the same name (the library's own) found once, the
// one cheap test that sends a call to zgpu or straight on to the library, and the counts that
// ZGPU_REPORT prints.
//
// Recursion: while a plugin call is inside zgpu, calls that zgpu makes to FLINT reach these
// definitions again. The one to the intercepted function itself is zgpu's CPU path: it goes to
// FLINT's function with the mark cleared, so that the products FLINT makes inside it can reach
// the GPU again (on smaller sizes: FLINT's own call graph). Any other goes to FLINT directly.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <type_traits>

namespace zgpu::preload {

// What the environment asked of the plugin, read once, at the plugin's first call.
enum class Mode { pass_all, automatic, forced };

// How calls reach zgpu: pass_all where the process's FLINT or NTL is not the one built against
// or ZGPU_BACKEND is unusable; forced where ZGPU_BACKEND names a backend (every call to zgpu,
// which runs it there); else automatic (zgpu where its cost model picks the GPU).
Mode mode();
bool report_on();
// In automatic mode: whether the GPU has started. The first call whose test sends it to zgpu
// starts it on a thread of its own and no call waits for it; until then calls go to FLINT. A
// process whose calls all stay with FLINT never starts the GPU: its start takes a host thread
// for about 0.4 s, which FLINT's threads would miss.
bool gpu_ready();
// In automatic mode: false once the GPU's start found no GPU or failed. The cheap tests, some of
// which read the operands' sizes, are then skipped: on a machine without a GPU an exact division
// of 2^15 by 2^14 coefficients (4093 products) spent 0.9 % of its time reading them.
bool gpu_possible();
// Whether a call has asked for the GPU's start.
bool gpu_start_asked();

// The library whose functions a plugin defines: FLINT's (libzgpu_flint.so) or NTL's
// (libzgpu_ntl.so). Each plugin library defines plugin_library once.
enum class Library { flint, ntl };
extern const Library plugin_library;

// One intercepted function: its name, its library's definition and its counts. `symbol` is the
// name the dynamic linker knows it by, where that is not `name` (NTL's, mangled).
class Counts {
public:
    explicit Counts(const char* name, const char* symbol = nullptr);
    const char* name() const { return name_; }
    // Whether ZGPU_PLUGIN_EXCLUDE leaves this function to FLINT.
    bool excluded() const { return excluded_; }
    // The library's definition: the next one of this symbol after the plugin, found on first
    // use. Aborts with a message if there is none, as an unresolved symbol would.
    void* next_definition();

    void record(bool sent_to_zgpu, bool ran_on_gpu, std::chrono::nanoseconds time);
    std::uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }
    std::uint64_t gpu_calls() const { return gpu_calls_.load(std::memory_order_relaxed); }
    std::uint64_t zgpu_calls() const { return zgpu_calls_.load(std::memory_order_relaxed); }
    double seconds() const { return 1e-9 * double(nanoseconds_.load(std::memory_order_relaxed)); }
    double gpu_seconds() const { return 1e-9 * double(gpu_nanoseconds_.load(std::memory_order_relaxed)); }

private:
    const char* name_;
    const char* symbol_;
    bool excluded_;
    std::atomic<void*> next_{nullptr};
    std::atomic<std::uint64_t> calls_{0}, zgpu_calls_{0}, gpu_calls_{0}, nanoseconds_{0}, gpu_nanoseconds_{0};
};
// Function-local statics of the intercepted functions: nothing to destroy at exit, so that the
// report at exit still reads them.
static_assert(std::is_trivially_destructible_v<Counts>);

// The intercepted function that the current thread is inside zgpu for (nullptr: none).
const Counts* inside();
void set_inside(const Counts* counts);

// Whether the zgpu call just made on this thread ran on the GPU.
bool last_call_ran_on_gpu();
// Says on stderr, once a function, that a zgpu call failed (zgpu_last_error) and that its
// library's function computes it instead.
void warn_zgpu_failed(const Counts& counts);

// FLINT's function F of this Counts, typed.
template <class F>
F next(Counts& counts)
{
    return reinterpret_cast<F>(counts.next_definition());
}

// The frame: `worth_it()` is the cheap test (zgpu's cost model on the call's shape), `via_zgpu()`
// makes the zgpu call (0 on success, else nothing written) and `flint()` calls FLINT's function.
// `result()` is what a successful zgpu call returns (for the functions that return a value).
template <class Worth, class ViaZgpu, class Result, class Flint>
auto route(Counts& counts, Worth worth_it, ViaZgpu via_zgpu, Result result, Flint flint) -> decltype(flint())
{
    if (const Counts* in = inside()) {
        if (in != &counts) return flint();
        // zgpu's CPU path for this very call: FLINT's function, whose inner calls may use zgpu.
        set_inside(nullptr);
        struct Restore {
            const Counts* in;
            ~Restore() { set_inside(in); }
        } restore{in};
        return flint();
    }
    const bool to_zgpu = !counts.excluded() && (mode() == Mode::forced || (mode() == Mode::automatic && gpu_possible() && worth_it() && gpu_ready()));
    const bool timed = report_on();
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    const auto finish = [&](bool on_gpu) {
        if (timed) counts.record(to_zgpu, on_gpu, std::chrono::steady_clock::now() - start);
    };
    if (to_zgpu) {
        set_inside(&counts);
        const int status = via_zgpu();
        set_inside(nullptr);
        if (status == 0) {
            finish(last_call_ran_on_gpu());
            return result();
        }
        warn_zgpu_failed(counts);
    }
    if constexpr (std::is_void_v<decltype(flint())>) {
        flint();
        finish(false);
    } else {
        const auto value = flint();
        finish(false);
        return value;
    }
}

// route() for functions that return nothing.
template <class Worth, class ViaZgpu, class Flint>
void route(Counts& counts, Worth worth_it, ViaZgpu via_zgpu, Flint flint)
{
    route(counts, worth_it, via_zgpu, [] {}, flint);
}

}  // namespace zgpu::preload
