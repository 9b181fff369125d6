// Helpers shared by the benchmarks: checked CUDA calls, medians of timings, random limbs.
#pragma once

#include <algorithm>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include <cuda_runtime.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod.h>
#include <flint/nmod_mat.h>

#include "adapters/flint_headers_check.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/zgpu.h"

namespace {

void check(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

// The stream-ordered pool keeps up to 1 GiB between operations, as the plugin's runtime sets it
// for its calls: benchmarks of the kernels alone would otherwise time the pool giving memory back
// at every synchronization and mapping it again.
inline void keep_pool_memory()
{
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, 0), "default memory pool");
    std::uint64_t keep = std::uint64_t(1) << 30;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "memory pool threshold");
}

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median of `repeats` timings of op(), after two warm-up calls; `finish` waits for the work, and
// `untimed`, if given, runs before each timed call.
double median_seconds(int repeats, const std::function<void()>& op, const std::function<void()>& finish,
                      const std::function<void()>& untimed = {})
{
    op();
    op();
    finish();
    std::vector<double> times;
    for (int k = 0; k < repeats; ++k) {
        if (untimed) untimed();
        const double start = now();
        op();
        finish();
        times.push_back(now() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// An nmod_mat that frees itself.
struct Mat {
    Mat(slong r, slong c, ulong n) { nmod_mat_init(m, r, c, n); }
    ~Mat() { nmod_mat_clear(m); }
    Mat(const Mat&) = delete;
    Mat& operator=(const Mat&) = delete;
    nmod_mat_t m;
};

// Device 0 as the benchmarks' headers describe it: its properties, its IMAD peak (64 a clock an
// SM) and the time of the run.
struct DeviceInfo {
    cudaDeviceProp prop;
    double clock_ghz, imad_peak;
    char date[64];
};

// Each line reaches a file as it is printed, so that a benchmark stopped by a time limit keeps
// the rows it measured (a run's buffered table was lost that way).
inline const bool kLineBufferedOutput = std::setvbuf(stdout, nullptr, _IOLBF, 0) == 0;

inline DeviceInfo device_info()
{
    DeviceInfo d{};
    check(cudaGetDeviceProperties(&d.prop, 0), "cudaGetDeviceProperties");
    int clock_khz = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock rate");
    d.clock_ghz = clock_khz / 1e6;
    d.imad_peak = 64.0 * d.prop.multiProcessorCount * clock_khz * 1e3;
    const std::time_t t = std::time(nullptr);
    std::strftime(d.date, sizeof d.date, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return d;
}

// One timing of op() by CUDA events on the default stream.
double event_seconds_once(const std::function<void()>& op)
{
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    check(cudaEventRecord(start), "record");
    op();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "synchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    check(cudaGetLastError(), "kernels");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return t * 1e-3;
}

// Median of 10 timings of op() by CUDA events, after two warm-up calls.
double event_seconds(const std::function<void()>& op)
{
    op();
    op();
    std::vector<double> times;
    for (int r = 0; r < 10; ++r) times.push_back(event_seconds_once(op));
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

__host__ __device__ std::uint64_t mix(std::uint64_t x)  // splitmix64: random-looking limbs
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Full n-limb elements with random limbs and random signs.
__global__ void fill_random(zgpu::BatchView batch, std::uint32_t n, std::uint64_t seed)
{
    const std::size_t total = batch.count * batch.stride;
    for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < total; k += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t i = k / batch.stride, j = k % batch.stride;
        const std::uint64_t x = mix(seed * 0x100000000ull + k);
        batch.limbs[k] = j < n ? (j == n - 1 ? x | (1ull << 63) : x) : 0;
        if (j == 0) batch.sizes[i] = (x >> 7) & 1 ? -std::int32_t(n) : std::int32_t(n);
    }
}

// Random entries, and rank at most `rank` where it is below the smaller side: the first `rank`
// rows random, each later row the sum of two earlier ones.
inline void fill_of_rank(nmod_mat_t a, slong rank, std::uint64_t seed)
{
    for (slong i = 0; i < a->r; ++i)
        for (slong j = 0; j < a->c; ++j)
            nmod_mat_entry(a, i, j) = i < rank ? mix(seed + std::uint64_t(i * a->c + j)) % a->mod.n
                                               : nmod_add(nmod_mat_entry(a, i - rank, j), nmod_mat_entry(a, (i * 7) % rank, j), a->mod);
}

// FLINT's fmpz values of exactly n limbs, random limbs, random signs.
inline void fill_fmpz(fmpz* values, slong count, std::uint32_t n, std::uint64_t seed)
{
    std::vector<ulong> limbs(n);
    for (slong i = 0; i < count; ++i) {
        for (std::uint32_t j = 0; j < n; ++j) limbs[j] = mix(seed + i * 1000003ull + j);
        limbs[n - 1] |= 1ull << 63;
        fmpz_set_ui_array(values + i, limbs.data(), n);
        if (limbs[0] & 1) fmpz_neg(values + i, values + i);
    }
}

// FLINT's call on `threads` threads, timed on its second call (the first starts FLINT's threads
// and tables); FLINT's default of one thread again afterwards.
inline double flint_second_call_seconds(int threads, const std::function<void()>& call)
{
    flint_set_num_threads(threads);
    call();
    const double start = now();
    call();
    const double seconds = now() - start;
    flint_set_num_threads(1);
    return seconds;
}

// Median time of a zgpu C call (0 on success) with ZGPU_BACKEND set to `backend`; exits with
// zgpu's message if it fails.
inline double zgpu_seconds(const char* backend, const std::function<int()>& call)
{
    setenv("ZGPU_BACKEND", backend, 1);
    const double t = median_seconds(5, [&] {
        if (call() != 0) {
            std::fprintf(stderr, "%s\n", zgpu_last_error());
            std::exit(1);
        }
    }, [] {});
    unsetenv("ZGPU_BACKEND");
    return t;
}

// Runs body(begin, end) over [0, n) split across `threads` host threads.
inline void on_threads(slong n, unsigned threads, const std::function<void(slong, slong)>& body)
{
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(body, n * t / threads, n * (t + 1) / threads);
    for (auto& th : pool) th.join();
}

// The host threads' memcpy rate from pageable to pinned memory and back (256 MiB, median of 5),
// in bytes a second: the most the host's packing and unpacking could reach.
inline double host_copy_rate(unsigned threads)
{
    constexpr slong kBytes = slong(256) << 20;
    std::vector<std::byte> pageable(kBytes);  // value-initialised: every page touched
    std::byte* pinned = nullptr;
    check(cudaMallocHost(&pinned, kBytes), "cudaMallocHost");
    const auto copy = [&](std::byte* to, const std::byte* from) {
        return median_seconds(5, [&] {
            on_threads(kBytes, threads, [&](slong begin, slong end) { std::memcpy(to + begin, from + begin, end - begin); });
        }, [] {});
    };
    const double seconds = copy(pinned, pageable.data()) + copy(pageable.data(), pinned);
    check(cudaFreeHost(pinned), "cudaFreeHost");
    return 2 * kBytes / seconds;
}

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

}  // namespace
