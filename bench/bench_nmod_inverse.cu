// Inverses mod p on the GPU (plugin/gpu/matrix/block_inverse.hpp): where the time of one n x n
// inverse goes, level by level of the block recursion, and zgpu_nmod_mat_inv end to end next to
// FLINT 3's nmod_mat_inv on all host threads, modulo a 62-bit prime.
// Bounds: a level's six products of halves at their own device-resident rate (timed alone here),
// and the leaves' kernel alone; what a level takes beyond its products and its two halves is
// its launches, copies and waits.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <flint/flint.h>
#include <flint/nmod_mat.h>

#include "bench_support.cuh"
#include "kernels/matrix/inverse_mod.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/runtime.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace {

using zgpu::limb_t;

constexpr double kPcieBytesPerSecond = 55e9;
using zgpu::kernels::ConstMatricesView;
using zgpu::kernels::MatricesView;

constexpr limb_t kPrime62 = (limb_t(1) << 62) - 57;

// Median of 10 timings of op() by CUDA events on the runtime's stream, after two warm-up calls;
// with the host's time to queue it (median too).
struct StreamTime {
    double device, queue;
};

StreamTime stream_seconds(zgpu::gpu::Runtime& runtime, const std::function<void()>& op)
{
    const cudaStream_t stream = runtime.stream();
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    std::vector<double> device, queue;
    for (int r = 0; r < 12; ++r) {
        check(cudaEventRecord(start, stream), "record");
        const double begin = now();
        op();
        const double queued = now() - begin;
        check(cudaEventRecord(stop, stream), "record");
        check(cudaEventSynchronize(stop), "synchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        if (r < 2) continue;
        device.push_back(ms * 1e-3);
        queue.push_back(queued);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::sort(device.begin(), device.end());
    std::sort(queue.begin(), queue.end());
    return {device[device.size() / 2], queue[queue.size() / 2]};
}

// One n x n matrix of random entries mod kPrime62 and room for its inverse, on the device.
struct DeviceMatrix {
    explicit DeviceMatrix(std::size_t n) : n(n), host(n * n)
    {
        for (std::size_t i = 0; i < host.size(); ++i) host[i] = mix(i + 77 * n) % kPrime62;
        for (limb_t** p : {&m, &inverse, &scratch}) check(cudaMalloc(p, n * n * sizeof(limb_t)), "cudaMalloc");
        check(cudaMalloc(&det, sizeof(limb_t)), "cudaMalloc");
        check(cudaMalloc(&modulus, sizeof *modulus), "cudaMalloc");
        const zgpu::kernels::Modulus p = zgpu::kernels::make_modulus(kPrime62);
        check(cudaMemcpy(modulus, &p, sizeof p, cudaMemcpyHostToDevice), "upload");
        check(cudaMemcpy(m, host.data(), n * n * sizeof(limb_t), cudaMemcpyHostToDevice), "upload");
    }
    ~DeviceMatrix()
    {
        for (void* p : {static_cast<void*>(m), static_cast<void*>(inverse), static_cast<void*>(scratch), static_cast<void*>(det),
                        static_cast<void*>(modulus)})
            cudaFree(p);
    }
    ConstMatricesView view() const { return {m, n, n, n, n * n, 1}; }
    MatricesView out() const { return {inverse, n, n, n, n * n, 1}; }

    // Rows 0, n / 2 and n - 1 of m times the inverse must be those of the identity.
    void check_inverse() const
    {
        std::vector<limb_t> got(n * n);
        check(cudaMemcpy(got.data(), inverse, got.size() * sizeof(limb_t), cudaMemcpyDeviceToHost), "download");
        for (const std::size_t i : {std::size_t(0), n / 2, n - 1})
            for (std::size_t j = 0; j < n; ++j) {
                unsigned __int128 s = 0;
                for (std::size_t k = 0; k < n; ++k) s = (s + (unsigned __int128)host[i * n + k] * got[k * n + j]) % kPrime62;
                if (limb_t(s) != limb_t(i == j)) {
                    std::fprintf(stderr, "inverse of %zu x %zu: row %zu of m m^-1 is not the identity's\n", n, n, i);
                    std::exit(1);
                }
            }
    }

    std::size_t n;
    std::vector<limb_t> host;
    limb_t *m = nullptr, *inverse = nullptr, *scratch = nullptr, *det = nullptr;
    zgpu::kernels::Modulus* modulus = nullptr;
};

// Device-resident, level by level: the inverse of n x n for n = 32, 64, ..., 4096; a level's
// own time is T(n) - 2 T(n / 2), next to its six products of halves timed alone.
void levels()
{
    zgpu::gpu::Runtime& runtime = zgpu::gpu::Runtime::get();
    const zgpu::gpu::Runtime::Lease lease(runtime);
    const unsigned bits = unsigned(std::bit_width(kPrime62));
    zgpu::gpu::start_tensor_products(runtime);
    std::printf("### Device-resident: one n x n inverse mod 2^62 - 57 by block recursion\n\n"
                "CUDA events on the runtime's stream, median of 10. queue: the host's time to queue the call. own: T(n) - "
                "2 T(n/2), what the level adds to its two halves' inverses. products: six products of n/2 x n/2 alone (the "
                "level's four products and two subtractions), on the path the recursion takes. rest: own - products.\n\n"
                "| n | leaves | ms | queue ms | own ms | products ms | rest ms |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    double below = 0;
    for (std::size_t n = 32; n <= 4096; n *= 2) {
        const DeviceMatrix a(n);
        const StreamTime t =
            stream_seconds(runtime, [&] { zgpu::gpu::invert_by_blocks(runtime, a.view(), a.out(), a.modulus, bits, a.det); });
        a.check_inverse();
        double products = 0;
        if (n > 32) {
            const std::size_t h = n / 2;
            const ConstMatricesView half{a.m, h, h, n, n * n, 1};
            const MatricesView into{a.scratch, h, h, h, h * h, 1};
            products = 6 * stream_seconds(runtime, [&] { zgpu::gpu::mat_mul_mod(runtime, half, half, a.modulus, bits, into); }).device;
        }
        const double own = n > 32 ? t.device - 2 * below : t.device;
        std::printf("| %zu | %zu | %.3f | %.3f | %.3f | %.3f | %.3f |\n", n, n / 32, 1e3 * t.device, 1e3 * t.queue, 1e3 * own,
                    1e3 * products, 1e3 * (own - products));
        below = t.device;
    }
    // The leaves alone: 128 of 32 x 32 one after another (as a 4096 inverse runs them), and the
    // same 128 in one launch.
    const std::size_t leaves = 128, n = zgpu::kernels::kSmallInverse;
    const DeviceMatrix a(n * 64);  // room for 128 leaves of 32 x 32 words
    std::vector<zgpu::kernels::Modulus> moduli(leaves, zgpu::kernels::make_modulus(kPrime62));
    zgpu::kernels::Modulus* d_moduli = nullptr;
    limb_t* d_det = nullptr;
    check(cudaMalloc(&d_moduli, leaves * sizeof *d_moduli), "cudaMalloc");
    check(cudaMalloc(&d_det, leaves * sizeof *d_det), "cudaMalloc");
    check(cudaMemcpy(d_moduli, moduli.data(), leaves * sizeof *d_moduli, cudaMemcpyHostToDevice), "upload");
    const MatricesView batch{a.inverse, n, n, n, n * n, leaves};
    const auto refill = [&] { zgpu::kernels::copy_matrices(ConstMatricesView{a.m, n, n, n, n * n, leaves}, batch, runtime.stream()); };
    const double copies = stream_seconds(runtime, refill).device;
    const StreamTime one_by_one = stream_seconds(runtime, [&] {
        refill();
        for (std::size_t b = 0; b < leaves; ++b)
            zgpu::kernels::invert_small_mod(MatricesView{batch.matrix(b), n, n, n, n * n, 1}, d_moduli, d_det, runtime.stream());
    });
    const StreamTime together = stream_seconds(runtime, [&] {
        refill();
        zgpu::kernels::invert_small_mod(batch, d_moduli, d_det, runtime.stream());
    });
    std::printf("\n### The leaves alone: 128 inverses of 32 x 32 (kernels::invert_small_mod), less the copy that refills them\n\n"
                "| launches | ms | us a leaf | queue ms |\n|---:|---:|---:|---:|\n| 128 | %.3f | %.2f | %.3f |\n| 1 | %.3f | %.2f | %.3f |\n",
                1e3 * (one_by_one.device - copies), 1e6 * (one_by_one.device - copies) / leaves, 1e3 * one_by_one.queue,
                1e3 * (together.device - copies), 1e6 * (together.device - copies) / leaves, 1e3 * together.queue);
    cudaFree(d_moduli);
    cudaFree(d_det);
}

// End to end: zgpu_nmod_mat_inv of n x n on the GPU (median of 5 after two calls), FLINT's
// nmod_mat_inv on all threads (one call), the inverses checked equal.
void end_to_end(unsigned threads, slong flint_up_to)
{
    std::printf("\n### End to end: zgpu_nmod_mat_inv, n x n mod 2^62 - 57, FLINT matrices in and out\n\n"
                "gpu: ZGPU_BACKEND=gpu, median of 5 after two calls. FLINT: nmod_mat_inv on %u threads, one call (to n = %ld). "
                "PCIe share: the matrix up and its inverse down at 55 GB/s over the gpu time. ZGPU_TIMING's split is on stderr.\n\n"
                "| n | gpu ms | FLINT ms | x FLINT | PCIe share |\n|---:|---:|---:|---:|---:|\n",
                threads, long(flint_up_to));
    for (const slong n : {256, 512, 1024, 2048, 4096}) {
        Mat a(n, n, kPrime62), ours(n, n, kPrime62), theirs(n, n, kPrime62);
        for (slong i = 0; i < n; ++i)
            for (slong j = 0; j < n; ++j) nmod_mat_entry(a.m, i, j) = mix(std::uint64_t(i * n + j) + 5) % kPrime62;
        int invertible = 0;
        const double gpu = zgpu_seconds("gpu", [&] { return zgpu_nmod_mat_inv(&invertible, ours.m, a.m); });
        char flint_ms[32] = "-", ratio[32] = "-";
        if (n <= flint_up_to) {
            flint_set_num_threads(int(threads));
            const double start = now();
            const int theirs_invertible = nmod_mat_inv(theirs.m, a.m);
            const double flint_time = now() - start;
            flint_set_num_threads(1);
            if (invertible != theirs_invertible || !nmod_mat_equal(ours.m, theirs.m)) {
                std::fprintf(stderr, "nmod_mat_inv %ld x %ld: the GPU's inverse differs from FLINT's\n", long(n), long(n));
                std::exit(1);
            }
            std::snprintf(flint_ms, sizeof flint_ms, "%.1f", 1e3 * flint_time);
            std::snprintf(ratio, sizeof ratio, "%.1f", flint_time / gpu);
        }
        const double pcie = 2.0 * double(n) * double(n) * sizeof(limb_t) / kPcieBytesPerSecond;
        std::printf("| %ld | %.2f | %s | %s | %.0f %% |\n", long(n), 1e3 * gpu, flint_ms, ratio, 100 * pcie / gpu);
    }
}

}  // namespace

// Arguments pick sections: "levels" (device-resident), "end-to-end"; none runs both.
// "flint-4096" also runs FLINT at 4096 (about 12 s on 16 threads).
int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    const auto wants = [&](const char* name) { return args.empty() || std::find(args.begin(), args.end(), name) != args.end(); };
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const DeviceInfo device = device_info();
    std::printf("## zgpu inverses mod p\n\ndevice: %s, %d SMs; host threads: %u; FLINT %s; %s\n\n", device.prop.name,
                device.prop.multiProcessorCount, threads, flint_version, device.date);
    if (wants("levels")) levels();
    if (wants("end-to-end")) end_to_end(threads, std::find(args.begin(), args.end(), "flint-4096") != args.end() ? 4096 : 2048);
    flint_cleanup_master();
    return 0;
}
