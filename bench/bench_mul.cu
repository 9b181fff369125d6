// Products: device-resident (DeviceBatch mul) in million products per second with the
// automatic choice and with each algorithm forced, next to FLINT's fmpz_mul on one and on all
// host threads, with the device memory a product takes and the share of the IMAD peak used;
// and end to end (zgpu_fmpz_vec_mul, fmpz in and out) on each backend, which sets the
// automatic choice. All from this one run; markdown tables.
//   bench_mul [max_bits] [end_to_end_max_bits] [min_bits]    (defaults 2^20, 65536, 64)
#include <bit>
#include <cmath>
#include <functional>
#include <string>

#include "kernels/mul/mul.hpp"
#include "kernels/mul/mul_tensor.hpp"
#include "bench_support.cuh"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu.h"

namespace {

// IMADs a product: 8 n^2 for the classical kernel (four 32 x 32-bit products of two halves
// each a limb product); for the NTT, 3 a butterfly (one Shoup multiplication), 3 primes x 3
// transforms x (N/2) log2 N butterflies with N = 2 (a + b) digits rounded up to a power of two.
double imads(std::uint32_t n, bool ntt)
{
    if (!ntt) return 8.0 * n * n;
    const double length = std::max(64u, std::bit_ceil(4 * zgpu::size_class(n)));
    return 3.0 * 9 * length / 2 * std::log2(length);
}

// Products a second of op() on `count` products, with ZGPU_MUL_ALGORITHM set to `algorithm`.
double products_per_second(std::size_t count, const char* algorithm, const std::function<void()>& op)
{
    setenv("ZGPU_MUL_ALGORITHM", algorithm, 1);
    const double t = median_seconds(10, op, [] { zgpu::synchronize(zgpu::Backend::gpu); });
    unsetenv("ZGPU_MUL_ALGORITHM");
    return count / t;
}

std::string format(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

void device_resident(std::uint32_t min_bits, std::uint32_t max_bits, double imad_peak, double byte_mac_peak)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### Full products, equal sizes, device-resident (DeviceBatch), median of 10\n\n");
    std::printf("IMAD share: the product's IMADs (8 n^2 classical; 3 a butterfly for the NTT) a second over the "
                "peak %.3g IMAD/s. Memory: operands, result and workspace a product, for the automatic choice. "
                "Squares: sqr(r, a), the automatic choice. Tensor share: the product's (8 n)^2 byte products a second "
                "over the dense 8-bit tensor peak %.3g a second (4096 a clock an SM).\n\n", imad_peak, byte_mac_peak);
    std::printf("| bits | count | zgpu auto Mprod/s | classical Mprod/s | tensor Mprod/s | NTT Mprod/s | squares Mprod/s | FLINT 1 thread Mprod/s | "
                "FLINT %u threads Mprod/s | zgpu / FLINT-%u | IMAD share classical | tensor share | IMAD share NTT | KiB a product |\n",
                threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = min_bits; bits <= max_bits; bits *= 2) {
        const std::uint32_t n = bits / 64;
        const std::size_t count = std::max<std::size_t>(256, (std::size_t(1) << 25) / n);  // 256 MiB an operand
        using zgpu::Backend, zgpu::DeviceBatch;
        DeviceBatch a(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch b(Backend::gpu, count, zgpu::size_class(n), DeviceBatch::Uninitialized{});
        DeviceBatch r(Backend::gpu, count, zgpu::size_class(2 * zgpu::size_class(n)), DeviceBatch::Uninitialized{});
        fill_random<<<1024, 256>>>(a.view(), n, 1);
        fill_random<<<1024, 256>>>(b.view(), n, 2);
        check(cudaDeviceSynchronize(), "fill");
        const auto product = [&] { zgpu::mul(r, a, b); };
        const double automatic = products_per_second(count, "auto", product);
        const bool classical_applies = n <= zgpu::kernels::kMulClassicalMaxLimbs;
        const double classical = classical_applies ? products_per_second(count, "classical", product) : 0;
        const double tensor = zgpu::kernels::mul_tensor_applies(a.view(), b.view()) ? products_per_second(count, "tensor", product) : 0;
        const double ntt = products_per_second(count, "ntt", product);
        const double squares = products_per_second(count, "auto", [&] { zgpu::sqr(r, a); });
        const double workspace = 4.0 * zgpu::kernels::mul_workspace(a.view(), b.view(), false, zgpu::kernels::MulAlgorithm::automatic).minimum;
        const double memory = (a.stride() + b.stride() + r.stride()) * 8.0 + 12 + workspace;

        const slong cpu_count = slong(std::min<std::size_t>(count, (std::size_t(1) << 22) / n));
        fmpz *x = _fmpz_vec_init(cpu_count), *y = _fmpz_vec_init(cpu_count), *z = _fmpz_vec_init(cpu_count);
        fill_fmpz(x, cpu_count, n, 3);
        fill_fmpz(y, cpu_count, n, 4);
        const double one = flint_rate(x, y, z, cpu_count, 1), all = flint_rate(x, y, z, cpu_count, threads);
        _fmpz_vec_clear(x, cpu_count);
        _fmpz_vec_clear(y, cpu_count);
        _fmpz_vec_clear(z, cpu_count);
        const auto rate = [](double r) { return r > 0 ? format("%.2f", r / 1e6) : std::string("-"); };
        const auto share = [&](double r, bool ntt) { return r > 0 ? format("%.1f %%", 100 * r * imads(n, ntt) / imad_peak) : std::string("-"); };
        const std::string tensor_share = tensor > 0 ? format("%.1f %%", 100 * tensor * 64.0 * n * n / byte_mac_peak) : "-";
        std::printf("| %u | %zu | %.2f | %s | %s | %s | %.2f | %.3f | %.3f | %.1f | %s | %s | %s | %.1f |\n", bits, count, automatic / 1e6,
                    rate(classical).c_str(), rate(tensor).c_str(), rate(ntt).c_str(), squares / 1e6, one / 1e6, all / 1e6,
                    automatic / all, share(classical, false).c_str(), tensor_share.c_str(), share(ntt, true).c_str(), memory / 1024);
    }
}

void end_to_end(std::uint32_t min_bits, std::uint32_t max_bits)
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\n### End to end: zgpu_fmpz_vec_mul (fmpz in, fmpz out) vs fmpz_mul, median of 5\n\n");
    std::printf("| bits | count | zgpu gpu ms | zgpu cpu ms | zgpu auto ms (backend) | FLINT 1 thread ms | FLINT %u threads ms | gpu / FLINT-%u |\n", threads, threads);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::uint32_t bits = min_bits; bits <= max_bits; bits *= 2) {
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
    const std::uint32_t max_bits = argc > 1 ? std::atoi(argv[1]) : 1u << 20;
    const std::uint32_t end_to_end_max_bits = argc > 2 ? std::atoi(argv[2]) : 65536;
    const std::uint32_t min_bits = argc > 3 ? std::atoi(argv[3]) : 64;
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int clock_khz = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock rate");
    const double imad_peak = 64.0 * prop.multiProcessorCount * clock_khz * 1e3;  // 64 IMADs a clock an SM
    std::printf("## zgpu product benchmark\n\ndevice: %s, %d SMs, %.2f GHz; host threads: %u\n", prop.name,
                prop.multiProcessorCount, clock_khz / 1e6, std::thread::hardware_concurrency());
    const double byte_mac_peak = 4096.0 * prop.multiProcessorCount * clock_khz * 1e3;
    device_resident(min_bits, max_bits, imad_peak, byte_mac_peak);
    end_to_end(min_bits, end_to_end_max_bits);
    flint_cleanup_master();
    return 0;
}
