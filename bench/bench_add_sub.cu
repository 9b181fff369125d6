// Add/sub throughput: device-resident (DeviceBatch) next to cudaMemcpy device-to-device
// bandwidth, and end to end (fmpz in, fmpz out) next to FLINT on one and on all host threads.
// All ratios come from this one run. Prints markdown tables.
//   bench_add_sub [max_bits] [device]   (default 2^20; "device": the device-resident table only)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>
#include <flint/fmpz_vec.h>

#include "bench_support.cuh"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

double d2d_bandwidth(std::size_t bytes)
{
    void *src, *dst;
    check(cudaMalloc(&src, bytes), "cudaMalloc");
    check(cudaMalloc(&dst, bytes), "cudaMalloc");
    check(cudaMemset(src, 0x5a, bytes), "cudaMemset");
    const double t = median_seconds(
        20, [&] { check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy"); },
        [] { check(cudaDeviceSynchronize(), "sync"); });
    cudaFree(src);
    cudaFree(dst);
    return 2.0 * bytes / t;  // read + write
}

void device_resident(std::uint32_t max_bits)
{
    const double copy = d2d_bandwidth(std::size_t(1) << 30);
    std::printf("\n### Device-resident add/sub (DeviceBatch), median of 20\n\n");
    std::printf("cudaMemcpy device-to-device, 1 GiB: %.0f GB/s (read + write)\n\n", copy / 1e9);
    std::printf("| bits | limbs | count | stride a,b / r | add GB/s | add %% of D2D | sub GB/s | sub %% of D2D | add Melem/s |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = 128; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64;
        const std::size_t count = (std::size_t(1) << 27) / n;  // 1 GiB per operand
        using zgpu::Backend, zgpu::DeviceBatch;
        DeviceBatch a(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch b(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch r(Backend::gpu, count, zgpu::size_class(n + 1), DeviceBatch::Uninitialized{});
        fill_random<<<1024, 256>>>(a.view(), n, 1);
        fill_random<<<1024, 256>>>(b.view(), n, 2);
        check(cudaDeviceSynchronize(), "fill");
        const double bytes = double(count) * ((a.stride() + b.stride() + r.stride()) * 8.0 + 3 * 4.0);
        const auto finish = [] { zgpu::synchronize(Backend::gpu); };
        const double t_add = median_seconds(20, [&] { zgpu::add(r, a, b); }, finish);
        const double t_sub = median_seconds(20, [&] { zgpu::sub(r, a, b); }, finish);
        std::printf("| %u | %u | %zu | %u / %u | %.0f | %.1f | %.0f | %.1f | %.1f |\n", bits, n, count, a.stride(), r.stride(),
                    bytes / t_add / 1e9, 100 * bytes / t_add / copy, bytes / t_sub / 1e9, 100 * bytes / t_sub / copy,
                    count / t_add / 1e6);
    }
}

void end_to_end(std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### End to end: zgpu_fmpz_vec_add (fmpz in, fmpz out) vs FLINT _fmpz_vec_add, median of 5\n\n");
    std::printf("| bits | count | zgpu gpu ms | zgpu cpu ms | zgpu auto ms (backend) | FLINT 1 thread ms | FLINT %u threads ms | gpu / FLINT-1 | gpu / FLINT-%u |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = 128; bits <= max_bits; bits *= 4) {
        const std::uint32_t n = bits / 64;
        const slong count = std::max<slong>(64, (slong(1) << 23) / n);  // 64 MiB per operand
        fmpz *a = _fmpz_vec_init(count), *b = _fmpz_vec_init(count), *r = _fmpz_vec_init(count);
        fill_fmpz(a, count, n, 1);
        fill_fmpz(b, count, n, 2);
        const auto zgpu_with = [&](const char* backend) {
            return zgpu_seconds(backend, [&] { return zgpu_fmpz_vec_add(r, a, b, count); });
        };
        const double gpu = zgpu_with("gpu"), cpu = zgpu_with("cpu"), automatic = zgpu_with("auto");
        const char* chosen = zgpu_last_backend();
        const double one = median_seconds(5, [&] { _fmpz_vec_add(r, a, b, count); }, [] {});
        const double all = median_seconds(5, [&] {
            on_threads(count, threads, [&](slong begin, slong end) { _fmpz_vec_add(r + begin, a + begin, b + begin, end - begin); });
        }, [] {});
        std::printf("| %u | %ld | %.2f | %.2f | %.2f (%s) | %.2f | %.2f | %.2f | %.2f |\n", bits, long(count), 1e3 * gpu,
                    1e3 * cpu, 1e3 * automatic, chosen, 1e3 * one, 1e3 * all, one / gpu, all / gpu);
        _fmpz_vec_clear(a, count);
        _fmpz_vec_clear(b, count);
        _fmpz_vec_clear(r, count);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const std::uint32_t max_bits = argc > 1 ? std::atoi(argv[1]) : (1u << 20);
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("## zgpu add/sub benchmark\n\ndevice: %s, %d SMs, %.0f MB L2; host threads: %u\n", prop.name,
                prop.multiProcessorCount, prop.l2CacheSize / 1e6, std::thread::hardware_concurrency());
    device_resident(max_bits);
    if (argc <= 2 || std::string(argv[2]) != "device") end_to_end(max_bits);
    flint_cleanup_master();
    return 0;
}
