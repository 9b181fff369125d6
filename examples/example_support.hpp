// What the examples share: timing, their two arguments, and running a zgpu call next to
// FLINT's with the backend, the times and the check printed.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>

#include "zgpu/zgpu.h"

namespace example {

using Clock = std::chrono::steady_clock;

// FLINT's random state under the names of the FLINT in use (3.1 renamed flint_randinit).
inline void random_init(flint_rand_t state)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_init(state);
#else
    flint_randinit(state);
#endif
}

inline void random_clear(flint_rand_t state)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_clear(state);
#else
    flint_randclear(state);
#endif
}

// Seeds FLINT's random state (3.1 renamed flint_randseed).
inline void random_seed(flint_rand_t state, ulong seed)
{
#if __FLINT_RELEASE >= 30100
    flint_rand_set_seed(state, seed, seed + 1);
#else
    flint_randseed(state, seed, seed + 1);
#endif
}

inline double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Arguments {
    slong count;
    flint_bitcnt_t bits;
};

// [count] [bits] with the example's defaults; prints the usage and returns nothing if invalid.
inline std::optional<Arguments> parse_arguments(int argc, char** argv, slong default_count, flint_bitcnt_t default_bits)
{
    const slong n = argc > 1 ? std::atol(argv[1]) : default_count;
    const long bits = argc > 2 ? std::atol(argv[2]) : long(default_bits);
    if (n < 0 || bits < 1) {
        std::fprintf(stderr, "usage: %s [count >= 0] [bits >= 1]\n", argv[0]);
        return std::nullopt;
    }
    return Arguments{n, flint_bitcnt_t(bits)};
}

// Times ours() (a zgpu call returning its status) and theirs() (FLINT's), then prints the
// backend, both times, the speed-up, what() was computed and whether same() holds.
template <class Ours, class Theirs, class Same, class What>
bool time_and_check(const char* name, Ours ours, Theirs theirs, Same same, What what)
{
    const auto start = Clock::now();
    const int status = ours();
    const double ours_ms = ms_since(start);
    if (status != 0) {
        std::fprintf(stderr, "%s failed: %s\n", name, zgpu_last_error());
        return false;
    }
    const char* backend = zgpu_last_backend();
    const auto flint_start = Clock::now();
    theirs();
    const double flint_ms = ms_since(flint_start);
    const bool agree = same();
    std::printf("%s: backend %s, %s in %.2f ms (FLINT on one thread: %.2f ms, %.1f times as long), %s\n", name, backend,
                what().c_str(), ours_ms, flint_ms, flint_ms / ours_ms, agree ? "matches FLINT" : "MISMATCH");
    return agree;
}

// ours(res) (a zgpu call returning its status) and theirs(res) (FLINT's) into fresh vectors of
// n entries: prints the backend and both times, and whether the results agree.
template <class Ours, class Theirs>
bool compare(const char* name, slong n, Ours ours_op, Theirs flint_op)
{
    fmpz* ours = _fmpz_vec_init(n);
    fmpz* theirs = _fmpz_vec_init(n);
    const bool same = time_and_check(
        name, [&] { return ours_op(ours); }, [&] { flint_op(theirs); }, [&] { return bool(_fmpz_vec_equal(ours, theirs, n)); },
        [&] { return std::to_string(long(n)) + " elements"; });
    _fmpz_vec_clear(ours, n);
    _fmpz_vec_clear(theirs, n);
    return same;
}

}  // namespace example
