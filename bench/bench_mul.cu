// Products: device-resident (DeviceBatch mul) in million products per second, next to FLINT's
// fmpz_mul on one and on all host threads; and end to end (zgpu_fmpz_vec_mul, fmpz in and out)
// on each backend, which sets the automatic choice. All from this one run; markdown tables.
//   bench_mul [max_bits]    (default 16384, the GPU kernel's largest operands)
#include <string>

#include "bench_support.cuh"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

// FLINT's fmpz_mul over [0, n) on `threads` threads, in products per second.
double flint_rate(const fmpz* a, const fmpz* b, fmpz* r, slong n, unsigned threads)
{
    const double t = median_seconds(5, [&] {
        on_threads(n, threads, [&](slong begin, slong end) {
            for (slong i = begin; i < end; ++i) fmpz_mul(r + i, a + i, b + i);
        });
    }, [] {});
    return n / t;
}

void device_resident(std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### Full products, equal sizes, device-resident (DeviceBatch), median of 10\n\n");
    std::printf("| bits | count | zgpu Mprod/s | FLINT 1 thread Mprod/s | FLINT %u threads Mprod/s | zgpu / FLINT-%u | GB/s moved |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = 64; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64;
        const std::size_t count = (std::size_t(1) << 25) / n;  // 256 MiB an operand
        using zgpu::Backend, zgpu::DeviceBatch;
        DeviceBatch a(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch b(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch r(Backend::gpu, count, zgpu::size_class(2 * zgpu::size_class(n)), DeviceBatch::Uninitialized{});
        fill_random<<<1024, 256>>>(a.view(), n, 1);
        fill_random<<<1024, 256>>>(b.view(), n, 2);
        check(cudaDeviceSynchronize(), "fill");
        const double t = median_seconds(10, [&] { zgpu::mul(r, a, b); }, [] { zgpu::synchronize(Backend::gpu); });
        const double bytes = double(count) * ((a.stride() + b.stride() + r.stride()) * 8.0 + 12);

        const slong cpu_count = slong(std::min<std::size_t>(count, (std::size_t(1) << 22) / n));
        fmpz *x = _fmpz_vec_init(cpu_count), *y = _fmpz_vec_init(cpu_count), *z = _fmpz_vec_init(cpu_count);
        fill_fmpz(x, cpu_count, n, 3);
        fill_fmpz(y, cpu_count, n, 4);
        const double one = flint_rate(x, y, z, cpu_count, 1), all = flint_rate(x, y, z, cpu_count, threads);
        _fmpz_vec_clear(x, cpu_count);
        _fmpz_vec_clear(y, cpu_count);
        _fmpz_vec_clear(z, cpu_count);
        std::printf("| %u | %zu | %.1f | %.2f | %.2f | %.1f | %.0f |\n", bits, count, count / t / 1e6, one / 1e6, all / 1e6,
                    count / t / all, bytes / t / 1e9);
    }
}

void end_to_end(std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### End to end: zgpu_fmpz_vec_mul (fmpz in, fmpz out) vs fmpz_mul, median of 5\n\n");
    std::printf("| bits | count | zgpu gpu ms | zgpu cpu ms | zgpu auto ms (backend) | FLINT 1 thread ms | FLINT %u threads ms | gpu / FLINT-%u |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = 64; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64;
        const slong count = std::max<slong>(64, (slong(1) << 22) / n);
        fmpz *a = _fmpz_vec_init(count), *b = _fmpz_vec_init(count), *r = _fmpz_vec_init(count);
        fill_fmpz(a, count, n, 5);
        fill_fmpz(b, count, n, 6);
        const auto zgpu_with = [&](const char* backend) {
            return zgpu_seconds(backend, [&] { return zgpu_fmpz_vec_mul(r, a, b, count); });
        };
        const double gpu = zgpu_with("gpu"), cpu = zgpu_with("cpu"), automatic = zgpu_with("auto");
        const std::string chosen = zgpu_last_backend();
        const double one = count / flint_rate(a, b, r, count, 1), all = count / flint_rate(a, b, r, count, threads);
        std::printf("| %u | %ld | %.2f | %.2f | %.2f (%s) | %.2f | %.2f | %.2f |\n", bits, long(count), 1e3 * gpu, 1e3 * cpu,
                    1e3 * automatic, chosen.c_str(), 1e3 * one, 1e3 * all, all / gpu);
        _fmpz_vec_clear(a, count);
        _fmpz_vec_clear(b, count);
        _fmpz_vec_clear(r, count);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const std::uint32_t max_bits = argc > 1 ? std::atoi(argv[1]) : 16384;
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("## zgpu product benchmark\n\ndevice: %s, %d SMs; host threads: %u\n", prop.name, prop.multiProcessorCount,
                std::thread::hardware_concurrency());
    device_resident(max_bits);
    end_to_end(max_bits);
    flint_cleanup_master();
    return 0;
}
