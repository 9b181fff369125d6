#include "plugin/matrix/fmpz_mat_mul.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/modular/product_primes.hpp"
#include "zgpu/error.hpp"

namespace zgpu::matrix {
namespace {

// Whether the GPU takes the product: entries that fit batches, CRT values that may fit one.
bool gpu_takes(const ZMatrix& a, const ZMatrix& b)
{
    return a.entries.too_large.empty() && b.entries.too_large.empty() && (product_bits(a, b) + 1 + 63) / 64 <= kMaxLimbs;
}

void on_host(const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu)
{
    const FlintThreads threads(fmpz_mat_mul_uses_threads(a, b) ? host_threads() : 1);
    on_cpu();
}

}  // namespace

std::uint64_t product_bits(const ZMatrix& a, const ZMatrix& b)
{
    return a.bits + b.bits + std::uint64_t(std::bit_width(std::max<std::size_t>(a.cols, 1) - 1));
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
