#include "host_dispatch.hpp"

#include "zgpu/backend.hpp"

#include <algorithm>

#include "divide_exactly.hpp"
#include "host_choice.hpp"
#include "parallel.hpp"
#include "zgpu/batch_div.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/error.hpp"
#ifdef ZGPU_WITH_CUDA
#include "../kernels/add_sub.hpp"
#include "../kernels/divrem.hpp"
#include "gpu_div.hpp"
#include "gpu_host_op.hpp"
#include "gpu_mul.hpp"
#include "gpu_temporary.hpp"
#endif

namespace zgpu {
namespace {

// The automatic choice: the GPU where there is one and `gpu_pays` (host_choice.hpp); ZGPU_BACKEND
// forces either.
Backend choose(bool gpu_pays)
{
    const Backend requested = requested_backend();
    if (backend_forced() || requested == Backend::cpu) return requested;
    return gpu_pays ? Backend::gpu : Backend::cpu;
}

// Add/sub of host data: packing, PCIe both ways and unpacking cost more than the CPU's own
// addition at every size measured (128 bits to 2^19 bits, H200 host with 16 threads, see
// bench/results/), so the automatic choice is the CPU; ZGPU_BACKEND=gpu forces the GPU.
Backend choose_for_host_add_sub() { return choose(false); }

// The stride of a's elements times b's: the sum of their strides, as a size class.
std::uint32_t product_stride(const HostOperand& a, const HostOperand& b)
{
    return size_class(size_class(std::uint32_t(a.max_limbs)) + size_class(std::uint32_t(b.max_limbs)));
}

// Whether the product's stride stays within kMaxLimbs, as a batch needs.
bool product_fits_batch(const HostOperand& a, const HostOperand& b)
{
    return a.too_large.empty() && b.too_large.empty() && product_stride(a, b) <= kMaxLimbs;
}

// b moves once when shared, and not at all when it is a (squares: packed once).
HostShape shape_of(const HostOperand& a, const HostOperand& b, std::size_t count, std::size_t b_count)
{
    return {a.max_limbs, b.max_limbs, b_count == 1 || &a == &b, count};
}

#ifdef ZGPU_WITH_CUDA
bool with_remainder(HostDivision kind)
{
    return kind == HostDivision::floor || kind == HostDivision::truncate || kind == HostDivision::mod;
}
#endif

Backend choose_for_host_div(HostDivision kind, const HostOperand& a, const HostOperand& b, std::size_t count,
                            std::size_t b_count)
{
#ifdef ZGPU_WITH_CUDA
    // Division with remainder only by divisors the kernel takes: longer ones would be divided
    // on the host after the transfers.
    const bool fits = a.too_large.empty() && b.too_large.empty() &&
                      (!with_remainder(kind) || b.max_limbs <= kernels::kDivremWarpMaxDivisorLimbs);
    return choose(fits && gpu_pays_for_host_division(shape_of(a, b, count, b_count), host_threads()));
#else
    (void)kind, (void)a, (void)b, (void)count, (void)b_count;
    return choose(false);
#endif
}

}  // namespace

void add_sub_host(const std::function<HostOperand()>& make_a, const std::function<HostOperand()>& make_b,
                  std::size_t count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    Backend backend = choose_for_host_add_sub();
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        const HostOperand a = make_a(), b = make_b();
        const auto stride = size_class(std::uint32_t(std::min<std::uint64_t>(std::max(a.max_limbs, b.max_limbs), kMaxLimbs) + 1));
        const auto kernel = [subtract](std::span<const ConstBatchView> x, BatchView r, cudaStream_t stream) {
            kernels::add_sub(x[0], x[1], r, subtract, stream);
        };
        const gpu::Operand operands[] = {{&a, count}, {&b, count}};
        backend = gpu::run(operands, count, stride, kernel, on_gpu_result, [&](std::size_t first) { on_cpu(first, count); });
    } else
#endif
        on_cpu(0, count);
    set_last_backend(backend);
}

void HostOperand::require_packable() const
{
    if (!too_large.empty()) throw Error(too_large);
}

#ifdef ZGPU_WITH_CUDA
// The checks of a product on the GPU: operands that fit batches, and the kernel.
void require_gpu_product(const HostOperand& a, const HostOperand& b)
{
    a.require_packable();
    b.require_packable();
    if (!product_fits_batch(a, b))
        throw Error("mul on the GPU: operands of " + std::to_string(a.max_limbs) + " and " + std::to_string(b.max_limbs) +
                    " limbs give products above the " + std::to_string(kMaxLimbs) + " limbs of a batch (ZGPU_BACKEND=gpu)");
}

// A host operand copied to a DeviceBatch on the GPU.
DeviceBatch to_gpu(const HostOperand& x, std::size_t count)
{
    x.require_packable();
    LimbBatch host(count, size_class(std::uint32_t(x.max_limbs)));
    x.pack(0, host.view());
    return DeviceBatch::upload(host.view(), Backend::gpu);
}
#endif

void mul_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
              const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    Backend backend =
        choose(product_fits_batch(a, b) && gpu_pays_for_host_products(shape_of(a, b, count, b_count), host_threads()));
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        require_gpu_product(a, b);
        const bool broadcast = b_count == 1;
        const auto kernel = [broadcast](std::span<const ConstBatchView> x, BatchView r, cudaStream_t stream) {
            gpu::mul(gpu::Runtime::get(), x[0], x[1], r, broadcast, stream);  // gpu::run holds the lease
        };
        const gpu::Operand operands[] = {{&a, count}, {&b, b_count}};
        backend = gpu::run(operands, count, product_stride(a, b), kernel, on_gpu_result,
                           [&](std::size_t first) { on_cpu(first, count); });
    } else
