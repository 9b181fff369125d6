#include "plugin/poly/poly_choice.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace zgpu::poly {
namespace {

// FLINT's products, on one thread, cost about kFlint*SecondsPerBitLog for each bit of the
// product's coefficients times the transform's depth (both FFT-based: fft_small in FLINT 3,
// Schoenhage-Strassen or Kronecker substitution in 2.9), plus a fixed cost a product. Measured
// with FLINT 3.6 on an H100 host (bench/results/2026-11-25-h100-poly-*.md): nmod_poly_mul of
// length 2^20 modulo a 62-bit prime 3.0e-11, 10^4 products of length 1024 3.3e-11;
// fmpz_poly_mul from 2^12 x 16384 bits to 2^18 x 256 bits 0.9e-10 to 1.15e-10, and 4.6e-11
// for 64-bit coefficients (products of at most kFlintSmallPrimeBits bits go to FLINT 3's
// small-prime FFT directly).
constexpr double kFlintSecondsPerProduct = 100e-9;
constexpr double kFlintNmodSecondsPerBitLog = 3.3e-11;
constexpr double kFlintFmpzSecondsPerBitLog = 1.0e-10;
constexpr double kFlintFmpzSmallSecondsPerBitLog = 4.6e-11;
constexpr double kFlintSmallPrimeBits = 380;
// One product on FLINT's threads: from about a millisecond of work, about 3 times faster
// whatever the thread count (nmod_poly_mul of length 2^20: 0.070 s on 16 threads, where the
// rate above gives 0.21 s on one).
constexpr double kFlintThreadedFromSeconds = 1e-3;
constexpr double kFlintMaxSpeedup = 3;

// The GPU path: a fixed cost a call (pipeline start, launches, synchronisation), the bytes it
// converts and moves over PCIe (operands and results, 8 bytes a word), the NTT's butterflies
// (three transforms a prime, forward for each operand and inverse) and the word products of
// reduction and CRT. On the H100 (same results) one small product took 0.054 ms (nmod) to
// 0.078 ms (fmpz) end to end and one of length 1024 0.08 to 0.28 ms, latency bound (a few
// blocks); 0.15 ms a call puts the crossover where those measurements put it. nmod of length
// 2^20: 2.05 ms for 34 MB and 2e8 butterflies.
constexpr double kGpuSecondsPerCall = 0.15e-3;
// nmod products since they run through five 29-bit primes up to transforms of 2048: one product
// of length 1024 took 0.055 ms end to end (FLINT 0.070 on the same host), one of length 256
// 0.049 (FLINT 0.016) (bench/results/2026-11-26-h100-poly-explicit-crt-da5badb.md).
constexpr double kGpuNmodSecondsPerCall = 0.07e-3;
constexpr double kGpuBytesPerSecond = 20e9;
constexpr double kGpuSecondsPerButterfly = 2e-12;
constexpr double kGpuSecondsPerWordProduct = 1e-13;

// A step of a power mod f on the GPU: three products, each a few launches of the transforms
// and one of the CRT to n, and three small kernels between them, all waiting on each other. On
// the H200 (bench/results/2026-11-29-h200-plugin-powmod/run2-bench-powmod.md, 62-bit prime) a
// step took 55 us at degree 64, 61 at 256, 78 at 1024, 115 at 3000 and 164 at 2^16; FLINT's
// took 10, 81, 314, 1040 and 21 500 us on one thread, which the model puts at 8, 40, 200, 700
// and 20 600. The choice it makes: FLINT at 256 (9.4 ms against the GPU's 7.2), the GPU from 512.
constexpr double kGpuPowmodSecondsPerStep = 60e-6;

// A Horner step of a composition on the GPU (kernels::poly_compose): one Shoup product and an
// addition, about 12 IMADs, at the H200's 1.65e13 IMADs a second.
constexpr double kGpuSecondsPerHornerStep = 0.75e-12;

// Compositions whose result holds fewer bits take FLINT a fraction of a millisecond: its
// products are then short ones into GMP's, which the product model's rate (fitted to long
// products) overstates, and the GPU's fixed cost decides. On the H200 (bench/results/
// 2026-11-30-h200-compose-over-z/run08-bench-compose.md) 16 of 16 coefficients of 64 bits, a
// result of 2.5e5 bits, took FLINT 0.63 ms on one thread (1.70 on 16) and the GPU 0.084 ms;
// FLINT's time falls about in proportion below that.
constexpr double kGpuComposeFromBits = 1 << 17;

// Each NTT prime is above 2^61.99, counted as 62 bits of the CRT's product.
constexpr std::uint64_t kPrimeBits = 62;

double log2_at_least_one(double x) { return std::log2(std::max(2.0, x)); }

std::uint64_t words(std::uint64_t bits) { return std::max<std::uint64_t>(1, (bits + 63) / 64); }

// Bits of the product's coefficients.
double coefficient_bits(const PolyShape& p)
{
    return double(p.a_bits + p.b_bits) + log2_at_least_one(double(std::min(p.a_length, p.b_length)));
}

// Bits of the product's coefficients times the transform's depth.
double bit_logs(const PolyShape& p)
{
    return double(p.out_length) * coefficient_bits(p) * log2_at_least_one(double(p.transform_length));
}

double flint_call_seconds(double one_thread, unsigned threads)
{
    if (one_thread < kFlintThreadedFromSeconds) return one_thread;
    return one_thread / std::min(double(std::max(1u, threads)), kFlintMaxSpeedup);
}

double butterflies(const PolyShape& p)
{
    const double n = double(p.transform_length);
    return double(p.primes) * 3 * (n / 2) * log2_at_least_one(n);
}

double gpu_nmod_seconds(const PolyShape& p)
{
    const double bytes = 8.0 * double(p.a_length + p.b_length + p.out_length);
    // Three primes are reduced mod n at the end: about primes^2 word products a coefficient.
    const double word_products = p.primes > 1 ? double(p.out_length) * double(p.primes * p.primes) : 0;
    return bytes / kGpuBytesPerSecond + butterflies(p) * kGpuSecondsPerButterfly +
           word_products * kGpuSecondsPerWordProduct;
}

double gpu_fmpz_seconds(const PolyShape& p)
{
    const double operand_words = double(p.a_length * words(p.a_bits) + p.b_length * words(p.b_bits));
    const double crt_words = double(words(p.primes * kPrimeBits));
    const double bytes = 8.0 * (operand_words + double(p.out_length) * crt_words);
    const double word_products =
        operand_words * double(p.primes) + double(p.out_length) * double(p.primes) * double(p.primes);
    return kGpuSecondsPerCall + bytes / kGpuBytesPerSecond + butterflies(p) * kGpuSecondsPerButterfly +
           word_products * kGpuSecondsPerWordProduct;
}

// The powers' model (gpu_pays_for_nmod_powmod).
namespace powers {

// A step's products: the square (or product) of two polynomials of m coefficients, the
// quotient's m - 1 coefficients and the remainder's m.
double flint_step_seconds(std::uint64_t m, std::uint64_t n)
{
    const std::uint64_t length = transform_length_estimate(m, m);
    return flint_nmod_seconds(nmod_product_shape(m, m, 2 * m - 1, n, length)) +
           flint_nmod_seconds(nmod_product_shape(m - 1, m - 1, m - 1, n, length)) +
           flint_nmod_seconds(nmod_product_shape(m - 1, m, m, n, length));
}

// On the GPU every product goes through the three primes.
double gpu_step_seconds(std::uint64_t m, std::uint64_t n)
{
    PolyShape shape = nmod_product_shape(m, m, 2 * m - 1, n, transform_length_estimate(m, m));
    shape.primes = 3;
    const double word_products = double(shape.out_length) * 9;
    return kGpuPowmodSecondsPerStep + 3 * (butterflies(shape) * kGpuSecondsPerButterfly + word_products * kGpuSecondsPerWordProduct);
}

}  // namespace powers

// The resultants' models.
namespace resultants {

// FLINT 3.6's fmpz_poly_resultant (one thread) on the H200 host
// (bench/results/2026-11-26-h200-resultant-det-first.md), both polynomials of length L with 64-bit
// coefficients: 0.1 ms at L = 10, 2.7 ms at 50, 65 ms at 200, 465 ms at 500, about L^2.2; longer
// coefficients cost about in proportion (1000 of 256 bits: 11.3 s). The bound's bits a
// coefficient measure them: 67 at 500 x 64 bits.
constexpr double kFlintSeconds500x64 = 0.465;
constexpr double kFlintLengthExponent = 2.2;
constexpr double kFlintBitsPerCoefficient500x64 = 67;
// The GPU, same run: about 0.07 ms a call, and La Lb updates of a remainder sequence a prime
// (each beta a_j + c b_j mod p) at 1.7e11 a second where the primes fill the GPU (2000 x 2000
// of 64 bits, 4514 primes: 106 ms).
constexpr double kGpuSecondsPerCall = 0.07e-3;
constexpr double kGpuSecondsPerUpdate = 1 / 1.7e11;
// One resultant modulo a prime: FLINT's nmod_poly_resultant (Euclid, then the half-gcd) against
// one block of the GPU, on the H200 host (bench/results/2026-11-26-h200-nmod-resultant-cde638a.md):
// FLINT 1.18 ms at length 1000, 9.5 ms at 3000 (about L^1.9), 45 ms at 10000 and 171 ms at
// 30000 (about L^1.25); the GPU about 0.05 ms a call, 1.2 microseconds an elimination (each ends
// with a __syncthreads; (La + Lb) / 2 of them) and 6.4e-10 s an update (0.47, 1.9, 9.4 and
// 76 ms at 300, 1000, 3000 and 10000). They tie near 3000; FLINT wins elsewhere.
constexpr double kFlintNmodSeconds3000 = 9.5e-3, kFlintNmodHalfGcdFrom = 3000;
constexpr double kFlintNmodEuclidExponent = 1.9, kFlintNmodHalfGcdExponent = 1.25;
constexpr double kGpuNmodSecondsPerCall = 0.05e-3, kGpuNmodSecondsPerElimination = 1.2e-6;
constexpr double kGpuNmodSecondsPerUpdate = 6.4e-10;

}  // namespace resultants

}  // namespace

