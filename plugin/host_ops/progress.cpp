#include "plugin/host_ops/progress.hpp"

#include <cstdio>

#include "base/settings.hpp"
#include "zgpu/poly.hpp"

namespace zgpu {
namespace {

// -1: not set, follow ZGPU_PROGRESS; else 0 or 1.
std::atomic<int> progress_setting{-1};

}  // namespace

void set_progress(bool on) { progress_setting = on ? 1 : 0; }

bool progress_asked()
{
    const int setting = progress_setting;
    if (setting >= 0) return setting == 1;
    return settings::progress();
}

Progress::Progress(std::string what, double flint_seconds, std::uint64_t total)
    : on_(flint_seconds >= kProgressFromSeconds && progress_asked()), what_(std::move(what)), total_(total),
      start_(std::chrono::steady_clock::now())
{
    if (!on_) return;
    char estimate[96];
    std::snprintf(estimate, sizeof estimate, "started (FLINT on one thread: about %.1f s)", flint_seconds);
    line(estimate);
}

Progress::~Progress()
{
    if (!on_) return;
    line(backend_ == Backend::none ? std::string("stopped by an error") : "done on the " + std::string(backend_name(backend_)));
}

void Progress::advance(std::uint64_t parts)
{
    if (!on_ || total_ == 0) return;
    const std::uint64_t done = done_ += parts;
    const int tenths = int(10 * std::min(done, total_) / total_);
    int reported = tenths_;
    // One line a tenth, from whichever thread gets there first; the last tenth is the end's.
    while (tenths < 10 && tenths > reported)
        if (tenths_.compare_exchange_weak(reported, tenths)) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
            char left[64];
            std::snprintf(left, sizeof left, "), about %.1f s left", seconds * double(total_ - done) / double(done));
            line(std::to_string(10 * tenths) + " % (" + std::to_string(done) + " of " + std::to_string(total_) + left);
            break;
        }
}

void Progress::line(const std::string& text) const
{
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "zgpu: %s: %s, %.2f s\n", what_.c_str(), text.c_str(), seconds);
}

}  // namespace zgpu
