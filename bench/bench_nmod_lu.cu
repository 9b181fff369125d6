// zgpu_nmod_mat_det and zgpu_nmod_mat_rank end to end (a FLINT matrix in, a word out) on the
// GPU, the CPU backend and the automatic choice, next to FLINT 3's nmod_mat_det and
// nmod_mat_rank on one and on all host threads, modulo a 62-bit prime.
// Bounds: the trailing updates' n^3 / 3 multiply-adds at 8 IMADs each against the IMAD peak
// (64 a clock an SM), and the matrix over PCIe at 55 GB/s; the panels (n / 16 of them, one
// block each) are latency, not throughput, and the table shows what is left for them.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include <flint/flint.h>
#include <flint/nmod.h>
#include <flint/nmod_mat.h>

#include "bench_support.cuh"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace {

constexpr double kPcieBytesPerSecond = 55e9;
constexpr ulong kPrime62 = (ulong(1) << 62) - 57;

std::string ms(double seconds) { return std::to_string(1e3 * seconds).substr(0, 8); }

// One row: the det (square, full rank) or the rank of a rows x cols matrix of rank `rank`; FLINT
// on all threads (median of 3, one call from 1 s) and on one (one call, where asked).
void row(bool det, slong rows, slong cols, slong rank, unsigned threads, bool flint_one_thread, double imad_peak)
{
    Mat a(rows, cols, kPrime62);
    fill_of_rank(a.m, rank, std::uint64_t(rows * 1000 + cols));
    ulong det_ours = 0, det_theirs = 0;
    slong rank_ours = -1, rank_theirs = -1;
    const auto flint_call = [&] {
        if (det) det_theirs = nmod_mat_det(a.m);
        else rank_theirs = nmod_mat_rank(a.m);
    };
    const auto zgpu_call = [&] { return det ? zgpu_nmod_mat_det(&det_ours, a.m) : zgpu_nmod_mat_rank(&rank_ours, a.m); };
    const auto same = [&] { return det ? det_ours == det_theirs : rank_ours == rank_theirs; };
    flint_set_num_threads(int(threads));
    double start = now();
    flint_call();
    double flint_all = now() - start;
    if (flint_all < 1) flint_all = median_seconds(3, flint_call, [] {});
    flint_set_num_threads(1);
    double flint_one = 0;
    if (flint_one_thread) {
        start = now();
        flint_call();
        flint_one = now() - start;
    }
    const double gpu = zgpu_seconds("gpu", zgpu_call);
    if (!same()) {
        std::fprintf(stderr, "%s of %ld x %ld: the GPU's differs from FLINT's\n", det ? "det" : "rank", long(rows), long(cols));
        std::exit(1);
    }
    const double cpu = zgpu_seconds("cpu", zgpu_call);
    const double automatic = zgpu_seconds("auto", zgpu_call);
    const std::string picked = zgpu_last_backend();
    if (!same()) {
        std::fprintf(stderr, "%s of %ld x %ld: a result differs from FLINT's\n", det ? "det" : "rank", long(rows), long(cols));
        std::exit(1);
    }
    const double terms = double(rows) * double(cols) * double(std::min(rows, cols)) / 3;
    const double update_at_peak = 8 * terms / imad_peak, pcie = 8.0 * double(rows) * double(cols) / kPcieBytesPerSecond;
    std::printf("| %s | %ld x %ld | %ld | %s | %s | %s (%s) | %.2f | %s | %s | %.1f | %s | %.3f | %.3f | %.0f %% |\n", det ? "det" : "rank",
                long(rows), long(cols), long(rank), ms(gpu).c_str(), ms(cpu).c_str(), ms(automatic).c_str(), picked.c_str(),
                automatic / std::min(gpu, cpu), flint_one_thread ? ms(flint_one).c_str() : "-", ms(flint_all).c_str(), flint_all / gpu,
                flint_one_thread ? std::to_string(flint_one / gpu).substr(0, 6).c_str() : "-", 1e3 * update_at_peak, 1e3 * pcie,
                100 * (update_at_peak + pcie) / gpu);
}

// The GPU's determinant of one random n x n matrix, three times, and nothing else: for profilers.
int profile(slong n)
{
    Mat a(n, n, kPrime62);
    fill_of_rank(a.m, n, 1);
    setenv("ZGPU_BACKEND", "gpu", 1);
    for (int k = 0; k < 3; ++k) {
        ulong det = 0;
        const double start = now();
        if (zgpu_nmod_mat_det(&det, a.m) != 0) return std::fprintf(stderr, "%s\n", zgpu_last_error()), 1;
        std::printf("det of %ld x %ld on the GPU: %.3f ms\n", long(n), long(n), 1e3 * (now() - start));
    }
    return 0;
}

}  // namespace

// With an argument n, only the GPU's determinant of an n x n matrix (for profilers).
int main(int argc, char** argv)
{
    if (argc > 1) return profile(std::atol(argv[1]));
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const DeviceInfo device = device_info();
    std::printf("## zgpu determinants and ranks mod p of one matrix\n\ndevice: %s, %d SMs, %.2f GHz; IMAD peak %.3g a second; host "
                "threads: %u; FLINT %s; %s\n\n",
                device.prop.name, device.prop.multiProcessorCount, device.clock_ghz, device.imad_peak, threads, flint_version,
                device.date);
    std::printf("Modulo the prime 2^62 - 57. gpu / cpu / auto: ZGPU_BACKEND, median of 5 after two calls; cpu is FLINT's function "
                "on all %u threads (one below about 1 ms); auto's backend in brackets; auto / best: auto over the faster forced "
                "backend. FLINT 1 / %u: nmod_mat_det or nmod_mat_rank with flint_set_num_threads(1) / (%u), in this process "
                "(all threads: median of 3 below 1 s, else one call; one thread: one call). Bounds: the trailing updates (rows "
                "cols min / 3 multiply-adds, 8 IMADs each) at the IMAD peak, and the matrix over PCIe at 55 GB/s; share: both "
                "over the gpu time. Every result is checked against FLINT's.\n\n"
                "| | shape | rank | gpu ms | cpu ms | auto ms | auto / best | FLINT 1 ms | FLINT %u ms | x FLINT-%u | x FLINT-1 | "
                "update at peak ms | PCIe ms | share |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, threads, threads, threads, threads);
    for (const slong n : {16, 32, 64, 100, 128, 200, 256, 400, 512, 1024, 2048})
        row(true, n, n, n, threads, true, device.imad_peak);
    row(true, 4096, 4096, 4096, threads, false, device.imad_peak);
    row(true, 2048, 2048, 1024, threads, true, device.imad_peak);  // singular: the GPU stops at the first column without a pivot
    for (const slong n : {64, 128, 256, 512, 1024, 2048}) row(false, n, n, n, threads, true, device.imad_peak);
    row(false, 1000, 4000, 1000, threads, true, device.imad_peak);
    row(false, 4000, 1000, 600, threads, true, device.imad_peak);
    row(false, 2000, 2000, 1000, threads, true, device.imad_peak);
    flint_cleanup_master();
    return 0;
}
