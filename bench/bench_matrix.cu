// Matrix products mod n: the kernels on device-resident matrices (one product, and a batch of
// the same shapes modulo many primes, as a multi-modular product over Z does) against the IMAD
// peak and cuBLAS's int8 GEMMs alone, and zgpu_nmod_mat_mul end to end (FLINT matrices in and out) on the GPU, the CPU backend
// and the automatic choice, next to FLINT 3's nmod_mat_mul on one and on all host threads.
// Bounds: the kernel counts 8 IMADs a multiply-add (four 32 x 32-bit products, low and high
// halves) against 64 IMADs a clock an SM; end to end, the three matrices over PCIe at 55 GB/s a
// direction.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <flint/flint.h>
#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>

#include "bench_support.cuh"
#include "kernels/matrix/det_mod.hpp"
#include "kernels/matrix/mat_mul_mod.hpp"
#include "kernels/matrix/mat_mul_tensor.hpp"
#include "kernels/matrix/tensor_moduli.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace {

// The FLINT ms and x FLINT columns of a row: "-" where FLINT did not run.
struct FlintColumns {
    FlintColumns(bool ran, double flint_seconds, double gpu_seconds)
    {
        if (!ran) return;
        std::snprintf(ms, sizeof ms, "%.1f", 1e3 * flint_seconds);
        std::snprintf(ratio, sizeof ratio, "%.1f", flint_seconds / gpu_seconds);
    }
    char ms[32] = "-", ratio[32] = "-";
};

using zgpu::limb_t;

constexpr double kPcieBytesPerSecond = 55e9;

// Bytes spread over [-128, 127], as residues are: the tensor cores draw more power, and may run
// slower, on changing bits than on constant ones.
__global__ void fill_bytes(std::int8_t* bytes, std::size_t count)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
        bytes[i] = std::int8_t(mix(i) >> 56);
}

// The same GEMMs as mat_mul_mod_tensor runs for `count` n x n products (t small moduli each),
// alone: cuBLAS's int8 GEMM on bytes already in place, the bound of the tensor path.
double blas_gemms_seconds(cublasHandle_t blas, std::size_t n, std::size_t count, unsigned t)
{
    const std::size_t padded = (n + 15) / 16 * 16, ldc = (n + 3) / 4 * 4, batch = t * count;
    std::int8_t *a = nullptr, *b = nullptr;
    std::int32_t* c = nullptr;
    check(cudaMalloc(&a, batch * n * padded), "cudaMalloc");
    check(cudaMalloc(&b, batch * ldc * padded), "cudaMalloc");
    check(cudaMalloc(&c, batch * n * ldc * sizeof(std::int32_t)), "cudaMalloc");
    fill_bytes<<<1024, 256>>>(a, batch * n * padded);
    fill_bytes<<<1024, 256>>>(b, batch * ldc * padded);
    const std::int32_t one = 1, zero = 0;
    const double seconds = event_seconds([&] {
        for (std::size_t z = 0; z < batch; z += 65535)
            if (cublasGemmStridedBatchedEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, int(ldc), int(n), int(padded), &one, b + z * ldc * padded,
                                           CUDA_R_8I, int(padded), (long long)(ldc * padded), a + z * n * padded, CUDA_R_8I, int(padded),
                                           (long long)(n * padded), &zero, c + z * n * ldc, CUDA_R_32I, int(ldc), (long long)(n * ldc),
                                           int(std::min<std::size_t>(65535, batch - z)), CUBLAS_COMPUTE_32I,
                                           CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
                std::fprintf(stderr, "cuBLAS's int8 GEMM failed\n");
                std::exit(1);
            }
    });
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(c)}) cudaFree(p);
    return seconds;
}