std::uint64_t transform_length_estimate(std::uint64_t a_length, std::uint64_t b_length)
{
    return std::bit_ceil(std::max<std::uint64_t>(16, a_length + b_length - 1));
}

std::uint64_t crt_primes_estimate(std::uint64_t bits) { return (bits + 1) / kPrimeBits + 1; }

std::uint64_t nmod_primes_estimate(std::uint64_t n, std::uint64_t transform_length)
{
    return n < (std::uint64_t(1) << 62) && (n - 1) % transform_length == 0 ? 1 : 3;
}

PolyShape nmod_product_shape(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t out_length, std::uint64_t n,
                             std::uint64_t transform_length)
{
    const std::uint64_t bits = std::uint64_t(std::bit_width(n - 1));
    return {a_length, b_length, out_length, bits, bits, transform_length, nmod_primes_estimate(n, transform_length)};
}

std::uint64_t fmpz_product_bits(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t a_bits, std::uint64_t b_bits)
{
    const std::uint64_t shorter = std::max<std::uint64_t>(1, std::min(a_length, b_length));
    return a_bits + b_bits + std::uint64_t(std::bit_width(shorter - 1));
}

PolyShape fmpz_product_shape(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t out_length, std::uint64_t a_bits,
                             std::uint64_t b_bits)
{
    return {a_length, b_length, out_length, a_bits, b_bits, transform_length_estimate(a_length, b_length),
            crt_primes_estimate(fmpz_product_bits(a_length, b_length, a_bits, b_bits))};
}

