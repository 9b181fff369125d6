// Compositions f(h) over Z: zgpu_fmpz_poly_compose on the GPU and by the automatic choice, against
// FLINT's fmpz_poly_compose on one thread and on all host threads, from a result of a few hundred
// coefficients to the plugin's row (256 of 256 coefficients of 64 bits) and beyond. Bounds: the
// GPU's Horner steps (primes x transform x (len(f) - 1) Shoup products, about 12 IMADs each)
// against the IMAD peak, and the result's CRT values against PCIe at 55 GB/s; the larger of the two
// is the floor of the GPU's time, and the last columns give the share of the time each takes.
#include <algorithm>
#include <bit>
#include <string>
#include <thread>

#include <flint/fmpz_poly.h>

#include "bench_support.cuh"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_poly.h"

namespace {

constexpr double kPcieBytesPerSecond = 55e9;
constexpr double kImadsPerHornerStep = 12;

// The bits of ||p||_1.
flint_bitcnt_t one_norm_bits(const fmpz_poly_t p)
{
    fmpz_t norm;
    fmpz_init(norm);
    for (slong i = 0; i < p->length; ++i)
        if (fmpz_sgn(p->coeffs + i) < 0) fmpz_sub(norm, norm, p->coeffs + i);
        else fmpz_add(norm, norm, p->coeffs + i);
    const flint_bitcnt_t bits = fmpz_bits(norm);
    fmpz_clear(norm);
    return bits;
}

// length coefficients below 2^bits in absolute value, of random signs, the leading one 1.
void random_poly(fmpz_poly_t p, slong length, flint_bitcnt_t bits, std::uint64_t seed)
{
    fmpz_t c;
    fmpz_init(c);
    for (slong i = 0; i < length; ++i) {
        fmpz_zero(c);
        for (flint_bitcnt_t b = 0; b < bits; b += 64) {
            fmpz_mul_2exp(c, c, 64);
            fmpz_add_ui(c, c, mix(seed + std::uint64_t(i) * 131 + b));
        }
        fmpz_fdiv_r_2exp(c, c, bits);
        if (mix(seed ^ std::uint64_t(i)) & 1) fmpz_neg(c, c);
        fmpz_poly_set_coeff_fmpz(p, i, c);
    }
    fmpz_poly_set_coeff_ui(p, length - 1, 1);
    fmpz_clear(c);
}

void row(slong f_length, slong h_length, flint_bitcnt_t bits, unsigned host_threads, const DeviceInfo& device)
{
    fmpz_poly_t f, h, ours, theirs;
    fmpz_poly_init(f), fmpz_poly_init(h), fmpz_poly_init(ours), fmpz_poly_init(theirs);
    random_poly(f, f_length, bits, 1);
    random_poly(h, h_length, bits, 2);
    const auto flint = [&] { fmpz_poly_compose(theirs, f, h); };
    const double one = flint_second_call_seconds(1, flint), all = flint_second_call_seconds(int(host_threads), flint);
    const auto zgpu = [&] { return zgpu_fmpz_poly_compose(ours, f, h); };
    const double gpu = zgpu_seconds("gpu", zgpu);
    if (!fmpz_poly_equal(ours, theirs)) {
        std::fprintf(stderr, "compose %ld of %ld: the GPU's value differs from FLINT's\n", long(f_length), long(h_length));
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", zgpu);
    const std::string picked = zgpu_last_backend();
    // What the GPU computes: the primes zgpu's bound asks for, the transform, the Horner steps.
    const double out = double((f_length - 1) * (h_length - 1) + 1);
    const double bound = double(one_norm_bits(f)) + double(f_length - 1) * double(one_norm_bits(h));
    const double primes = std::floor((bound + 1) / 62) + 1, transform = double(std::bit_ceil(std::uint64_t(out)));
    const double imad_seconds = primes * transform * double(f_length - 1) * kImadsPerHornerStep / device.imad_peak;
    const double pcie_seconds = out * std::ceil(primes * 62 / 64) * 8 / kPcieBytesPerSecond;
    std::printf("| %ld of %ld | %lu | %.0f | %.0f | %.3f | %.3f (%s) | %.2f | %.2f | %.1f | %.1f | %.0f %% | %.0f %% |\n", long(f_length),
                long(h_length), (unsigned long)bits, out, primes, 1e3 * gpu, 1e3 * automatic, picked.c_str(), 1e3 * one, 1e3 * all,
                one / gpu, all / gpu, 100 * imad_seconds / gpu, 100 * pcie_seconds / gpu);
    fmpz_poly_clear(f), fmpz_poly_clear(h), fmpz_poly_clear(ours), fmpz_poly_clear(theirs);
}

}  // namespace

int main()
{
    const DeviceInfo device = device_info();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("## zgpu compositions over Z\n\ndevice: %s; FLINT %s; %s\n\n", device.prop.name, flint_version, device.date);
    std::printf("f(h), f and h of random coefficients of the given bits and signs, leading coefficients 1. gpu / auto: zgpu_fmpz_poly_compose with ZGPU_BACKEND, "
                "median of 5; FLINT: fmpz_poly_compose on 1 and %u threads, the second of two calls; ms. Every value is checked "
                "against FLINT's. IMAD share: the Horner steps at %.0f IMADs each over the peak (%.3g a second); PCIe share: the "
                "result's CRT values at 55 GB/s.\n\n"
                "| shape | bits | result coefficients | primes | gpu ms | auto ms | FLINT 1 thr ms | FLINT %u thr ms | x FLINT 1 | "
                "x FLINT %u | IMAD share | PCIe share |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, kImadsPerHornerStep, device.imad_peak, threads, threads);
    const std::pair<slong, slong> shapes[] = {{16, 16}, {32, 32}, {64, 64}, {128, 128}, {256, 256}, {512, 64}, {64, 512}};
    for (const auto& [f_length, h_length] : shapes) row(f_length, h_length, 64, threads, device);
    row(64, 64, 1024, threads, device);
    row(256, 256, 8, threads, device);
    flint_cleanup_master();
    return 0;
}
