// Adds and subtracts two FLINT vectors through zgpu, checks every result against FLINT, and
// prints which backend ran and how long it took:
//   1. zgpu_fmpz_vec_add / _sub on host vectors, backend chosen automatically;
//   2. the same vectors kept on the backend (DeviceBatch, the GPU where there is one) for a
//      chain of operations, converted once each way.
//   fmpz_vec_add_example [count] [bits]      (defaults: 1000000 elements of up to 1024 bits)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>

#include "fmpz_adapter.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool host_call(const char* name, int (*zgpu_op)(fmpz*, const fmpz*, const fmpz*, slong),
               void (*flint_op)(fmpz*, const fmpz*, const fmpz*, slong), const fmpz* a, const fmpz* b, slong n)
{
    fmpz* ours = _fmpz_vec_init(n);
    fmpz* theirs = _fmpz_vec_init(n);
    const auto start = Clock::now();
    const int status = zgpu_op(ours, a, b, n);
    const double ours_ms = ms_since(start);
    if (status != 0) {
        std::fprintf(stderr, "%s failed: %s\n", name, zgpu_last_error());
        return false;
    }
    const auto flint_start = Clock::now();
    flint_op(theirs, a, b, n);
    const double flint_ms = ms_since(flint_start);
    const bool same = _fmpz_vec_equal(ours, theirs, n);
    std::printf("%s: backend %s, %ld elements in %.2f ms (FLINT on one thread: %.2f ms), %s\n", name,
                zgpu_last_backend(), long(n), ours_ms, flint_ms, same ? "matches FLINT" : "MISMATCH");
    _fmpz_vec_clear(ours, n);
    _fmpz_vec_clear(theirs, n);
    return same;
}

// (a + b) - b and a - b on the backend, checked against FLINT.
bool device_chain(const fmpz* a, const fmpz* b, slong n)
{
    using namespace zgpu;
    // The first use of the GPU creates its context (a few hundred milliseconds): not timed.
    if (gpu_available()) synchronize(Backend::gpu);
    auto start = Clock::now();
    const DeviceBatch da = DeviceBatch::upload(adapters::pack_fmpz_vec(a, n, "a"));
    const DeviceBatch db = DeviceBatch::upload(adapters::pack_fmpz_vec(b, n, "b"));
    const double upload_ms = ms_since(start);

    start = Clock::now();
    DeviceBatch sum, back, difference;
    add(sum, da, db);
    sub(back, sum, db);
    sub(difference, da, db);
    synchronize(da.backend());
    const double compute_ms = ms_since(start);

    start = Clock::now();
    fmpz* round_trip = _fmpz_vec_init(n);
    fmpz* ours = _fmpz_vec_init(n);
    adapters::unpack_fmpz_vec(back.download().view(), round_trip);
    adapters::unpack_fmpz_vec(difference.download().view(), ours);
    const double download_ms = ms_since(start);

    fmpz* theirs = _fmpz_vec_init(n);
    _fmpz_vec_sub(theirs, a, b, n);
    const bool same = _fmpz_vec_equal(round_trip, a, n) && _fmpz_vec_equal(ours, theirs, n);
    std::printf("device-resident (a + b) - b and a - b: backend %s, 3 operations in %.2f ms "
                "(conversion and transfer: %.2f ms in, %.2f ms out), %s\n",
                std::string(backend_name(da.backend())).c_str(), compute_ms, upload_ms, download_ms,
                same ? "matches FLINT" : "MISMATCH");
    _fmpz_vec_clear(round_trip, n);
    _fmpz_vec_clear(ours, n);
    _fmpz_vec_clear(theirs, n);
    return same;
}

}  // namespace

int main(int argc, char** argv)
{
    const slong n = argc > 1 ? std::atol(argv[1]) : 1000000;
    const flint_bitcnt_t bits = argc > 2 ? std::atol(argv[2]) : 1024;
    if (n < 0 || bits < 1) {
        std::fprintf(stderr, "usage: %s [count >= 0] [bits >= 1]\n", argv[0]);
        return 2;
    }
    flint_rand_t state;
    flint_randinit(state);
    fmpz* a = _fmpz_vec_init(n);
    fmpz* b = _fmpz_vec_init(n);
    _fmpz_vec_randtest(a, state, n, bits);  // mixed sizes and signs, zeros, carry-heavy limbs
    _fmpz_vec_randtest(b, state, n, bits);

    bool ok = host_call("zgpu_fmpz_vec_add", zgpu_fmpz_vec_add, _fmpz_vec_add, a, b, n);
    ok = host_call("zgpu_fmpz_vec_sub", zgpu_fmpz_vec_sub, _fmpz_vec_sub, a, b, n) && ok;
    try {
        ok = device_chain(a, b, n) && ok;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        ok = false;
    }

    _fmpz_vec_clear(a, n);
    _fmpz_vec_clear(b, n);
    flint_randclear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
