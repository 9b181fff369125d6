// Resultants over Z end to end (FLINT polynomials in, an fmpz out): zgpu_fmpz_poly_resultant on
// the GPU and by the automatic choice, against FLINT's fmpz_poly_resultant (one thread: FLINT
// has no threaded resultant), at issue #22's sizes and below them for the crossover. Bound: the
// IMAD peak, for the remainder sequences' updates (beta a_j + c b_j mod p, La Lb of them a prime
// when the degrees drop one at a time) at 32 IMADs each: two Shoup products, each a 64 x 64-bit
// high half (four 32 x 32-bit wide products, 8 IMADs) and two 64-bit low products (4 each).
#include <algorithm>
#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>

#include "bench_support.cuh"
#include "plugin/poly/resultant.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace {

constexpr double kImadsPerUpdate = 32;

// Both polynomials of `length` coefficients of exactly `bits` bits, random signs; the resultant
// on the GPU and by the automatic choice, FLINT once, the values compared.
void row(slong length, unsigned bits, double imad_peak)
{
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    fmpz_poly_fit_length(a, length);
    fmpz_poly_fit_length(b, length);
    fill_fmpz(a->coeffs, length, bits / 64, 51);
    fill_fmpz(b->coeffs, length, bits / 64, 52);
    _fmpz_poly_set_length(a, length);
    _fmpz_poly_set_length(b, length);
    fmpz_t ours, theirs;
    fmpz_init(ours);
    fmpz_init(theirs);
    double start = now();
    fmpz_poly_resultant(theirs, a, b);
    const double flint = now() - start;
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_poly_resultant(ours, a, b); });
    if (!fmpz_equal(ours, theirs)) {
        std::fprintf(stderr, "resultant, length %ld, %u bits: the GPU's value differs from FLINT's\n", long(length), bits);
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", [&] { return zgpu_fmpz_poly_resultant(ours, a, b); });
    const std::string picked = zgpu_last_backend();
    // The primes of Hadamard's bound, as the call takes them.
    const auto norm_bits = [](const fmpz_poly_t x) {
        fmpz_t n;
        fmpz_init(n);
        for (slong i = 0; i < x->length; ++i) fmpz_addmul(n, x->coeffs + i, x->coeffs + i);
        const std::uint64_t bits = fmpz_bits(n);
        fmpz_clear(n);
        return bits;
    };
    const double primes =
        double(zgpu::poly::resultant_bits(std::size_t(length), norm_bits(a), std::size_t(length), norm_bits(b)) + 1) / 62 + 1;
    std::printf("| %ld | %u | %ld | %.2f | %.2f (%s) | %.1f | %.1f | %.0f %% |\n", long(length), bits, long(fmpz_bits(theirs)),
                1e3 * gpu, 1e3 * automatic, picked.c_str(), 1e3 * flint, flint / gpu,
                100 * kImadsPerUpdate * double(length) * double(length) * primes / imad_peak / gpu);
    fmpz_clear(ours);
    fmpz_clear(theirs);
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
}

// One resultant modulo the prime 2^62 - 57 of two random polynomials of `length` coefficients:
// zgpu_nmod_poly_resultant on the GPU (one block) and by the automatic choice, against FLINT's
// nmod_poly_resultant (median of 3), the values compared.
void nmod_row(slong length)
{
    const ulong n = (ulong(1) << 62) - 57;
    nmod_poly_t a, b;
    nmod_poly_init(a, n);
    nmod_poly_init(b, n);
    for (slong i = 0; i < length; ++i) {
        nmod_poly_set_coeff_ui(a, i, mix(ulong(i) + 1) % n);
        nmod_poly_set_coeff_ui(b, i, mix(ulong(i) + 7777777) % n);
    }
    ulong ours = 0, theirs = 0;
    std::vector<double> flint;
    for (int r = 0; r < 3; ++r) {
        const double start = now();
        theirs = nmod_poly_resultant(a, b);
        flint.push_back(now() - start);
    }
    std::sort(flint.begin(), flint.end());
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_nmod_poly_resultant(&ours, a, b); });
    if (ours != theirs) {
        std::fprintf(stderr, "nmod resultant, length %ld: the GPU's value differs from FLINT's\n", long(length));
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", [&] { return zgpu_nmod_poly_resultant(&ours, a, b); });
    const std::string picked = zgpu_last_backend();
    std::printf("| %ld | %.3f | %.3f (%s) | %.3f | %.2f |\n", long(length), 1e3 * gpu, 1e3 * automatic, picked.c_str(), 1e3 * flint[1],
                flint[1] / gpu);
    nmod_poly_clear(a);
    nmod_poly_clear(b);
}

}  // namespace

// The argument "short" leaves out the rows whose FLINT runs take seconds (lengths from 1000 over
// Z, from 10000 modulo a prime), for before-and-after runs.
int main(int argc, char** argv)
{
    const bool short_run = argc > 1 && std::string(argv[1]) == "short";
    const DeviceInfo device = device_info();
    std::printf("## zgpu resultants over Z\n\ndevice: %s; FLINT %s; %s\n\n", device.prop.name, flint_version, device.date);
    std::printf("gpu / auto: ZGPU_BACKEND, median of 5 after two calls; FLINT: fmpz_poly_resultant, one call. ms. Both polynomials "
                "of `length` coefficients of `bits` bits. IMAD share: length^2 updates a prime for the primes of Hadamard's "
                "bound, 32 IMADs an update, over the peak (%.3g a second). Every value is checked against FLINT's.\n\n"
                "| length | bits | res bits | gpu ms | auto ms | FLINT ms | x FLINT | IMAD share |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                device.imad_peak);
    for (const slong length : {5, 10, 20, 50, 100, 200}) row(length, 64, device.imad_peak);
    row(500, 64, device.imad_peak);
    if (!short_run) {
        row(1000, 256, device.imad_peak);
        row(2000, 64, device.imad_peak);
    }
    std::printf("\n## zgpu resultants modulo one prime\n\nzgpu_nmod_poly_resultant modulo 2^62 - 57: gpu / auto as above; "
                "FLINT: nmod_poly_resultant, median of 3. ms. Both polynomials of `length` random coefficients.\n\n"
                "| length | gpu ms | auto ms | FLINT ms | x FLINT |\n|---:|---:|---:|---:|---:|\n");
    for (const slong length : {30, 100, 300, 1000, 3000, 10000, 30000})
        if (!short_run || length < 10000) nmod_row(length);
    flint_cleanup_master();
    return 0;
}