// Device-resident: `count` products of n x n matrices of random residues, modulo the `count`
// largest NTT primes, on the integer units and on the tensor cores, timed by CUDA events; both
// spot-checked against the host.
void device_row(std::size_t n, std::size_t count, double imad_peak, cublasHandle_t blas)
{
    const std::vector<limb_t> primes = zgpu::kernels::ntt_primes(count);
    std::vector<zgpu::kernels::Modulus> moduli;
    for (const limb_t p : primes) moduli.push_back(zgpu::kernels::make_modulus(p));
    const std::size_t words = n * n;
    std::vector<limb_t> host(words * count);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = mix(i) % primes[i / words];
    limb_t *a = nullptr, *b = nullptr, *c = nullptr;
    zgpu::kernels::Modulus* m = nullptr;
    for (limb_t** p : {&a, &b, &c}) check(cudaMalloc(p, words * count * sizeof(limb_t)), "cudaMalloc");
    check(cudaMalloc(&m, count * sizeof *m), "cudaMalloc");
    check(cudaMemcpy(a, host.data(), words * count * sizeof(limb_t), cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(b, host.data(), words * count * sizeof(limb_t), cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(m, moduli.data(), count * sizeof *m, cudaMemcpyHostToDevice), "upload");
    const zgpu::kernels::ConstMatricesView av{a, n, n, n, words, count}, bv{b, n, n, n, words, count};
    const zgpu::kernels::MatricesView cv{c, n, n, n, words, count};
    const unsigned bits = unsigned(std::bit_width(primes[0]));
    // Spot check against the host: entries of the last product.
    const auto check_last = [&](const char* units) {
        std::vector<limb_t> got(words);
        check(cudaMemcpy(got.data(), c + (count - 1) * words, words * sizeof(limb_t), cudaMemcpyDeviceToHost), "download");
        const limb_t p = primes[count - 1];
        const limb_t* h = host.data() + (count - 1) * words;
        for (const std::size_t e : {std::size_t(0), words / 2 + 7, words - 1}) {
            const std::size_t i = e / n, j = e % n;
            unsigned __int128 s = 0;
            for (std::size_t k = 0; k < n; ++k) s = (s + (unsigned __int128)h[i * n + k] * h[k * n + j] % p) % p;
            if (limb_t(s) != got[e]) {
                std::fprintf(stderr, "device-resident %zu x %zu product %zu on the %s: entry %zu differs from the host's\n", n, n,
                             count - 1, units, e);
                std::exit(1);
            }
        }
    };
    const double imad = event_seconds([&] { zgpu::kernels::mat_mul_mod(av, bv, m, cv, nullptr); });
    check_last("integer units");
    check(cudaMemset(c, 0, words * count * sizeof(limb_t)), "cudaMemset");
    const zgpu::kernels::BlasFunctions functions{blas, &cublasSetStream, &cublasGemmStridedBatchedEx, &cublasGetStatusString};
    const double tensor = event_seconds([&] { zgpu::kernels::mat_mul_mod_tensor(functions, av, bv, m, bits, cv, nullptr); });
    check_last("tensor cores");
    const unsigned t = zgpu::kernels::tensor_moduli_count(bits, n);
    const double gemms = blas_gemms_seconds(blas, n, count, t);
    const double imads = 8 * zgpu::kernels::mat_mul_mod_terms(n, n, n, count);
    const double byte_terms = zgpu::kernels::mat_mul_tensor_terms(n, n, n, count, bits);
    std::printf("| %zu | %zu | %.3f | %.1f %% | %u | %.3f | %.3f | %.1f %% | %.0f | %.2f |\n", n, count, 1e3 * imad,
                100 * imads / imad / imad_peak, t, 1e3 * tensor, 1e3 * gemms, 100 * gemms / tensor, 2e-12 * byte_terms / gemms,
                imad / tensor);
    for (limb_t* p_ : {a, b, c}) cudaFree(p_);
    cudaFree(m);
}

double zgpu_mat_seconds(const char* backend, nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b, std::string* ran = nullptr)
{
    const double t = zgpu_seconds(backend, [&] { return zgpu_nmod_mat_mul(c, a, b); });
    if (ran) *ran = zgpu_last_backend();
    return t;
}

// End to end at n x n modulo `modulus`: zgpu's backends and FLINT's threads, every result
// checked against FLINT's.
void end_to_end_row(slong n, ulong modulus, unsigned threads, bool flint_one_thread)
{
    Mat a(n, n, modulus), b(n, n, modulus), ours(n, n, modulus), theirs(n, n, modulus);
    for (slong i = 0; i < n; ++i)
        for (slong j = 0; j < n; ++j) {
            nmod_mat_entry(a.m, i, j) = mix(std::uint64_t(i * n + j)) % modulus;
            nmod_mat_entry(b.m, i, j) = mix(std::uint64_t(i * n + j) + (1ull << 40)) % modulus;
        }
    flint_set_num_threads(int(threads));
    const double flint_all = median_seconds(3, [&] { nmod_mat_mul(theirs.m, a.m, b.m); }, [] {});
    flint_set_num_threads(1);
    double flint_one = 0;
    if (flint_one_thread) {
        const double start = now();
        nmod_mat_mul(theirs.m, a.m, b.m);
        flint_one = now() - start;
    }
    const double gpu = zgpu_mat_seconds("gpu", ours.m, a.m, b.m);
    if (!nmod_mat_equal(ours.m, theirs.m)) {
        std::fprintf(stderr, "nmod_mat_mul %ld x %ld mod %lu: the GPU's product differs from FLINT's\n", long(n), long(n), modulus);
        std::exit(1);
    }
    const double cpu = zgpu_mat_seconds("cpu", ours.m, a.m, b.m);
    std::string picked;
    const double automatic = zgpu_mat_seconds("auto", ours.m, a.m, b.m, &picked);
    if (!nmod_mat_equal(ours.m, theirs.m)) {
        std::fprintf(stderr, "nmod_mat_mul %ld x %ld mod %lu: a product differs from FLINT's\n", long(n), long(n), modulus);
        std::exit(1);
    }
    const double bytes = 8.0 * 3 * double(n) * double(n);
    const double best = std::min(gpu, cpu);
    std::printf("| %ld | %u | %.3f | %.3f | %.3f (%s) | %.2f | %s | %.3f | %.1f | %s | %.0f %% |\n", long(n), unsigned(std::bit_width(modulus)),
                1e3 * gpu, 1e3 * cpu, 1e3 * automatic, picked.c_str(), automatic / best,
                flint_one_thread ? std::to_string(1e3 * flint_one).c_str() : "-", 1e3 * flint_all, flint_all / gpu,
                flint_one_thread ? std::to_string(flint_one / gpu).substr(0, 6).c_str() : "-", 100 * bytes / kPcieBytesPerSecond / gpu);
}

// One thin product end to end, 1 x inner times inner x 1 mod a 62-bit prime: the GPU forced (its
// inner dimension in slices) against FLINT on all threads, checked equal. The bound is PCIe: the
// two operands' 16 inner bytes.
void thin_row(slong inner, unsigned threads)
{
    const ulong p = (ulong(1) << 62) - 57;
    Mat a(1, inner, p), b(inner, 1, p), ours(1, 1, p), theirs(1, 1, p);
    for (slong k = 0; k < inner; ++k) {
        nmod_mat_entry(a.m, 0, k) = mix(std::uint64_t(k)) % p;
        nmod_mat_entry(b.m, k, 0) = mix(std::uint64_t(k) + (1ull << 40)) % p;
    }
    flint_set_num_threads(int(threads));
    const double flint_all = median_seconds(3, [&] { nmod_mat_mul(theirs.m, a.m, b.m); }, [] {});
    flint_set_num_threads(1);
    const double gpu = zgpu_mat_seconds("gpu", ours.m, a.m, b.m);
    if (!nmod_mat_equal(ours.m, theirs.m)) {
        std::fprintf(stderr, "nmod_mat_mul 1 x %ld x 1: the GPU's product differs from FLINT's\n", long(inner));
        std::exit(1);
    }
    std::printf("| 1 x %ld x 1 | %.3f | %.3f | %.2f | %.0f %% |\n", long(inner), 1e3 * gpu, 1e3 * flint_all, flint_all / gpu,
                100 * 16.0 * double(inner) / kPcieBytesPerSecond / gpu);
}

// End to end over Z at n x n, entries of exactly `bits` bits (full limbs, random signs): zgpu's
// GPU and the automatic choice, and FLINT's fmpz_mat_mul on all threads (and on one where
// asked), every result checked against FLINT's. The bound: the host's copies of a's and b's limbs
// into pinned memory and of c's out of it, at host_rate bytes a second (the host's memcpy
// between pageable and pinned memory, on all threads, in the same run): packing and unpacking
// move at least these bytes, and nothing hides them.
void fmpz_row(slong n, unsigned bits, unsigned threads, bool flint_one_thread, double host_rate)
{
    fmpz_mat_t a, b, ours, theirs;
    for (fmpz_mat_struct* m : {a, b, ours, theirs}) fmpz_mat_init(m, n, n);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, bits / 64, 31);
    fill_fmpz(fmpz_mat_entry(b, 0, 0), n * n, bits / 64, 32);
    flint_set_num_threads(int(threads));
    double start = now();
    fmpz_mat_mul(theirs, a, b);
    const double flint_all = now() - start;
    flint_set_num_threads(1);
    double flint_one = 0;
    if (flint_one_thread) {
        start = now();
        fmpz_mat_mul(theirs, a, b);
        flint_one = now() - start;
    }
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_mul(ours, a, b); });
    if (!fmpz_mat_equal(ours, theirs)) {
        std::fprintf(stderr, "fmpz_mat_mul %ld x %ld, %u bits: the GPU's product differs from FLINT's\n", long(n), long(n), bits);
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", [&] { return zgpu_fmpz_mat_mul(ours, a, b); });
    const std::string picked = zgpu_last_backend();
    if (!fmpz_mat_equal(ours, theirs)) {
        std::fprintf(stderr, "fmpz_mat_mul %ld x %ld, %u bits: the automatic product differs from FLINT's\n", long(n), long(n), bits);
        std::exit(1);
    }
    const double c_limbs = double((2 * bits + std::bit_width(std::uint64_t(n - 1)) + 1 + 63) / 64);
    const double host_bytes = 8.0 * double(n) * double(n) * (2.0 * bits / 64 + c_limbs);
    const double bound = host_bytes / host_rate;
    std::printf("| %ld | %u | %.2f | %.2f (%s) | %s | %.1f | %.1f | %s | %.2f | %.0f %% |\n", long(n), bits, 1e3 * gpu, 1e3 * automatic,
                picked.c_str(), flint_one_thread ? std::to_string(1e3 * flint_one).c_str() : "-", 1e3 * flint_all, flint_all / gpu,
                flint_one_thread ? std::to_string(flint_one / gpu).substr(0, 6).c_str() : "-", 1e3 * bound, 100 * bound / gpu);
    for (fmpz_mat_struct* m : {a, b, ours, theirs}) fmpz_mat_clear(m);
}

