// Powers of a polynomial modulo another, mod a 62-bit prime: the exponent is the prime itself
// (62 squarings, 31 products by the base), f of degree m, FLINT's precomputed inverse given to
// both. _zgpu_nmod_poly_powmod_ui_binexp_preinv on the GPU and by the automatic choice, against
// FLINT's _nmod_poly_powmod_ui_binexp_preinv on one thread and on all host threads. Bound: each
// step is three products in a row on the device, and below degrees of some thousands a step is
// bound by the latency of its launches, not by the GPU's rate: the per-step column shows where.
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include <flint/nmod_poly.h>

#include "bench_support.cuh"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace {

constexpr ulong kPrime = UWORD(4611686018427387847);  // below 2^62

void row(slong m, unsigned host_threads)
{
    nmod_poly_t f, finv, base;
    nmod_poly_init(f, kPrime);
    nmod_poly_init(finv, kPrime);
    nmod_poly_init(base, kPrime);
    for (slong i = 0; i < m; ++i) {
        nmod_poly_set_coeff_ui(f, i, mix(ulong(i) + 11) % kPrime);
        nmod_poly_set_coeff_ui(base, i, mix(ulong(i) + 99991) % kPrime);
    }
    nmod_poly_set_coeff_ui(f, m, 1);
    nmod_poly_reverse(finv, f, m + 1);
    nmod_poly_inv_series(finv, finv, m + 1);
    std::vector<ulong> padded(static_cast<std::size_t>(m), 0), ours(static_cast<std::size_t>(m)), theirs(static_cast<std::size_t>(m));
    std::copy_n(base->coeffs, base->length, padded.begin());
    const auto flint = [&] {
        _nmod_poly_powmod_ui_binexp_preinv(theirs.data(), padded.data(), kPrime, f->coeffs, m + 1, finv->coeffs, m + 1, f->mod);
    };
    const double one = flint_second_call_seconds(1, flint), all = flint_second_call_seconds(int(host_threads), flint);
    const auto zgpu = [&] {
        return _zgpu_nmod_poly_powmod_ui_binexp_preinv(ours.data(), padded.data(), kPrime, f->coeffs, m + 1, finv->coeffs, m + 1, f->mod);
    };
    const double gpu = zgpu_seconds("gpu", zgpu);
    if (ours != theirs) {
        std::fprintf(stderr, "powmod, degree %ld: the GPU's value differs from FLINT's\n", long(m));
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", zgpu);
    const std::string picked = zgpu_last_backend();
    const int steps = 61 + __builtin_popcountll(kPrime) - 1;
    std::printf("| %ld | %d | %.3f | %.1f | %.3f (%s) | %.2f | %.2f | %.1f | %.1f |\n", long(m), steps, 1e3 * gpu, 1e6 * gpu / steps,
                1e3 * automatic, picked.c_str(), 1e3 * one, 1e3 * all, one / gpu, all / gpu);
    nmod_poly_clear(f);
    nmod_poly_clear(finv);
    nmod_poly_clear(base);
}

}  // namespace

int main()
{
    const DeviceInfo device = device_info();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("## zgpu powers mod f, mod a 62-bit prime\n\ndevice: %s; FLINT %s; %s\n\n", device.prop.name, flint_version, device.date);
    std::printf("base^p mod f, p = %lu, f monic of degree m, FLINT's inverse of f reversed given to both. gpu / auto: "
                "_zgpu_nmod_poly_powmod_ui_binexp_preinv with ZGPU_BACKEND, median of 5; FLINT: "
                "_nmod_poly_powmod_ui_binexp_preinv on 1 and %u threads, the second of two calls. ms; the GPU's time a step "
                "in microseconds. Every value is checked against FLINT's.\n\n"
                "| m | steps | gpu ms | gpu us a step | auto ms | FLINT 1 thr ms | FLINT %u thr ms | x FLINT 1 | x FLINT %u |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                (unsigned long)kPrime, threads, threads, threads);
    for (const slong m : {64, 128, 256, 512, 1024, 3000, 8192, 65536}) row(m, threads);
    flint_cleanup_master();
    return 0;
}
