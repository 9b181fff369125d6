// Adds and subtracts two FLINT vectors through zgpu, checks every result against FLINT, and
// prints which backend ran and how long it took:
//   1. zgpu_fmpz_vec_add / _sub on host vectors, backend chosen automatically;
//   2. the same vectors kept on the backend (DeviceBatch, the GPU where there is one) for a
//      chain of operations, converted once each way.
//   fmpz_vec_add_example [count] [bits]      (defaults: 1000000 elements of up to 1024 bits)
#include <cstdio>
#include <exception>
#include <string>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>

#include "example_support.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

using example::Clock;
using example::ms_since;

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
    const auto arguments = example::parse_arguments(argc, argv, 1000000, 1024);
    if (!arguments) return 2;
    const auto [n, bits] = *arguments;
    flint_rand_t state;
    example::random_init(state);
    fmpz* a = _fmpz_vec_init(n);
    fmpz* b = _fmpz_vec_init(n);
    _fmpz_vec_randtest(a, state, n, bits);  // mixed sizes and signs, zeros, carry-heavy limbs
    _fmpz_vec_randtest(b, state, n, bits);

    bool ok = example::compare("zgpu_fmpz_vec_add", n, [&](fmpz* r) { return zgpu_fmpz_vec_add(r, a, b, n); },
                               [&](fmpz* r) { _fmpz_vec_add(r, a, b, n); });
    ok = example::compare("zgpu_fmpz_vec_sub", n, [&](fmpz* r) { return zgpu_fmpz_vec_sub(r, a, b, n); },
                          [&](fmpz* r) { _fmpz_vec_sub(r, a, b, n); }) && ok;
    try {
        ok = device_chain(a, b, n) && ok;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        ok = false;
    }

    _fmpz_vec_clear(a, n);
    _fmpz_vec_clear(b, n);
    example::random_clear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