// The same product over Z whole and in blocks under ZGPU_GPU_MEMORY_LIMIT=`limit` (GPU only),
// the two results checked equal.
void blocks_row(slong n, unsigned bits, const char* limit)
{
    fmpz_mat_t a, b, whole, blocked;
    for (fmpz_mat_struct* m : {a, b, whole, blocked}) fmpz_mat_init(m, n, n);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, bits / 64, 51);
    fill_fmpz(fmpz_mat_entry(b, 0, 0), n * n, bits / 64, 52);
    const double t_whole = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_mul(whole, a, b); });
    setenv("ZGPU_GPU_MEMORY_LIMIT", limit, 1);
    const double t_blocked = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_mul(blocked, a, b); });
    unsetenv("ZGPU_GPU_MEMORY_LIMIT");
    if (!fmpz_mat_equal(whole, blocked)) {
        std::fprintf(stderr, "fmpz_mat_mul %ld x %ld, %u bits: the product in blocks differs from the whole one\n", long(n), long(n), bits);
        std::exit(1);
    }
    std::printf("| %ld | %u | %s | %.2f | %.2f | %.2f |\n", long(n), bits, limit, 1e3 * t_whole, 1e3 * t_blocked, t_blocked / t_whole);
    for (fmpz_mat_struct* m : {a, b, whole, blocked}) fmpz_mat_clear(m);
}

