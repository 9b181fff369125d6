#include "host_dispatch.hpp"

#include "zgpu/backend.hpp"

#include <algorithm>

#include "divide_exactly.hpp"
#include "zgpu/batch_div.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/error.hpp"
#ifdef ZGPU_WITH_CUDA
#include "../kernels/add_sub.hpp"
#include "../kernels/divrem.hpp"
#include "gpu_host_op.hpp"
#include "gpu_mul.hpp"
#endif

namespace zgpu {
namespace {

// Add/sub of host data: packing, PCIe both ways and unpacking cost more than the CPU's own
// addition at every size measured (128 bits to 2^19 bits, H200 host with 16 threads, see
// bench/results/), so the automatic choice is the CPU; ZGPU_BACKEND=gpu forces the GPU.
Backend choose_for_host_add_sub()
{
    const Backend requested = requested_backend();  // rejects unknown ZGPU_BACKEND values
    return backend_forced() ? requested : Backend::cpu;
}

// Products of host data go to the GPU where they do at least this many limb products for each
// limb that crosses PCIe (operands and result), and only up to the batch's size limit: the host
// threads' time grows with the limb products, the GPU path's with the limbs it converts and
// moves. Measured end to end on an H200 host with 16 threads for equal sizes (bench/results/,
// 32 MiB an operand vector): 16 x 16 limbs (1024 bits, 256 limb products for 64 limbs moved)
// took 3.1 to 3.7 ms on the GPU path against 3.7 to 4.5 ms on the CPU path; at 8 x 8 limbs the
// CPU path was faster (2.4 to 3.0 against 3.5 to 4.2 ms): 2 limb products a limb moved. Unequal
// sizes, 32 MiB of operands: 32 x 8 limbs (3.2 a limb moved) 1.74 ms on the GPU path against
// 2.01, 128 x 8 (3.8) 1.74 against 2.45, 300 x 4 (2.0) 2.01 against 1.45, 256 x 1 (0.5) 3.29
// against 0.53 (bench/results/2026-11-23-h200-mul-unequal-4c39c7d.md).
constexpr std::uint64_t kGpuHostMulMinLimbProductsPerLimbMoved = 3;

// Whether the product's stride stays within kMaxLimbs, as a batch needs.
bool product_fits_batch(const HostOperand& a, const HostOperand& b)
{
    return a.too_large.empty() && b.too_large.empty() &&
           size_class(std::uint32_t(a.max_limbs)) + size_class(std::uint32_t(b.max_limbs)) <= kMaxLimbs;
}

Backend choose_for_host_mul(const HostOperand& a, const HostOperand& b, std::size_t count, std::size_t b_count)
{
    const Backend requested = requested_backend();
    if (backend_forced() || requested == Backend::cpu) return requested;
    if (!product_fits_batch(a, b)) return Backend::cpu;
    const std::uint64_t moved = a.max_limbs + (b_count == 1 ? 0 : b.max_limbs) + a.max_limbs + b.max_limbs;
    const bool pays = a.max_limbs * b.max_limbs >= kGpuHostMulMinLimbProductsPerLimbMoved * moved;
    return count > 0 && pays ? Backend::gpu : Backend::cpu;
}

// Divisions of host data go to the GPU from dividends of this many limbs on, and division with
// remainder only for divisors its kernel takes (longer ones would be divided on the host after
// the transfers). Measured end to end on an H200 host with 16 threads (32 MiB of dividends twice
// the divisor's size, bench/results/2026-11-23-h200-div-end-to-end-*): at 16384 bits the host
// threads took 12.8 ms (exact) and 20.8 ms (fdiv_qr) against the GPU path's 17.3 and 24.6; at
// 32768 bits 13.7 and 23.5 against 12.9 and 17.9; at 65536 bits 25.4 and 32.0 against 14.2
// and 17.7. The GPU path packs, transfers and unpacks a whole vector at once (products overlap
// chunks), which is most of its time.
constexpr std::uint64_t kGpuHostDivMinLimbs = 512;

#ifdef ZGPU_WITH_CUDA
bool with_remainder(HostDivision kind)
{
    return kind == HostDivision::floor || kind == HostDivision::truncate || kind == HostDivision::mod;
}
#endif

Backend choose_for_host_div(HostDivision kind, const HostOperand& a, const HostOperand& b, std::size_t count)
{
    const Backend requested = requested_backend();
    if (backend_forced() || requested == Backend::cpu) return requested;
#ifdef ZGPU_WITH_CUDA
    const bool fits = a.too_large.empty() && b.too_large.empty() &&
                      (!with_remainder(kind) || b.max_limbs <= kernels::kDivremWarpMaxDivisorLimbs);
    return count > 0 && fits && a.max_limbs >= kGpuHostDivMinLimbs ? Backend::gpu : Backend::cpu;
#else
    (void)kind, (void)a, (void)b, (void)count;
    return Backend::cpu;
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
        const auto kernel = [subtract](ConstBatchView x, ConstBatchView y, BatchView r, cudaStream_t stream) {
            kernels::add_sub(x, y, r, subtract, stream);
        };
        backend = gpu::run(a, count, b, count, stride, kernel, on_gpu_result, [&](std::size_t first) { on_cpu(first, count); });
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
    Backend backend = choose_for_host_mul(a, b, count, b_count);
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        require_gpu_product(a, b);
        const auto stride = size_class(std::uint32_t(size_class(a.max_limbs) + size_class(b.max_limbs)));
        const bool broadcast = b_count == 1;
        const auto kernel = [broadcast](ConstBatchView x, ConstBatchView y, BatchView r, cudaStream_t stream) {
            gpu::mul(gpu::Runtime::get(), x, y, r, broadcast, stream);  // gpu::run holds the lease
        };
        backend = gpu::run(a, count, b, b_count, stride, kernel, on_gpu_result, [&](std::size_t first) { on_cpu(first, count); });
    } else
#endif
        on_cpu(0, count);
    set_last_backend(backend);
}

void addmul_host(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                 std::size_t b_count, bool subtract, const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    // The sum must fit a batch too: a huge r stays on the CPU unless the GPU is forced.
    const std::uint64_t product_stride = size_class(std::uint32_t(std::min<std::uint64_t>(a.max_limbs + b.max_limbs, kMaxLimbs)));
    const bool sum_fits = r.too_large.empty() &&
                          std::max<std::uint64_t>(size_class(std::uint32_t(r.max_limbs)), product_stride) < kMaxLimbs;
    const Backend backend = sum_fits || backend_forced() ? choose_for_host_mul(a, b, count, b_count) : Backend::cpu;
#ifdef ZGPU_WITH_CUDA
    if (backend == Backend::gpu) {
        require_gpu_product(a, b);
        DeviceBatch dr = to_gpu(r, count);
        const DeviceBatch da = to_gpu(a, count), db = to_gpu(b, b_count);
        if (subtract) submul(dr, da, db);
        else addmul(dr, da, db);
        on_gpu_result(0, dr.download().view());
    } else
#endif
        on_cpu();
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
    case HostDivision::exact: divexact(q, da, db); break;
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
    const Backend backend = choose_for_host_div(kind, a, b, count);
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
