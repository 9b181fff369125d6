// Progress lines on stderr for long calls (polynomial products, resultants, determinants), asked
// for by ZGPU_PROGRESS=1 or set_progress(true). A call reports where FLINT would take
// kProgressFromSeconds or more on one host thread: a line as it starts, one at each tenth of its
// work done (where the work comes in parts: products of a batch, chunks of coefficients, primes)
// with the time left at the rate so far, and one as it ends, each with the seconds since the
// start.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "zgpu/backend.hpp"

namespace zgpu {

inline constexpr double kProgressFromSeconds = 1.0;

// Whether progress lines are asked for: set_progress's last word, else ZGPU_PROGRESS (set and
// not "0").
bool progress_asked();

class Progress {
public:
    // `what` names the call ("fmpz_poly_mul, 65536 x 65536 coefficients of 4096 bits");
    // `flint_seconds` is the cost model's time for FLINT on one thread; `total` the parts of
    // the work (0: none are reported).
    Progress(std::string what, double flint_seconds, std::uint64_t total);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // The parts of the work, where they are known only once it has started (the primes of a
    // bound); before any advance().
    void set_total(std::uint64_t total) { total_ = total; }
    // `parts` more parts are done; any thread may call it.
    void advance(std::uint64_t parts);
    // Whether lines are shown (asked for, and the work long enough).
    bool on() const { return on_; }
    // The backend that ran, for the last line.
    void ran_on(Backend backend) { backend_ = backend; }

private:
    void line(const std::string& text) const;

    bool on_;
    std::string what_;
    std::uint64_t total_;
    std::atomic<std::uint64_t> done_{0};
    std::atomic<int> tenths_{0};  // reported so far
    Backend backend_ = Backend::none;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace zgpu