// Device-resident: the determinants of `count` n x n matrices of random residues, each modulo
// its own NTT prime, by elimination in place (the matrices uploaded again before each call).
void det_device_row(std::size_t n, std::size_t count, double imad_peak)
{
    const std::vector<limb_t> primes = zgpu::kernels::ntt_primes(count);
    std::vector<zgpu::kernels::Modulus> moduli;
    for (const limb_t p : primes) moduli.push_back(zgpu::kernels::make_modulus(p));
    const std::size_t words = n * n;
    std::vector<limb_t> host(words * count);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = mix(i + 77) % primes[i / words];
    limb_t *a = nullptr, *det = nullptr;
    zgpu::kernels::Modulus* m = nullptr;
    check(cudaMalloc(&a, host.size() * sizeof(limb_t)), "cudaMalloc");
    check(cudaMalloc(&det, count * sizeof(limb_t)), "cudaMalloc");
    check(cudaMalloc(&m, count * sizeof *m), "cudaMalloc");
    check(cudaMemcpy(m, moduli.data(), count * sizeof *m, cudaMemcpyHostToDevice), "upload");
    const auto upload = [&] { check(cudaMemcpy(a, host.data(), host.size() * sizeof(limb_t), cudaMemcpyHostToDevice), "upload"); };
    std::vector<double> times;
    for (int r = 0; r < 5; ++r) {
        upload();
        times.push_back(event_seconds_once([&] { zgpu::kernels::det_mod({a, n, n, n, words, count}, m, det, nullptr); }));
    }
    std::sort(times.begin(), times.end());
    const double t = times[2];
    std::printf("| %zu | %zu | %.3f | %.1f | %.0f %% |\n", n, count, 1e3 * t, 1e-9 * zgpu::kernels::det_mod_steps(n, count) / t,
                100 * 8 * zgpu::kernels::det_mod_steps(n, count) / t / imad_peak);
    for (void* p : {static_cast<void*>(a), static_cast<void*>(det), static_cast<void*>(m)}) cudaFree(p);
}

// End to end: zgpu_fmpz_mat_det of n x n entries of exactly `bits` bits (random signs), on the
// GPU and by the automatic choice, against FLINT's fmpz_mat_det (one call; none where flint is
// false), the values checked equal.
void det_row(slong n, unsigned bits, bool flint)
{
    fmpz_mat_t a;
    fmpz_mat_init(a, n, n);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, bits / 64, 41);
    fmpz_t ours, theirs;
    fmpz_init(ours);
    fmpz_init(theirs);
    double flint_time = 0;
    if (flint) {
        const double start = now();
        fmpz_mat_det(theirs, a);
        flint_time = now() - start;
    }
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_det(ours, a); });
    if (flint && !fmpz_equal(ours, theirs)) {
        std::fprintf(stderr, "fmpz_mat_det %ld x %ld, %u bits: the GPU's determinant differs from FLINT's\n", long(n), long(n), bits);
        std::exit(1);
    }
    const double automatic = zgpu_seconds("auto", [&] { return zgpu_fmpz_mat_det(ours, a); });
    const std::string picked = zgpu_last_backend();
    if (flint && !fmpz_equal(ours, theirs)) {
        std::fprintf(stderr, "fmpz_mat_det %ld x %ld, %u bits: the automatic determinant differs from FLINT's\n", long(n), long(n), bits);
        std::exit(1);
    }
    const FlintColumns columns(flint, flint_time, gpu);
    std::printf("| %ld | %u | %ld | %.2f | %.2f (%s) | %s | %s |\n", long(n), bits, long(fmpz_bits(ours)), 1e3 * gpu, 1e3 * automatic,
                picked.c_str(), columns.ms, columns.ratio);
    fmpz_clear(ours);
    fmpz_clear(theirs);
    fmpz_mat_clear(a);
}