PolyShape fmpz_power_shape(std::uint64_t length, std::uint64_t e, std::uint64_t bits)
{
    const std::uint64_t out_length = (length - 1) * e + 1, half = (out_length + 1) / 2;
    return fmpz_product_shape(half, half, out_length, (bits + 1) / 2, (bits + 1) / 2);
}

double flint_nmod_seconds(const PolyShape& p) { return kFlintSecondsPerProduct + bit_logs(p) * kFlintNmodSecondsPerBitLog; }
double flint_fmpz_seconds(const PolyShape& p)
{
    const double rate = coefficient_bits(p) <= kFlintSmallPrimeBits ? kFlintFmpzSmallSecondsPerBitLog : kFlintFmpzSecondsPerBitLog;
    return kFlintSecondsPerProduct + bit_logs(p) * rate;
}

bool gpu_pays_for_nmod_products(std::span<const PolyShape> products, unsigned threads)
{
    if (products.empty()) return false;
    double cpu = 0, gpu = kGpuNmodSecondsPerCall;
    for (const PolyShape& p : products) {
        cpu += flint_nmod_seconds(p);
        gpu += gpu_nmod_seconds(p);
    }
    cpu = products.size() == 1 ? flint_call_seconds(cpu, threads) : cpu / double(std::max(1u, threads));
    return gpu < cpu;
}

