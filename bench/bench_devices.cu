// Operations on host vectors split over the host's GPUs: each case end to end (FLINT values in
// and out, ZGPU_BACKEND=gpu) on the first device alone and on every visible device, in one run,
// the two results compared; next to FLINT on one and on all host threads (vectors: timed on a
// part and scaled; polynomial products: FLINT's own threads, one call on one thread).
//   bench_devices [scale] [reverse|forward] [poly]
//   (counts times 2^scale, default 0; reverse: every device first; poly: the polynomial products alone)
// Bounds: PCIe, operands up and results down, at the 55 GB/s a direction that pinned copies reach
// on the H200 host (bench/NOTES-mul.md), each GPU on its own link: D GPUs move D times as much;
// and the host's memory, which copies every operand into pinned memory and every result out of
// it, however many GPUs there are: the host threads' copy rate between pageable and pinned
// memory, measured here.
#include <cstring>
#include <string>
#include <vector>

#include <flint/flint.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_poly.h>

#include "bench_support.cuh"
#include "flint_comb_timing.cuh"
#include "host_threads.cuh"
#include "nmod_batch.cuh"
#include "zgpu/backend.hpp"

namespace {

constexpr double kPcieBytesPerSecond = 55e9;

double host_rate = 0;  // host_copy_rate, set by main

struct Timing {
    double one, all;  // seconds on the first device, on every device
};

bool all_first = false;  // time every device before the first alone (the `reverse` argument)

// The call on the first device and on all `devices` (in that order unless all_first); exits
// unless both give the same output (same_output compares what the last two calls wrote).
Timing on_one_and_all(const std::vector<int>& devices, const std::function<int()>& call,
                      const std::function<void()>& keep_output, const std::function<bool()>& same_output)
{
    const std::vector<int> first{devices[0]};
    zgpu::set_gpu_devices(all_first ? devices : first);
    const double t0 = zgpu_seconds("gpu", call);
    keep_output();
    zgpu::set_gpu_devices(all_first ? first : devices);
    const double t1 = zgpu_seconds("gpu", call);
    zgpu::set_gpu_devices(devices);
    const double one = all_first ? t1 : t0, all = all_first ? t0 : t1;
    if (!same_output()) {
        std::fprintf(stderr, "the split call's output differs from the one-device call's\n");
        std::exit(1);
    }
    return {one, all};
}

void print_row(const char* call, slong n, std::uint32_t bits, slong k, std::size_t devices, const Timing& t, double bytes,
               double flint_one, double flint_all)
{
    const double d = double(devices);
    std::printf("| %s | %ld | %u | %ld | %.2f | %.2f | %.2f | %.0f %% | %.0f %% | %.0f %% | %.1f | %.1f | %.1f |\n", call, long(n),
                bits, long(k), 1e3 * t.one, 1e3 * t.all, t.one / t.all, 100 * bytes / kPcieBytesPerSecond / t.one,
                100 * bytes / (d * kPcieBytesPerSecond) / t.all, 100 * bytes / host_rate / t.all, 1e3 * flint_one,
                1e3 * flint_all, flint_all / t.all);
    std::fflush(stdout);
}

void products(const std::vector<int>& devices, slong n, std::uint32_t bits, unsigned threads)
{
    const std::uint32_t limbs = bits / 64;
    fmpz *a = _fmpz_vec_init(n), *b = _fmpz_vec_init(n), *r = _fmpz_vec_init(n), *kept = _fmpz_vec_init(n);
    fill_fmpz(a, n, limbs, 11);
    fill_fmpz(b, n, limbs, 12);
    const Timing t = on_one_and_all(
        devices, [&] { return zgpu_fmpz_vec_mul(r, a, b, n); }, [&] { _fmpz_vec_set(kept, r, n); },
        [&] { return bool(_fmpz_vec_equal(kept, r, n)); });
    const slong part = std::min<slong>(n, std::max<slong>(threads, slong(1 << 22) / limbs));
    const double flint_one = n / flint_rate(a, b, r, part, 1), flint_all = n / flint_rate(a, b, r, part, threads);
    print_row("fmpz_vec_mul", n, bits, 0, devices.size(), t, 8.0 * n * 4 * limbs, flint_one, flint_all);
    for (fmpz* v : {a, b, r, kept}) _fmpz_vec_clear(v, n);
}

// A polynomial of `length` coefficients of `bits` bits (full limbs, random signs).
void random_poly(fmpz_poly_t p, slong length, std::uint32_t bits, std::uint64_t seed)
{
    fmpz_poly_fit_length(p, length);
    fill_fmpz(p->coeffs, length, bits / 64, seed);
    _fmpz_poly_set_length(p, length);
}

void polynomial_products(const std::vector<int>& devices, slong length, std::uint32_t bits, unsigned threads)
{
    fmpz_poly_t a, b, r, kept;
    for (fmpz_poly_struct* p : {a, b, r, kept}) fmpz_poly_init(p);
    random_poly(a, length, bits, 21);
    random_poly(b, length, bits, 22);
    const Timing t = on_one_and_all(
        devices, [&] { return zgpu_fmpz_poly_mul(r, a, b); }, [&] { fmpz_poly_set(kept, r); },
        [&] { return bool(fmpz_poly_equal(kept, r)); });
    // FLINT's own threads (flint_set_num_threads); one call on one thread, which takes seconds.
    flint_set_num_threads(int(threads));
    const double flint_all = median_seconds(3, [&] { fmpz_poly_mul(r, a, b); }, [] {});
    flint_set_num_threads(1);
    const double start = now();
    fmpz_poly_mul(r, a, b);
    const double flint_one = now() - start;
    // Coefficients up, products of twice the bits down.
    print_row("fmpz_poly_mul", length, bits, 0, devices.size(), t, 8.0 * length * 4 * (bits / 64), flint_one, flint_all);
    for (fmpz_poly_struct* p : {a, b, r, kept}) fmpz_poly_clear(p);
}

// 10^4 products of length 1024, each modulo its own 62-bit prime, in one zgpu_nmod_poly_mul_many
// call; FLINT's loop on one thread and split over threads kept for the run (a part, scaled).
void batched_nmod_products(const std::vector<int>& devices, unsigned threads)
{
    constexpr slong kCount = 10000, kLength = 1024, kFlintPart = 2000;
    NmodBatch d(kCount, kLength);
    const auto same = [&] {
        for (slong i = 0; i < kCount; ++i)
            if (!nmod_poly_equal(d.r.get() + i, d.flint.get() + i)) return false;
        return true;
    };
    const Timing t = on_one_and_all(
        devices, [&] { return zgpu_nmod_poly_mul_many(d.r.get(), d.a.get(), d.b.get(), kCount); },
        [&] {
            for (slong i = 0; i < kCount; ++i) nmod_poly_set(d.flint.get() + i, d.r.get() + i);
        },
        same);
    HostThreads pool(threads);
    const auto loop = [&](slong begin, slong end) {
        for (slong i = begin; i < end; ++i) nmod_poly_mul(d.flint.get() + i, d.a.get() + i, d.b.get() + i);
    };
    const double scale = double(kCount) / kFlintPart;
    const double flint_one = scale * median_seconds(3, [&] { loop(0, kFlintPart); }, [] {});
    const double flint_all = scale * median_seconds(3, [&] { pool.run(kFlintPart, loop); }, [] {});
    // Operands up, products of 2 length - 1 coefficients down.
    print_row("nmod_poly_mul_many", kCount, 62, 3, devices.size(), t, 8.0 * kCount * (4 * kLength - 1), flint_one, flint_all);
}

void reduction_and_crt(const std::vector<int>& devices, slong n, std::uint32_t bits, slong k, unsigned threads)
{
    const std::uint32_t limbs = bits / 64;
    const PrimeSet primes(k);
    FlintComb flint(primes.moduli(), limbs, std::size_t(n), threads);
    const double mod_one = flint.seconds(1, false), mod_all = flint.seconds(threads, false);
    const double crt_one = flint.seconds(1, true), crt_all = flint.seconds(threads, true);
    fmpz *values = _fmpz_vec_init(n), *back = _fmpz_vec_init(n), *kept = _fmpz_vec_init(n);
    fill_fmpz(values, n, limbs, 5);
    std::vector<std::vector<ulong>> words(static_cast<std::size_t>(k), std::vector<ulong>(static_cast<std::size_t>(n)));
    std::vector<std::vector<ulong>> words_kept;
    std::vector<ulong*> residues;
    for (auto& w : words) residues.push_back(w.data());
    const double bytes = 8.0 * double(n) * (limbs + k);
    const Timing mod = on_one_and_all(
        devices, [&] { return zgpu_fmpz_vec_multi_mod_ui(residues.data(), values, n, primes.set); },
        [&] { words_kept = words; }, [&] { return words_kept == words; });
    print_row("multi_mod", n, bits, k, devices.size(), mod, bytes, mod_one, mod_all);
    const Timing crt = on_one_and_all(
        devices, [&] { return zgpu_fmpz_vec_multi_CRT_ui(back, residues.data(), n, primes.set, 1); },
        [&] { _fmpz_vec_set(kept, back, n); }, [&] { return bool(_fmpz_vec_equal(kept, back, n)); });
    print_row("multi_CRT", n, bits, k, devices.size(), crt, bytes, crt_one, crt_all);
    if (!_fmpz_vec_equal(values, back, n)) {
        std::fprintf(stderr, "the round trip at %u bits modulo %ld primes does not give the values back\n", bits, long(k));
        std::exit(1);
    }
    for (fmpz* v : {values, back, kept}) _fmpz_vec_clear(v, n);
}

}  // namespace

