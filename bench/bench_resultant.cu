// Resultants over Z end to end (FLINT polynomials in, an fmpz out): zgpu_fmpz_poly_resultant on
// the GPU and by the automatic choice, against FLINT's fmpz_poly_resultant (one thread: FLINT
// has no threaded resultant), at issue #22's sizes and below them for the crossover. Bound: the
// remainder sequences' steps, about 2 L^2 a prime, at det_mod's 1.3e11 a second on the H200
// (bench/NOTES-resultants.md), for the primes of Hadamard's bound; the share printed is that
// time over the GPU's.
#include <string>

#include <flint/fmpz_poly.h>

#include "bench_support.cuh"
#include "plugin/poly/resultant.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace {

constexpr double kStepsPerSecond = 1.3e11;

// Both polynomials of `length` coefficients of exactly `bits` bits, random signs; the resultant
// on the GPU and by the automatic choice, FLINT once, the values compared.
void row(slong length, unsigned bits)
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
                100 * 2.0 * double(length) * double(length) * primes / kStepsPerSecond / gpu);
    fmpz_clear(ours);
    fmpz_clear(theirs);
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
}

}  // namespace

int main()
{
    const DeviceInfo device = device_info();
    std::printf("## zgpu resultants over Z\n\ndevice: %s; FLINT %s; %s\n\n", device.prop.name, flint_version, device.date);
    std::printf("gpu / auto: ZGPU_BACKEND, median of 5 after two calls; FLINT: fmpz_poly_resultant, one call. ms. Both polynomials "
                "of `length` coefficients of `bits` bits. Step share: 2 length^2 steps a prime, for the primes of Hadamard's bound, "
                "at 1.3e11 steps a second, over the GPU's time. Every value is checked against FLINT's.\n\n"
                "| length | bits | res bits | gpu ms | auto ms | FLINT ms | x FLINT | step share |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const slong length : {10, 20, 50, 100, 200}) row(length, 64);
    row(500, 64);
    row(1000, 256);
    row(2000, 64);
    flint_cleanup_master();
    return 0;
}