bool gpu_pays_for_fmpz_poly_product(const PolyShape& product, unsigned threads)
{
    return gpu_fmpz_seconds(product) < flint_call_seconds(flint_fmpz_seconds(product), threads);
}

bool gpu_pays_for_nmod_resultant(std::size_t a_length, std::size_t b_length)
{
    const double length = double(std::max(a_length, b_length));
    namespace r = resultants;
    const double exponent = length < r::kFlintNmodHalfGcdFrom ? r::kFlintNmodEuclidExponent : r::kFlintNmodHalfGcdExponent;
    const double cpu = r::kFlintNmodSeconds3000 * std::pow(length / r::kFlintNmodHalfGcdFrom, exponent);
    const double gpu = r::kGpuNmodSecondsPerCall + double(a_length + b_length) / 2 * r::kGpuNmodSecondsPerElimination +
                       double(a_length) * double(b_length) * r::kGpuNmodSecondsPerUpdate;
    return gpu < cpu;
}

double flint_resultant_seconds(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits)
{
    const double length = double(std::max(a_length, b_length));
    const double bits_per_coefficient = double(bound_bits) / double(a_length + b_length);
    namespace r = resultants;
    return r::kFlintSeconds500x64 * std::pow(length / 500, r::kFlintLengthExponent) *
           std::max(1.0, bits_per_coefficient / r::kFlintBitsPerCoefficient500x64);
}

bool gpu_pays_for_resultant(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits)
{
    const double cpu = flint_resultant_seconds(a_length, b_length, bound_bits);
    const double primes = double(bound_bits + 1) / kPrimeBits + 1;
    const double gpu =
        resultants::kGpuSecondsPerCall + double(a_length) * double(b_length) * primes * resultants::kGpuSecondsPerUpdate;
    return gpu < cpu;
}

