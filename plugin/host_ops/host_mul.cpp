// Products and addmul of host data.
#include <string>

#include "base/parallel.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/result_strides.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/host_ops.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

// The checks of a product on the GPU: operands that fit batches, and the kernel.
void require_gpu_product(const HostOperand& a, const HostOperand& b)
{
    a.require_packable();
    b.require_packable();
    if (!product_fits_batch(a, b))
        throw Error("mul on the GPU: operands of " + std::to_string(a.max_limbs) + " and " + std::to_string(b.max_limbs) +
                    " limbs give products above the " + std::to_string(kMaxLimbs) + " limbs of a batch (ZGPU_BACKEND=gpu)");
}

}  // namespace

void mul_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
              const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    const bool gpu_pays =
        product_fits_batch(a, b) && gpu_pays_for_host_products(shape_of(a, b, count, b_count), host_threads());
    const auto on_gpu = [&] {
        require_gpu_product(a, b);
        return gpu::host_mul(a, count, b, b_count, product_stride(a, b), on_gpu_result,
                             [&](std::size_t first) { on_cpu(first, count); });
    };
    run_on(choose(gpu_pays), on_gpu, [&] { on_cpu(0, count); });
}

void addmul_host(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                 std::size_t b_count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    // The sum must fit a batch too: a huge r stays on the CPU unless the GPU is forced.
    const std::uint32_t products = product_stride(a, b);
    const std::uint64_t sum_bound = gpu::addmul_sum_limbs(r.max_limbs, products);
    const bool sum_fits = r.too_large.empty() && sum_bound <= kMaxLimbs;
    const bool gpu_pays = sum_fits && product_fits_batch(a, b) &&
                          gpu_pays_for_host_addmul(shape_of(a, b, count, b_count), r.max_limbs, host_threads());
    const auto on_gpu = [&] {
        require_gpu_product(a, b);
        r.require_packable();
        if (!sum_fits)
            throw Error(std::string(subtract ? "submul" : "addmul") + " on the GPU: the sums would exceed the " +
                        std::to_string(kMaxLimbs) + " limbs of a batch (ZGPU_BACKEND=gpu)");
        return gpu::host_addmul(r, a, count, b, b_count, subtract, size_class(std::uint32_t(sum_bound)), on_gpu_result,
                                [&](std::size_t first) { on_cpu(first, count); });
    };
    run_on(choose(gpu_pays), on_gpu, [&] { on_cpu(0, count); });
}

}  // namespace zgpu
