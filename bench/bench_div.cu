// Division, in million divisions per second (milliseconds end to end), the dividend twice the
// divisor's size. Exact division (divexact): elementwise, by a shared divisor, and
// checked, exact quotients, next to zgpu's own full product of two dividend-size operands and
// FLINT's fmpz_divexact. Division with remainder (fdiv_qr, tdiv_qr, mod) of random
// dividends, next to FLINT's fmpz_fdiv_qr. End to end (fmpz in, fmpz out): zgpu_fmpz_vec_fdiv_qr
// and zgpu_fmpz_vec_divexact on each backend and by the automatic choice. FLINT on one and on all
// host threads; all from this one run; markdown.
//   bench_div [max_bits] [min_bits]    (dividend bits; defaults 2^18, 256; end to end up to 2^17)
#include <string>

#include "bench_support.cuh"
#include "zgpu/batch_div.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

using zgpu::Backend, zgpu::DeviceBatch;

// FLINT's fmpz_divexact (or fmpz_fdiv_qr) over [0, n) on `threads` threads, in divisions
// per second.
double flint_rate(const fmpz* a, const fmpz* b, fmpz* q, fmpz* r, slong n, unsigned threads)
{
    const double t = median_seconds(5, [&] {
        on_threads(n, threads, [&](slong begin, slong end) {
            for (slong i = begin; i < end; ++i) {
                if (r) fmpz_fdiv_qr(q + i, r + i, a + i, b + i);
                else fmpz_divexact(q + i, a + i, b + i);
            }
        });
    }, [] {});
    return n / t;
}

// Divisions on the host of dividends of n limbs by divisors of half that: rates of FLINT on
// one and on `threads` threads, exact or with remainder.
std::pair<double, double> flint_rates(std::uint32_t n, std::size_t count, unsigned threads, bool remainder)
{
    const std::uint32_t half = n / 2;
    const slong cpu_count = slong(std::min<std::size_t>(count, (std::size_t(1) << 21) / n));
    fmpz *fq = _fmpz_vec_init(cpu_count), *fb = _fmpz_vec_init(cpu_count), *fa = _fmpz_vec_init(cpu_count);
    fmpz* fr = remainder ? _fmpz_vec_init(cpu_count) : nullptr;
    fill_fmpz(fq, cpu_count, half, 5);
    fill_fmpz(fb, cpu_count, half, 6);
    if (remainder) fill_fmpz(fa, cpu_count, n, 7);
    else
        for (slong i = 0; i < cpu_count; ++i) fmpz_mul(fa + i, fq + i, fb + i);
    const std::pair rates{flint_rate(fa, fb, fq, fr, cpu_count, 1), flint_rate(fa, fb, fq, fr, cpu_count, threads)};
    for (fmpz* v : {fq, fb, fa, fr})
        if (v) _fmpz_vec_clear(v, cpu_count);
    return rates;
}

double per_second(std::size_t count, const std::function<void()>& op)
{
    return count / median_seconds(10, op, [] { zgpu::synchronize(Backend::gpu); });
}

// Stops the benchmark unless x and y hold the same elements: no rate of a wrong result.
void require_equal(const DeviceBatch& x, const DeviceBatch& y, const char* what)
{
    const zgpu::LimbBatch hx = x.download(), hy = y.download();
    for (std::size_t i = 0; i < hx.count(); ++i) {
        const int n = std::abs(hx.sizes()[i]);
        if (hx.sizes()[i] != hy.sizes()[i] || !std::equal(hx.element(i).begin(), hx.element(i).begin() + n, hy.element(i).begin())) {
            std::fprintf(stderr, "%s: element %zu differs\n", what, i);
            std::exit(1);
        }
    }
}