// The determinant's residues modulo the first `primes` primes both ways: a block a prime
// (det_mod) and all at once by block recursion (block_inverse), end to end from the host
// matrix (packing, upload, reduction), checked equal.
void det_ways_row(slong n, std::size_t primes)
{
    fmpz_mat_t a;
    fmpz_mat_init(a, n, n);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, 1, 43);
    const std::size_t count = std::size_t(n) * std::size_t(n);
    const zgpu::HostOperand entries = zgpu::host_operand(zgpu::adapters::FmpzReader(fmpz_mat_entry(a, 0, 0)), count, "a");
    const zgpu::PrimeSet set = zgpu::PrimeSet::generated(primes);
    const zgpu::gpu::ModularTables& tables = set.state().gpu_reduction_tables();
    std::vector<limb_t> by_block, by_blocks;
    const double block = median_seconds(5, [&] { by_block = zgpu::gpu::fmpz_mat_det_residues(entries, std::size_t(n), tables, false, {}); }, [] {});
    const double blocks = median_seconds(5, [&] { by_blocks = zgpu::gpu::fmpz_mat_det_residues(entries, std::size_t(n), tables, true, {}); }, [] {});
    if (by_block != by_blocks) {
        std::fprintf(stderr, "det residues %ld x %ld mod %zu primes: the two ways differ\n", long(n), long(n), primes);
        std::exit(1);
    }
    std::printf("| %ld | %zu | %.3f | %.3f |\n", long(n), primes, 1e3 * block, 1e3 * blocks);
    fmpz_mat_clear(a);
}

// End to end: zgpu_fmpz_mat_solve of n x n entries and n x cols right-hand sides of `bits`
// bits (random signs), on the GPU, against FLINT's fmpz_mat_solve on all host threads (one call;
// none where flint is false), x and den checked equal.
void solve_row(slong n, slong cols, unsigned bits, unsigned threads, bool flint)
{
    fmpz_mat_t a, b, x, theirs;
    fmpz_mat_init(a, n, n), fmpz_mat_init(b, n, cols), fmpz_mat_init(x, n, cols), fmpz_mat_init(theirs, n, cols);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, bits / 64, 47);
    fill_fmpz(fmpz_mat_entry(b, 0, 0), n * cols, bits / 64, 53);
    fmpz_t den, their_den;
    fmpz_init(den), fmpz_init(their_den);
    double flint_time = 0;
    if (flint) {
        flint_set_num_threads(int(threads));
        const double start = now();
        fmpz_mat_solve(theirs, their_den, a, b);
        flint_time = now() - start;
        flint_set_num_threads(1);
    }
    int nonsingular = 0;
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_solve(&nonsingular, x, den, a, b); });
    if (flint && !(fmpz_equal(den, their_den) && fmpz_mat_equal(x, theirs))) {
        std::fprintf(stderr, "fmpz_mat_solve %ld x %ld by %ld: the GPU's solution differs from FLINT's\n", long(n), long(n), long(cols));
        std::exit(1);
    }
    const FlintColumns columns(flint, flint_time, gpu);
    std::printf("| %ld | %ld | %u | %ld | %.2f | %s | %s |\n", long(n), long(cols), bits, long(fmpz_bits(den)), 1e3 * gpu, columns.ms, columns.ratio);
    fmpz_clear(den), fmpz_clear(their_den);
    fmpz_mat_clear(a), fmpz_mat_clear(b), fmpz_mat_clear(x), fmpz_mat_clear(theirs);
}

void solutions(unsigned threads)
{
    std::printf("\n### End to end: zgpu_fmpz_mat_solve, n x n by n x cols, entries of `bits` bits with random signs\n\n"
                "gpu: ZGPU_BACKEND=gpu, median of 5 after two calls; FLINT: fmpz_mat_solve on %u threads, one call. den bits: "
                "of the common denominator. ms. x and den are checked against FLINT's where FLINT ran.\n\n"
                "| n | cols | bits | den bits | gpu ms | FLINT ms | x FLINT |\n|---:|---:|---:|---:|---:|---:|---:|\n",
                threads);
    solve_row(100, 1, 64, threads, true);
    solve_row(200, 1, 64, threads, true);
    solve_row(500, 1, 64, threads, true);
    solve_row(500, 4, 64, threads, false);
    solve_row(1000, 1, 64, threads, false);
    // Beyond Dixon's 32 columns: Cramer's numerators modulo many primes.
    solve_row(100, 64, 64, threads, true);
    solve_row(200, 200, 64, threads, false);
    solve_row(500, 100, 64, threads, false);
}