int main(int argc, char** argv)
{
    const int scale = argc > 1 ? std::atoi(argv[1]) : 0;
    all_first = argc > 2 && std::string(argv[2]) == "reverse";
    const bool polynomials_only = argc > 3 && std::string(argv[3]) == "poly";
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const std::vector<int> devices = zgpu::gpu_devices();
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, devices[0]), "cudaGetDeviceProperties");
    std::printf("## zgpu operations on host vectors on one GPU and split over %zu\n\ndevices: %zu x %s; host threads: %u\n\n",
                devices.size(), devices.size(), prop.name, threads);
    host_rate = host_copy_rate(threads);
    std::printf("End to end, FLINT values in and out, ZGPU_BACKEND=gpu; median of 5, ms. The split call's output is checked "
                "equal to the one-device call's. PCIe share: operands and results over %.0f GB/s a GPU. Host copy share: the "
                "same bytes at the %.1f GB/s that the host threads' memcpy reaches between pageable and pinned memory "
                "(measured here), with every GPU. FLINT columns: "
                "fmpz_mul or the comb's loops, on a part of the values, scaled; fmpz_poly_mul with flint_set_num_threads, one call on one "
                "thread; nmod_poly_mul_many: FLINT's loop on one thread and split over the host threads. k = 0: the call picks its primes; "
                "nmod_poly_mul_many: n pairs of length 1024, each modulo its own 62-bit prime, k = 3 NTT primes.\n\n",
                kPcieBytesPerSecond / 1e9, host_rate / 1e9);
    std::printf("| call | n | bits | k | 1 GPU ms | %zu GPUs ms | scaling | PCIe share, 1 | PCIe share, %zu | host copy share, %zu | "
                "FLINT 1 thread ms | FLINT %u threads ms | %zu GPUs / FLINT-%u |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                devices.size(), devices.size(), devices.size(), threads, devices.size(), threads);
    const slong s = slong(1) << scale;
    if (!polynomials_only) {
        products(devices, s << 21, 1024, threads);
        products(devices, s << 18, 4096, threads);
        products(devices, s << 15, 32768, threads);
    }
    polynomial_products(devices, s << 14, 1024, threads);
    polynomial_products(devices, s << 16, 1024, threads);
    polynomial_products(devices, s << 16, 4096, threads);
    polynomial_products(devices, s << 18, 256, threads);
    polynomial_products(devices, s << 12, 16384, threads);
    batched_nmod_products(devices, threads);
    if (!polynomials_only) {
        reduction_and_crt(devices, s << 16, 1024, 35, threads);
        reduction_and_crt(devices, s << 16, 4096, 134, threads);
        reduction_and_crt(devices, s << 16, 32768, 1059, threads);
        reduction_and_crt(devices, s << 18, 4096, 134, threads);
    }
    flint_cleanup_master();
    return 0;
}