#endif
        on_cpu(0, count);
    set_last_backend(backend);
}

void addmul_host(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                 std::size_t b_count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    // The sum must fit a batch too: a huge r stays on the CPU unless the GPU is forced.
    const std::uint32_t products = product_stride(a, b);
    const std::uint64_t sum_bound = std::max(size_class(std::uint32_t(r.max_limbs)), products) + std::uint64_t(1);
    const bool sum_fits = r.too_large.empty() && sum_bound <= kMaxLimbs;
    Backend backend = choose(sum_fits && product_fits_batch(a, b) &&
                             gpu_pays_for_host_addmul(shape_of(a, b, count, b_count), r.max_limbs, host_threads()));
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        require_gpu_product(a, b);
        r.require_packable();
        if (!sum_fits)
            throw Error(std::string(subtract ? "submul" : "addmul") + " on the GPU: the sums would exceed the " +
                        std::to_string(kMaxLimbs) + " limbs of a batch (ZGPU_BACKEND=gpu)");
        const bool broadcast = b_count == 1;
        const auto kernel = [&](std::span<const ConstBatchView> x, BatchView sum, cudaStream_t stream) {
            const gpu::TemporaryBatch product(x[1].count, products, stream);
            gpu::mul(gpu::Runtime::get(), x[1], x[2], product.view(), broadcast, stream);  // gpu::run holds the lease
            kernels::add_sub(x[0], product.view(), sum, subtract, stream);
        };
        const gpu::Operand operands[] = {{&r, count}, {&a, count}, {&b, b_count}};
        backend = gpu::run(operands, count, size_class(std::uint32_t(sum_bound)), kernel, on_gpu_result,
                           [&](std::size_t first) { on_cpu(first, count); });
    } else
#endif
        on_cpu(0, count);
    set_last_backend(backend);
}

void divexact_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                   const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    // |a| / |b| has at most |a| - |b| + 1 limbs, and never more than |a|.
    const std::uint32_t sa = size_class(std::uint32_t(std::min<std::uint64_t>(a.max_limbs, kMaxLimbs)));
    const std::uint32_t sb = size_class(std::uint32_t(std::min<std::uint64_t>(b.max_limbs, kMaxLimbs)));
    const std::uint32_t quotient = size_class(std::min<std::uint32_t>(sa, sa + 1 - std::max<std::uint32_t>(1, b.min_limbs)));
#ifdef ZGPU_WITH_CUDA
    const bool fits = a.too_large.empty() && b.too_large.empty() && gpu::divexact_fits(quotient, sb);
#else
    const bool fits = false;
#endif
    Backend backend = choose(fits && gpu_pays_for_host_exact_division(shape_of(a, b, count, b_count), host_threads()));
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {  // forced too: elements too large for a batch are an error, as for products
        a.require_packable();
        b.require_packable();
        if (!fits) backend = Backend::cpu;  // quotients too long for the GPU's products: on the host, as for DeviceBatch
    }
    if (backend == Backend::gpu) {
        const bool broadcast = b_count == 1;
        const auto kernel = [broadcast](std::span<const ConstBatchView> x, BatchView q, cudaStream_t stream) {
            gpu::divexact(gpu::Runtime::get(), x[0], x[1], q, broadcast, false, stream);  // gpu::run holds the lease
        };
        const gpu::Operand operands[] = {{&a, count}, {&b, b_count}};
        backend = gpu::run(operands, count, quotient, kernel, on_gpu_result, [&](std::size_t first) { on_cpu(first, count); });
    } else
#endif
        on_cpu(0, count);
    set_last_backend(backend);
}

#ifdef ZGPU_WITH_CUDA
namespace {

// div_host's GPU path: the operands uploaded, divided as DeviceBatches, the results downloaded.
std::size_t divide_on_gpu(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b,
                          std::size_t b_count, const HostDivisionResult& on_gpu_result)
{
    const DeviceBatch da = to_gpu(a, count), db = to_gpu(b, b_count);
    DeviceBatch q, r;
    switch (kind) {
    case HostDivision::exact_checked:
        if (const std::size_t i = divide_exactly(q, da, db, true, "divexact_checked"); i < count) return i;
        break;
    case HostDivision::floor: fdiv_qr(q, r, da, db); break;
    case HostDivision::truncate: tdiv_qr(q, r, da, db); break;
    case HostDivision::mod: mod(r, da, db); break;
    }
    const LimbBatch hq = kind != HostDivision::mod ? q.download() : LimbBatch();
    const LimbBatch hr = with_remainder(kind) ? r.download() : LimbBatch();
    on_gpu_result(hq.view(), hr.view());
    return count;
}

}  // namespace
#endif

std::size_t div_host(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                     const std::function<void()>& on_cpu, const HostDivisionResult& on_gpu_result)
{
    const Backend backend = choose_for_host_div(kind, a, b, count, b_count);
    std::size_t first_inexact = count;
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu && count > 0) first_inexact = divide_on_gpu(kind, a, count, b, b_count, on_gpu_result);
    else
#endif
        on_cpu();  // also with no elements: nothing to compute anywhere
    set_last_backend(backend);
    return first_inexact;
}

}  // namespace zgpu
