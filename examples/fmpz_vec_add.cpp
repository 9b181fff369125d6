// Adds and subtracts two FLINT vectors through zgpu, checks the results against FLINT, and
// prints which backend ran and how long it took.
//   fmpz_vec_add_example [count] [bits]      (defaults: 1000000 elements of up to 1024 bits)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>

#include "zgpu/zgpu.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool run(const char* name, int (*zgpu_op)(fmpz*, const fmpz*, const fmpz*, slong),
         void (*flint_op)(fmpz*, const fmpz*, const fmpz*, slong), const fmpz* a, const fmpz* b, slong n)
{
    fmpz* ours = _fmpz_vec_init(n);
    fmpz* theirs = _fmpz_vec_init(n);
    const auto start = std::chrono::steady_clock::now();
    if (zgpu_op(ours, a, b, n) != 0) {
        std::fprintf(stderr, "%s failed: %s\n", name, zgpu_last_error());
        return false;
    }
    const double ours_s = seconds_since(start);
    const auto flint_start = std::chrono::steady_clock::now();
    flint_op(theirs, a, b, n);
    const double flint_s = seconds_since(flint_start);
    const bool same = _fmpz_vec_equal(ours, theirs, n);
    std::printf("%s: backend %s, %ld elements in %.3f ms (FLINT on one thread: %.3f ms), %s\n", name,
                zgpu_last_backend(), long(n), 1e3 * ours_s, 1e3 * flint_s, same ? "matches FLINT" : "MISMATCH");
    _fmpz_vec_clear(ours, n);
    _fmpz_vec_clear(theirs, n);
    return same;
}

}  // namespace

int main(int argc, char** argv)
{
    const slong n = argc > 1 ? std::atol(argv[1]) : 1000000;
    const flint_bitcnt_t bits = argc > 2 ? std::atol(argv[2]) : 1024;
    flint_rand_t state;
    flint_randinit(state);
    fmpz* a = _fmpz_vec_init(n);
    fmpz* b = _fmpz_vec_init(n);
    _fmpz_vec_randtest(a, state, n, bits);  // mixed sizes and signs, zeros, carry-heavy limbs
    _fmpz_vec_randtest(b, state, n, bits);

    const bool ok = run("add", zgpu_fmpz_vec_add, _fmpz_vec_add, a, b, n) &&
                    run("sub", zgpu_fmpz_vec_sub, _fmpz_vec_sub, a, b, n);

    _fmpz_vec_clear(a, n);
    _fmpz_vec_clear(b, n);
    flint_randclear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