double flint_fmpz_compose_seconds(const ComposeShape& c, unsigned threads)
{
    // Level i of FLINT's divide and conquer multiplies about f_length / 2^(i + 1) blocks of f's
    // terms, each a polynomial in h of degree 2^i - 1, by h^(2^i), and squares h^(2^i) for the
    // next level: products of about 2^i (h_length - 1) coefficients of 2^i bits(h) bits, the
    // blocks' carrying f's bits too.
    const double h_term_bits = double(c.h_bits) + std::log2(double(c.h_length));
    double seconds = 0;
    for (std::uint64_t span = 2; span < c.f_length; span *= 2) {
        const std::uint64_t length = span * (c.h_length - 1) + 1;
        const std::uint64_t power_bits = std::uint64_t(double(span) * h_term_bits);
        const PolyShape block = fmpz_product_shape(length, length, 2 * length - 1, power_bits, power_bits + c.f_bits);
        const PolyShape square = fmpz_product_shape(length, length, 2 * length - 1, power_bits, power_bits);
        const double blocks = std::max(1.0, double(c.f_length) / double(2 * span));
        seconds += blocks * flint_call_seconds(flint_fmpz_seconds(block), threads) + flint_call_seconds(flint_fmpz_seconds(square), threads);
    }
    return seconds;
}

bool gpu_pays_for_fmpz_poly_compose(const ComposeShape& c, unsigned threads)
{
    // FLINT's shortcuts (Horner's rule for f of at most 4 terms, a Taylor shift for h of 2) are
    // not what the model estimates; the GPU's Horner steps grow as len(f)^2 for h of 2.
    if (c.f_length <= 4 || c.h_length <= 2) return false;
    const std::uint64_t out_length = (c.f_length - 1) * (c.h_length - 1) + 1;
    if (double(out_length) * double(c.bits) < kGpuComposeFromBits) return false;
    const double transform = double(transform_length_estimate(out_length, 1));
    const double primes = double(crt_primes_estimate(c.bits));
    const double operand_words = double(c.f_length * words(c.f_bits) + c.h_length * words(c.h_bits));
    const double bytes = 8.0 * (operand_words + double(out_length) * double(words(c.bits + 1)));
    const double word_products = operand_words * primes + double(out_length) * primes * primes;
    const double gpu = kGpuSecondsPerCall + bytes / kGpuBytesPerSecond + primes * transform * log2_at_least_one(transform) * kGpuSecondsPerButterfly +
                       primes * transform * double(c.f_length - 1) * kGpuSecondsPerHornerStep + word_products * kGpuSecondsPerWordProduct;
    return gpu < flint_fmpz_compose_seconds(c, threads);
}

std::uint64_t powering_squarings(std::uint64_t e) { return std::uint64_t(std::bit_width(e) - 1); }

std::uint64_t powering_steps(std::uint64_t e) { return powering_squarings(e) + std::uint64_t(std::popcount(e) - 1); }

bool gpu_pays_for_nmod_powmod(std::uint64_t m, std::uint64_t gpu_steps, std::uint64_t flint_steps, std::uint64_t n,
                              unsigned threads)
{
    if (m < 2 || gpu_steps == 0 || flint_steps == 0) return false;
    const double flint = double(flint_steps) * flint_call_seconds(powers::flint_step_seconds(m, n), threads);
    const double transfers = 8.0 * double(4 * m) / kGpuBytesPerSecond;
    const double gpu = kGpuNmodSecondsPerCall + transfers + double(gpu_steps) * powers::gpu_step_seconds(m, n);
    return gpu < flint;
}

bool gpu_pays_for_nmod_compose(std::uint64_t m, std::uint64_t rounds, std::uint64_t gpu_steps, std::uint64_t flint_steps,
                               std::uint64_t words, std::uint64_t n, unsigned threads)
{
    if (m < 2 || flint_steps == 0) return false;
    const double flint = double(flint_steps) * flint_call_seconds(powers::flint_step_seconds(m, n), threads);
    // A batch's steps share its launches: the step's latency once a round, its work a product.
    const double work = powers::gpu_step_seconds(m, n) - kGpuPowmodSecondsPerStep;
    const double gpu = kGpuNmodSecondsPerCall + 8.0 * double(words) / kGpuBytesPerSecond + double(rounds) * kGpuPowmodSecondsPerStep +
                       double(gpu_steps) * work;
    return gpu < flint;
}

}  // namespace zgpu::poly
