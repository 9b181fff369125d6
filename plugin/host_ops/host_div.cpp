// Divisions of host data.
#include <algorithm>

#include "base/parallel.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/result_strides.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/host_ops.hpp"

namespace zgpu {
namespace {

// Exact division on the GPU: the quotients' stride, and whether the GPU's products take it.
struct ExactDivision {
    std::uint32_t quotient_stride;
    bool fits;
};

ExactDivision exact_division(const HostOperand& a, const HostOperand& b)
{
    const std::uint32_t quotient = gpu::quotient_stride(a.max_limbs, b.min_limbs);
    const std::uint32_t sb = size_class(std::uint32_t(std::min<std::uint64_t>(b.max_limbs, kMaxLimbs)));
    return {quotient, a.too_large.empty() && b.too_large.empty() && gpu::divexact_fits(quotient, sb)};
}

// Forced too: elements too large for a batch are an error, as for products.
void require_packable(const HostOperand& a, const HostOperand& b)
{
    a.require_packable();
    b.require_packable();
}

}  // namespace

void divexact_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                   const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    const ExactDivision exact = exact_division(a, b);
    const auto on_cpu_all = [&] { on_cpu(0, count); };
    const auto on_gpu = [&] {
        require_packable(a, b);
        // Quotients too long for the GPU's products go to the host, as for DeviceBatch.
        if (!exact.fits) return on_cpu_all(), Backend::cpu;
        return gpu::host_divexact(a, count, b, b_count, exact.quotient_stride, on_gpu_result,
                                  [&](std::size_t first) { on_cpu(first, count); });
    };
    run_on(choose(exact.fits && gpu_pays_for_host_exact_division(shape_of(a, b, count, b_count), host_threads())),
           on_gpu, on_cpu_all);
}

std::size_t divexact_checked_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                                  const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    const ExactDivision exact = exact_division(a, b);
    std::size_t first_inexact = count;
    const auto on_gpu = [&] {
        require_packable(a, b);
        if (!exact.fits) return on_cpu(), Backend::cpu;
        const gpu::CheckedDivision done =
            gpu::host_divexact_checked(a, count, b, b_count, exact.quotient_stride, on_gpu_result, on_cpu);
        first_inexact = done.first_inexact;
        return done.backend;
    };
    // The host threads check with a division with remainder each: that rule weighs them.
    run_on(choose(exact.fits && gpu_pays_for_host_division(shape_of(a, b, count, b_count), host_threads())), on_gpu,
           on_cpu);
    return first_inexact;
}

void div_host(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
              const HostRange& on_cpu, const HostDivisionResult& on_gpu_result)
{
    // Only divisors the one-warp kernel takes go to the GPU; longer ones are divided on the host.
    const bool fits = a.too_large.empty() && b.too_large.empty() && b.max_limbs <= gpu::kDivremMaxDivisorLimbs;
    const auto on_cpu_all = [&] { on_cpu(0, count); };
    const auto on_gpu = [&] {
        require_packable(a, b);
        if (!fits) return on_cpu_all(), Backend::cpu;
        const FinishOnHost rest = [&](std::size_t first) { on_cpu(first, count); };
        const std::uint32_t remainder_stride = size_class(std::uint32_t(b.max_limbs));
        if (kind == HostDivision::mod)
            return gpu::host_mod(
                a, count, b, remainder_stride, [&](std::size_t first, ConstBatchView r) { on_gpu_result(first, {}, r); }, rest);
        const bool floor = kind == HostDivision::floor;
        const std::uint32_t quotient_stride = gpu::quotient_stride(a.max_limbs, b.min_limbs, floor ? 2 : 1);
        return gpu::host_divrem(a, count, b, b_count, floor, quotient_stride, remainder_stride,
                                on_gpu_result, rest);
    };
    run_on(choose(fits && gpu_pays_for_host_division(shape_of(a, b, count, b_count), host_threads())), on_gpu, on_cpu_all);
}

}  // namespace zgpu