void exact_division(std::uint32_t min_bits, std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### Exact division, dividend twice the divisor, device-resident (DeviceBatch), median of 10\n\n");
    std::printf("bits: the dividend's. Product: zgpu mul of two operands of that size. Every quotient was compared "
                "with the one multiplied in.\n\n");
    std::printf("| bits | count | elementwise Mdiv/s | shared divisor Mdiv/s | checked Mdiv/s | product Mprod/s | "
                "FLINT 1 thread Mdiv/s | FLINT %u threads Mdiv/s | elementwise / FLINT-%u |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = min_bits; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64, half = n / 2;
        const std::size_t count = std::max<std::size_t>(64, (std::size_t(1) << 24) / n);  // 128 MiB of dividends
        DeviceBatch q(Backend::gpu, count, zgpu::size_class(half), DeviceBatch::Uninitialized{});
        DeviceBatch b(Backend::gpu, count, zgpu::size_class(half), DeviceBatch::Uninitialized{});
        DeviceBatch c(Backend::gpu, 1, zgpu::size_class(half), DeviceBatch::Uninitialized{});
        fill_random<<<1024, 256>>>(q.view(), half, 1);
        fill_random<<<1024, 256>>>(b.view(), half, 2);
        fill_random<<<1, 256>>>(c.view(), half, 3);
        check(cudaDeviceSynchronize(), "fill");
        DeviceBatch a, a_shared, quotient;
        zgpu::mul(a, q, b);
        zgpu::mul(a_shared, q, c);
        const double elementwise = per_second(count, [&] { zgpu::divexact(quotient, a, b); });
        require_equal(quotient, q, "elementwise quotients");
        const double shared = per_second(count, [&] { zgpu::divexact(quotient, a_shared, c); });
        require_equal(quotient, q, "shared-divisor quotients");
        const double checked = per_second(count, [&] { zgpu::divexact_checked(quotient, a, b); });
        DeviceBatch x(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{}), product;
        fill_random<<<1024, 256>>>(x.view(), n, 4);
        const double products = per_second(count, [&] { zgpu::mul(product, x, a); });

        const auto [one, all] = flint_rates(n, count, threads, false);
        std::printf("| %u | %zu | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.1f |\n", bits, count, elementwise / 1e6,
                    shared / 1e6, checked / 1e6, products / 1e6, one / 1e6, all / 1e6, elementwise / all);
        std::fflush(stdout);
    }
}

// x[i] = |x[i]|: mod needs a positive modulus.
__global__ void take_absolute_values(zgpu::BatchView x)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < x.count; i += std::size_t(gridDim.x) * blockDim.x)
        x.sizes[i] = std::abs(x.sizes[i]);
}

// The divisors of the GPU's division with remainder (longer ones go through the host).
constexpr std::uint32_t kLargestGpuDivisorBits = 64 * 512;