// End to end: zgpu_fmpz_mat_rref of an m x n matrix of rank r (a product of random m x r and r x n
// matrices of 32-bit entries), against FLINT's fmpz_mat_rref on all host threads (one call; none
// where flint is false), the form and den checked equal.
void echelon_row(slong m, slong n, slong r, unsigned threads, bool flint)
{
    fmpz_mat_t a, left, right, ours, theirs;
    fmpz_mat_init(a, m, n), fmpz_mat_init(left, m, r), fmpz_mat_init(right, r, n), fmpz_mat_init(ours, m, n), fmpz_mat_init(theirs, m, n);
    fill_fmpz(fmpz_mat_entry(left, 0, 0), m * r, 1, 61);
    fill_fmpz(fmpz_mat_entry(right, 0, 0), r * n, 1, 67);
    fmpz_mat_scalar_tdiv_q_2exp(left, left, 32);
    fmpz_mat_scalar_tdiv_q_2exp(right, right, 32);
    fmpz_mat_mul(a, left, right);
    fmpz_t den, their_den;
    fmpz_init(den), fmpz_init(their_den);
    double flint_time = 0;
    slong their_rank = -1;
    if (flint) {
        flint_set_num_threads(int(threads));
        const double start = now();
        their_rank = fmpz_mat_rref(theirs, their_den, a);
        flint_time = now() - start;
        flint_set_num_threads(1);
    }
    slong rank = -1;
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_rref(&rank, ours, den, a); });
    if (rank != r || (flint && !(rank == their_rank && fmpz_equal(den, their_den) && fmpz_mat_equal(ours, theirs)))) {
        std::fprintf(stderr, "fmpz_mat_rref %ld x %ld: the GPU's differs from FLINT's\n", long(m), long(n));
        std::exit(1);
    }
    const FlintColumns columns(flint, flint_time, gpu);
    std::printf("| %ld x %ld | %ld | %ld | %.2f | %s | %s |\n", long(m), long(n), long(r), long(fmpz_bits(den)), 1e3 * gpu, columns.ms, columns.ratio);
    fmpz_clear(den), fmpz_clear(their_den);
    fmpz_mat_clear(a), fmpz_mat_clear(left), fmpz_mat_clear(right), fmpz_mat_clear(ours), fmpz_mat_clear(theirs);
}

void echelon_forms(unsigned threads)
{
    std::printf("\n### End to end: zgpu_fmpz_mat_rref, m x n of rank r (entries of about 64 bits)\n\n"
                "gpu: ZGPU_BACKEND=gpu (every part it takes on the GPU), median of 5 after two calls; FLINT: fmpz_mat_rref on %u "
                "threads, one call. den bits: of the form's denominator. ms. Checked against FLINT's where FLINT ran.\n\n"
                "| shape | rank | den bits | gpu ms | FLINT ms | x FLINT |\n|---|---:|---:|---:|---:|---:|\n",
                threads);
    echelon_row(200, 200, 150, threads, true);
    echelon_row(300, 300, 250, threads, true);
    echelon_row(500, 500, 450, threads, false);
}

// End to end: zgpu_fmpz_mat_inv of n x n entries of `bits` bits (random signs), on the GPU,
// against FLINT's fmpz_mat_inv on all host threads (one call; none where flint is false), b and
// den checked equal. Bounds: the inverses' n^3 multiply-adds a prime at 8 IMADs each (the
// determinant's third more is left out) at the IMAD peak, and the adjugate down over PCIe.
void inverse_row(slong n, unsigned bits, unsigned threads, bool flint, double imad_peak)
{
    fmpz_mat_t a, b, theirs;
    fmpz_mat_init(a, n, n), fmpz_mat_init(b, n, n), fmpz_mat_init(theirs, n, n);
    fill_fmpz(fmpz_mat_entry(a, 0, 0), n * n, bits / 64, 59);
    fmpz_t den, their_den;
    fmpz_init(den), fmpz_init(their_den);
    double flint_time = 0;
    if (flint) {
        flint_set_num_threads(int(threads));
        const double start = now();
        fmpz_mat_inv(theirs, their_den, a);
        flint_time = now() - start;
        flint_set_num_threads(1);
    }
    int invertible = 0;
    const double gpu = zgpu_seconds("gpu", [&] { return zgpu_fmpz_mat_inv(&invertible, b, den, a); });
    if (!invertible || (flint && !(fmpz_equal(den, their_den) && fmpz_mat_equal(b, theirs)))) {
        std::fprintf(stderr, "fmpz_mat_inv %ld x %ld: the GPU's inverse differs from FLINT's\n", long(n), long(n));
        std::exit(1);
    }
    const FlintColumns columns(flint, flint_time, gpu);
    const double primes = double(fmpz_bits(den)) / 61 + 1, size = double(n);
    const double at_peak = 8 * primes * size * size * size / imad_peak, pcie = size * size * double(fmpz_bits(den)) / 8 / 55e9;
    std::printf("| %ld | %u | %ld | %.2f | %s | %s | %.3f | %.3f | %.0f %% |\n", long(n), bits, long(fmpz_bits(den)), 1e3 * gpu, columns.ms, columns.ratio,
                1e3 * at_peak, 1e3 * pcie, 100 * (at_peak + pcie) / gpu);
    fmpz_clear(den), fmpz_clear(their_den);
    fmpz_mat_clear(a), fmpz_mat_clear(b), fmpz_mat_clear(theirs);
}

