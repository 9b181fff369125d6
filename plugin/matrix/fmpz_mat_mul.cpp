#include "plugin/matrix/fmpz_mat_mul.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/machine_terms.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/modular/product_primes.hpp"
#include "zgpu/error.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's fmpz_mat_mul on one thread (issue #21's table, an H100 host): 1024^3 multiply-adds
// of 64-bit entries 2.0 s, of 1024-bit entries 28.1 s; 512^3 of 256-bit entries 1.0 s. About
// 7.5e-10 s a multiply-add a 62-bit prime of the product's bound (FLINT reduces modulo word
// primes itself), and 8 to 9 times faster on 16 threads.
constexpr double kFlintSecondsPerTermPrime = 7.5e-10;
constexpr double kFlintThreadShare = 0.55;
constexpr double kFlintThreadedFromSeconds = 2e-3;

// The GPU path: a fixed cost a call, the entries' limbs and the product's through the host's
// packing and PCIe at about 10 GB/s in all, and the multiply-adds modulo each prime
// (machine_terms.hpp), as nmod_mat_mul measured.
constexpr double kGpuSecondsPerCall = 0.3e-3;
constexpr double kGpuBytesPerSecond = 10e9;

constexpr std::uint64_t kPrimeBits = 62;

double primes_for(const ZMatrix& a, const ZMatrix& b) { return double(product_bits(a, b) + 1) / kPrimeBits + 1; }
double terms(const ZMatrix& a, const ZMatrix& b) { return double(a.rows) * double(a.cols) * double(b.cols); }
std::uint64_t words(std::uint64_t bits) { return std::max<std::uint64_t>(1, (bits + 63) / 64); }

// Whether the GPU takes the product: entries that fit batches, CRT values that may fit one.
bool gpu_takes(const ZMatrix& a, const ZMatrix& b)
{
    return a.entries.too_large.empty() && b.entries.too_large.empty() && (product_bits(a, b) + 1 + 63) / 64 <= kMaxLimbs;
}

void on_host(const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu)
{
    const FlintThreads threads(flint_fmpz_mat_seconds(a, b) >= kFlintThreadedFromSeconds ? host_threads() : 1);
    on_cpu();
}

}  // namespace

std::uint64_t product_bits(const ZMatrix& a, const ZMatrix& b)
{
    return a.bits + b.bits + std::uint64_t(std::bit_width(std::max<std::size_t>(a.cols, 1) - 1));
}

double flint_fmpz_mat_seconds(const ZMatrix& a, const ZMatrix& b) { return terms(a, b) * primes_for(a, b) * kFlintSecondsPerTermPrime; }

bool gpu_pays_for_fmpz_mat_mul(const ZMatrix& a, const ZMatrix& b, unsigned threads)
{
    const double one = flint_fmpz_mat_seconds(a, b);
    const double cpu = one < kFlintThreadedFromSeconds ? one : one / std::max(1.0, kFlintThreadShare * double(threads));
    const double bytes = 8.0 * double(a.rows * a.cols * words(a.bits) + b.rows * b.cols * words(b.bits) +
                                      a.rows * b.cols * words(product_bits(a, b) + 1));
    const double gpu = kGpuSecondsPerCall + bytes / kGpuBytesPerSecond + terms(a, b) * primes_for(a, b) * machine::kGpuSecondsPerTermMod;
    return gpu < cpu;
}

void gpu_fmpz_mat_product(const ZMatrix& a, const ZMatrix& b, const PrimeSet& set, const HostResult& result)
{
    gpu::fmpz_mat_product(a.entries, b.entries, a.rows, a.cols, b.cols, set.state().gpu_tables(), result);
}

Backend fmpz_mat_product(const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    const bool gpu_pays = gpu_takes(a, b) && gpu_pays_for_fmpz_mat_mul(a, b, host_threads());
    return fmpz_mat_product_on(choose(gpu_pays), a, b, on_cpu, on_gpu_result, gpu_fmpz_mat_product);
}

Backend fmpz_mat_product_on(Backend backend, const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu,
                            const HostResult& on_gpu_result, const ZMatProductOnGpu& multiply)
{
    if (!gpu_takes(a, b)) backend = Backend::cpu;
    const auto on_gpu = [&] {
        const PrimeSet set = product_primes(product_bits(a, b));
        if (set.state().product_limbs > kMaxLimbs) {
            on_host(a, b, on_cpu);
            return Backend::cpu;
        }
        std::atomic<bool> delivered = false;  // products in blocks hand their rows on from several threads
        const auto gpu = [&] {
            multiply(a, b, set, [&](std::size_t first, ConstBatchView values) {
                delivered = true;
                on_gpu_result(first, values);
            });
        };
        return gpu_or_host(gpu, [&] { on_host(a, b, on_cpu); }, "a matrix product over Z", [&] { return delivered.load(); });
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, [&] { on_host(a, b, on_cpu); });
    return ran;
}

}  // namespace zgpu::matrix