void division_with_remainder(std::uint32_t min_bits, std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### Division with remainder, random dividends twice the divisor, device-resident, median of 10\n\n");
    std::printf("bits: the dividend's. Every result was checked: q b + r = a.\n\n");
    std::printf("| bits | count | fdiv_qr Mdiv/s | tdiv_qr Mdiv/s | fdiv_qr shared divisor Mdiv/s | mod Mdiv/s | "
                "FLINT fdiv_qr 1 thread Mdiv/s | FLINT %u threads Mdiv/s | fdiv_qr / FLINT-%u |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = min_bits; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64, half = n / 2;
        const std::size_t count = std::max<std::size_t>(64, (std::size_t(1) << 24) / n);
        DeviceBatch a(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch b(Backend::gpu, count, zgpu::size_class(half), DeviceBatch::Uninitialized{});
        DeviceBatch c(Backend::gpu, 1, zgpu::size_class(half), DeviceBatch::Uninitialized{});
        fill_random<<<1024, 256>>>(a.view(), n, 11);
        fill_random<<<1024, 256>>>(b.view(), half, 12);
        fill_random<<<1, 256>>>(c.view(), half, 13);
        take_absolute_values<<<1, 32>>>(c.view());
        check(cudaDeviceSynchronize(), "fill");
        DeviceBatch q, r, product, sum;
        // Stops the benchmark unless q b + r = a.
        const auto require_division = [&](const DeviceBatch& divisor, const char* what) {
            zgpu::mul(product, q, divisor);
            zgpu::add(sum, product, r);
            require_equal(sum, a, what);
        };
        const double floor = per_second(count, [&] { zgpu::fdiv_qr(q, r, a, b); });
        require_division(b, "fdiv_qr");
        const double truncated = per_second(count, [&] { zgpu::tdiv_qr(q, r, a, b); });
        require_division(b, "tdiv_qr");
        const double shared = per_second(count, [&] { zgpu::fdiv_qr(q, r, a, c); });
        require_division(c, "fdiv_qr by a shared divisor");
        const double modulus = per_second(count, [&] { zgpu::mod(r, a, c); });
        zgpu::fdiv_qr(q, sum, a, c);
        require_equal(r, sum, "mod");
        const auto [one, all] = flint_rates(n, count, threads, true);
        std::printf("| %u | %zu | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.1f |\n", bits, count, floor / 1e6,
                    truncated / 1e6, shared / 1e6, modulus / 1e6, one / 1e6, all / 1e6, floor / all);
        std::fflush(stdout);
    }
}

// The host entry points, fmpz in and fmpz out, transfers and conversions included: the
// measurements behind the automatic choice's threshold (plugin/host_dispatch.cpp).
void end_to_end(std::uint32_t min_bits, std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### End to end: zgpu_fmpz_vec_fdiv_qr and zgpu_fmpz_vec_divexact (fmpz in, fmpz out), median of 5\n\n");
    std::printf("| bits | count | fdiv_qr gpu ms | fdiv_qr cpu ms | fdiv_qr auto ms (backend) | FLINT fdiv_qr %u threads ms | "
                "divexact gpu ms | divexact cpu ms | divexact auto ms (backend) | FLINT divexact %u threads ms |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = min_bits; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64, half = std::max(1u, n / 2);
        const slong count = std::max<slong>(64, (slong(1) << 22) / n);  // 32 MiB of dividends
        fmpz *a = _fmpz_vec_init(count), *b = _fmpz_vec_init(count), *q = _fmpz_vec_init(count), *r = _fmpz_vec_init(count);
        fmpz* exact = _fmpz_vec_init(count);
        fill_fmpz(a, count, n, 21);
        fill_fmpz(b, count, half, 22);
        fill_fmpz(q, count, n - half, 23);
        for (slong i = 0; i < count; ++i) fmpz_mul(exact + i, q + i, b + i);
        const auto fdiv = [&](const char* backend) { return zgpu_seconds(backend, [&] { return zgpu_fmpz_vec_fdiv_qr(q, r, a, b, count); }); };
        const auto divexact = [&](const char* backend) { return zgpu_seconds(backend, [&] { return zgpu_fmpz_vec_divexact(q, exact, b, count); }); };
        const double fdiv_gpu = fdiv("gpu"), fdiv_cpu = fdiv("cpu"), fdiv_auto = fdiv("auto");
        const std::string fdiv_chosen = zgpu_last_backend();
        const double flint_fdiv = count / flint_rate(a, b, q, r, count, threads);
        const double exact_gpu = divexact("gpu"), exact_cpu = divexact("cpu"), exact_auto = divexact("auto");
        const std::string exact_chosen = zgpu_last_backend();
        const double flint_exact = count / flint_rate(exact, b, q, nullptr, count, threads);
        std::printf("| %u | %ld | %.2f | %.2f | %.2f (%s) | %.2f | %.2f | %.2f | %.2f (%s) | %.2f |\n", bits, long(count),
                    1e3 * fdiv_gpu, 1e3 * fdiv_cpu, 1e3 * fdiv_auto, fdiv_chosen.c_str(), 1e3 * flint_fdiv, 1e3 * exact_gpu,
                    1e3 * exact_cpu, 1e3 * exact_auto, exact_chosen.c_str(), 1e3 * flint_exact);
        std::fflush(stdout);
        for (fmpz* v : {a, b, q, r, exact}) _fmpz_vec_clear(v, count);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const std::uint32_t max_bits = argc > 1 ? std::atoi(argv[1]) : 1u << 18;
    const std::uint32_t min_bits = argc > 2 ? std::atoi(argv[2]) : 256;
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("## zgpu exact division benchmark\n\ndevice: %s, %d SMs; host threads: %u\n", prop.name,
                prop.multiProcessorCount, std::thread::hardware_concurrency());
    exact_division(min_bits, max_bits);
    division_with_remainder(min_bits, std::min(max_bits, kLargestGpuDivisorBits * 2));
    end_to_end(std::max(min_bits, 128u), std::min(max_bits, 131072u));
    flint_cleanup_master();
    return 0;
}