void inverses(unsigned threads, double imad_peak)
{
    std::printf("\n### End to end: zgpu_fmpz_mat_inv, n x n, entries of `bits` bits with random signs\n\n"
                "gpu: ZGPU_BACKEND=gpu, median of 5 after two calls; FLINT: fmpz_mat_inv on %u threads, one call. den bits: "
                "of the common denominator (about the determinant's). ms. b and den are checked against FLINT's where FLINT ran. "
                "Bounds: n^3 multiply-adds a prime (den bits / 61 + 1 primes), 8 IMADs each, at the IMAD peak; the adjugate "
                "over PCIe at 55 GB/s; share: both over the gpu time.\n\n"
                "| n | bits | den bits | gpu ms | FLINT ms | x FLINT | inverses at peak ms | PCIe ms | share |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads);
    inverse_row(64, 64, threads, true, imad_peak);
    inverse_row(100, 64, threads, true, imad_peak);
    inverse_row(200, 64, threads, true, imad_peak);
    inverse_row(500, 64, threads, false, imad_peak);
}

void products(unsigned threads, double imad_peak)
{
    std::printf("### Device-resident: n x n times n x n, modulo `count` NTT primes (one product a prime), on the integer units "
                "(kernels::mat_mul_mod) and on the 8-bit tensor cores (kernels::mat_mul_mod_tensor)\n\n"
                "CUDA events, median of 10. IMAD share: 8 IMADs a multiply-add over the padded tiles, over the peak. t: small "
                "moduli, one int8 GEMM each a product. cuBLAS alone: the same t x count GEMMs on bytes in place, the tensor "
                "path's bound; its share: that time over the tensor path's. TOPS: 2 x the GEMMs' byte multiply-adds over "
                "their time alone (the dense int8 peak is 1979).\n\n"
                "| n | count | IMAD ms | IMAD share | t | tensor ms | cuBLAS alone ms | share of cuBLAS | TOPS | x IMAD |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    // The library's runtime first: it sets how much of the stream-ordered pool is kept between
    // calls, as the kernels' temporaries find it inside the library.
    zgpu::gpu::Runtime::get();
    cublasHandle_t blas = nullptr;
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cuBLAS did not start\n");
        std::exit(1);
    }
    for (const std::size_t n : {64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192}) device_row(n, 1, imad_peak, blas);
    device_row(1024, 34, imad_peak, blas);
    device_row(512, 9, imad_peak, blas);
    device_row(256, 64, imad_peak, blas);
    device_row(128, 220, imad_peak, blas);
    device_row(64, 441, imad_peak, blas);
    cublasDestroy(blas);
    std::printf("\n### End to end: zgpu_nmod_mat_mul, n x n times n x n, FLINT matrices in and out\n\n"
                "gpu / cpu / auto: ZGPU_BACKEND; cpu is FLINT's nmod_mat_mul on all %u threads; auto's backend in brackets; auto / "
                "best: auto over the faster forced backend. FLINT 1 / %u: nmod_mat_mul with flint_set_num_threads(1) / (%u), in "
                "this process. ms, median of 5 (FLINT 1 thread: one call). PCIe share: the three matrices at 55 GB/s over the "
                "gpu time. Every product is checked against FLINT's.\n\n"
                "| n | bits | gpu ms | cpu ms | auto ms | auto / best | FLINT 1 ms | FLINT %u ms | x FLINT-%u | x FLINT-1 | PCIe share |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, threads, threads, threads, threads);
    const ulong prime62 = (ulong(1) << 62) - 57;  // a prime, not an NTT prime
    for (const slong n : {32, 64, 128, 256, 512, 1024}) end_to_end_row(n, prime62, threads, true);
    end_to_end_row(2048, prime62, threads, true);
    for (const slong n : {64, 128, 256, 1024}) end_to_end_row(n, 1048573, threads, n <= 256);
    std::printf("\n### End to end, thin: zgpu_nmod_mat_mul forced onto the GPU, 1 x inner times inner x 1, 62-bit prime\n\n"
                "ms, median of 5 (FLINT on %u threads: median of 3); checked against FLINT. PCIe share: the operands at 55 GB/s "
                "over the gpu time. ZGPU_TIMING's split is on stderr.\n\n"
                "| shape | gpu ms | FLINT %u ms | x FLINT | PCIe share |\n|---|---:|---:|---:|---:|\n",
                threads, threads);
    for (const slong inner : {slong(1) << 16, slong(1) << 20, slong(1) << 24}) thin_row(inner, threads);
}

void products_over_z(unsigned threads)
{
    const double host_rate = host_copy_rate(threads);
    std::printf("\n### End to end over Z: zgpu_fmpz_mat_mul, n x n times n x n, entries of `bits` bits with random signs\n\n"
                "gpu / auto: ZGPU_BACKEND, median of 5 after two calls; FLINT: fmpz_mat_mul with flint_set_num_threads(%u) "
                "(and 1), one call. ms. Every product is checked against FLINT's. ZGPU_TIMING's split is on stderr. Host bound: "
                "a's and b's limbs into pinned memory and c's out at %.1f GB/s, the host threads' memcpy between pageable and "
                "pinned memory in this run; share: of the gpu time.\n\n"
                "| n | bits | gpu ms | auto ms | FLINT 1 ms | FLINT %u ms | x FLINT-%u | x FLINT-1 | host bound ms | share |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, host_rate / 1e9, threads, threads);
    fmpz_row(64, 64, threads, true, host_rate);
    fmpz_row(128, 256, threads, true, host_rate);
    fmpz_row(512, 256, threads, true, host_rate);
    fmpz_row(1024, 64, threads, true, host_rate);
    fmpz_row(1024, 1024, threads, false, host_rate);
    std::printf("\n### Over Z in blocks: zgpu_fmpz_mat_mul on the GPU, whole and under ZGPU_GPU_MEMORY_LIMIT\n\n"
                "Bands of a's rows times bands of b's columns, each block reduced, multiplied and reconstructed on its own. ms, "
                "median of 5 after two calls; the products checked equal.\n\n"
                "| n | bits | limit, bytes | whole ms | in blocks ms | ratio |\n|---:|---:|---:|---:|---:|---:|\n");
    blocks_row(1024, 1024, "400000000");
    blocks_row(1024, 1024, "100000000");
    blocks_row(2048, 256, "100000000");
}

void determinants(double imad_peak, bool flint_300)
{
    std::printf("\n### Determinants mod p, device-resident: kernels::det_mod, a block a matrix\n\n"
                "Each matrix modulo its own NTT prime, eliminated in place in device memory. CUDA events, median of 5. Gstep/s: "
                "elimination steps n^3 / 3 a matrix (a product and a subtraction each), 10^9 a second; IMAD share: 8 IMADs a "
                "step (four 32 x 32-bit products, as mat_mul_mod counts) over the peak.\n\n"
                "| n | primes | ms | Gstep/s | IMAD share |\n|---:|---:|---:|---:|---:|\n");
    det_device_row(64, 441, imad_peak);
    det_device_row(400, 441, imad_peak);
    det_device_row(300, 4975, imad_peak);
    std::printf("\n### The determinant's residues both ways, 64-bit entries from the host\n\n"
                "ms, median of 5 after two calls: a block a prime (det_mod), all primes at once by block recursion.\n\n"
                "| n | primes | a block a prime | block recursion |\n|---:|---:|---:|---:|\n");
    for (const auto& [n, primes] : std::vector<std::pair<slong, std::size_t>>{
             {50, 55}, {64, 13}, {100, 109}, {200, 13}, {200, 220}, {400, 13}, {400, 441}, {600, 15}, {1000, 19}, {1000, 60}})
        det_ways_row(n, primes);
    std::printf("\n### End to end: zgpu_fmpz_mat_det, n x n entries of `bits` bits with random signs\n\n"
                "gpu / auto: ZGPU_BACKEND, median of 5 after two calls; FLINT: fmpz_mat_det, one call (it uses one thread). "
                "det bits: of the determinant. ms. The determinants are checked against FLINT's where FLINT ran.\n\n"
                "| n | bits | det bits | gpu ms | auto ms | FLINT ms | x FLINT |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    det_row(20, 64, true);
    det_row(50, 64, true);
    det_row(100, 64, true);
    det_row(200, 64, true);
    det_row(400, 64, true);
    det_row(600, 64, true);
    det_row(1000, 64, false);
    det_row(100, 1024, true);
    det_row(300, 1024, flint_300);
}

}  // namespace

// Arguments pick sections: "mul" (products mod n), "mul-z" (products over Z), "det"
// (determinants), "solve" (solutions over Q), "inv" (inverses over Z), "rref" (echelon forms over Z); none runs all. "flint-300"
// also runs FLINT on the 300 x 300 determinant of 1024-bit entries (about two minutes).
int main(int argc, char** argv)
{
    const std::set<std::string> args(argv + 1, argv + argc);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const DeviceInfo device = device_info();
    const double imad_peak = device.imad_peak;
    std::printf("## zgpu matrix products mod n\n\ndevice: %s, %d SMs, %.2f GHz; IMAD peak %.3g a second; host threads: %u; FLINT %s; %s\n\n",
                device.prop.name, device.prop.multiProcessorCount, device.clock_ghz, imad_peak, threads, flint_version, device.date);
    if (args.empty() || args.contains("mul")) products(threads, imad_peak);
    if (args.empty() || args.contains("mul-z")) products_over_z(threads);
    if (args.empty() || args.contains("det")) determinants(imad_peak, args.contains("flint-300"));
    if (args.empty() || args.contains("solve")) solutions(threads);
    if (args.empty() || args.contains("inv")) inverses(threads, imad_peak);
    if (args.empty() || args.contains("rref")) echelon_forms(threads);
    flint_cleanup_master();
    return 0;
}
