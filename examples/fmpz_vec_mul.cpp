// Products and exact division of FLINT vectors through zgpu, every result checked against
// FLINT, with the backend that ran and the time taken:
//   1. zgpu_fmpz_vec_mul (elementwise) and zgpu_fmpz_vec_sqr, backend chosen automatically;
//   2. a vector scaled by c and divided by c again (zgpu_fmpz_vec_scalar_mul_fmpz, then
//      zgpu_fmpz_vec_scalar_divexact_fmpz_checked), as in content removal.
//   fmpz_vec_mul_example [count] [bits]      (defaults: 100000 elements of up to 4096 bits)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>

#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Runs a zgpu call, prints its backend and time next to FLINT's, and checks the results.
template <class Ours, class Theirs>
bool compare(const char* name, slong n, Ours ours_op, Theirs flint_op)
{
    fmpz* ours = _fmpz_vec_init(n);
    fmpz* theirs = _fmpz_vec_init(n);
    const auto start = Clock::now();
    const int status = ours_op(ours);
    const double ours_ms = ms_since(start);
    if (status != 0) {
        std::fprintf(stderr, "%s failed: %s\n", name, zgpu_last_error());
        _fmpz_vec_clear(ours, n);
        _fmpz_vec_clear(theirs, n);
        return false;
    }
    const char* backend = zgpu_last_backend();
    const auto flint_start = Clock::now();
    flint_op(theirs);
    const double flint_ms = ms_since(flint_start);
    const bool same = _fmpz_vec_equal(ours, theirs, n);
    std::printf("%s: backend %s, %ld elements in %.2f ms (FLINT on one thread: %.2f ms), %s\n", name, backend, long(n),
                ours_ms, flint_ms, same ? "matches FLINT" : "MISMATCH");
    _fmpz_vec_clear(ours, n);
    _fmpz_vec_clear(theirs, n);
    return same;
}

}  // namespace

int main(int argc, char** argv)
{
    const slong n = argc > 1 ? std::atol(argv[1]) : 100000;
    const flint_bitcnt_t bits = argc > 2 ? std::atol(argv[2]) : 4096;
    if (n < 0 || bits < 1) {
        std::fprintf(stderr, "usage: %s [count >= 0] [bits >= 1]\n", argv[0]);
        return 2;
    }
    flint_rand_t state;
    flint_randinit(state);
    fmpz* a = _fmpz_vec_init(n);
    fmpz* b = _fmpz_vec_init(n);
    for (slong i = 0; i < n; ++i) {  // full-size values of random sign
        fmpz_randbits(a + i, state, bits);
        fmpz_randbits(b + i, state, bits);
    }
    fmpz_t c;
    fmpz_init(c);
    fmpz_randbits(c, state, bits / 2 + 1);
    // The first use of zgpu looks for a GPU and creates its context: not timed.
    if (zgpu::gpu_available()) zgpu::synchronize(zgpu::Backend::gpu);

    bool ok = compare("zgpu_fmpz_vec_mul", n, [&](fmpz* r) { return zgpu_fmpz_vec_mul(r, a, b, n); },
                      [&](fmpz* r) {
                          for (slong i = 0; i < n; ++i) fmpz_mul(r + i, a + i, b + i);
                      });
    ok = compare("zgpu_fmpz_vec_sqr", n, [&](fmpz* r) { return zgpu_fmpz_vec_sqr(r, a, n); },
                 [&](fmpz* r) {
                     for (slong i = 0; i < n; ++i) fmpz_mul(r + i, a + i, a + i);
                 }) && ok;
    fmpz* scaled = _fmpz_vec_init(n);
    ok = compare("zgpu_fmpz_vec_scalar_mul_fmpz", n,
                 [&](fmpz* r) {
                     const int status = zgpu_fmpz_vec_scalar_mul_fmpz(r, a, n, c);
                     _fmpz_vec_set(scaled, r, n);
                     return status;
                 },
                 [&](fmpz* r) { _fmpz_vec_scalar_mul_fmpz(r, a, n, c); }) && ok;
    ok = compare("zgpu_fmpz_vec_scalar_divexact_fmpz_checked", n,
                 [&](fmpz* r) { return zgpu_fmpz_vec_scalar_divexact_fmpz_checked(r, scaled, n, c); },
                 [&](fmpz* r) { _fmpz_vec_scalar_divexact_fmpz(r, scaled, n, c); }) && ok;

    _fmpz_vec_clear(scaled, n);
    fmpz_clear(c);
    _fmpz_vec_clear(a, n);
    _fmpz_vec_clear(b, n);
    flint_randclear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
