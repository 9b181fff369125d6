// Divisions of host data on the GPU: each one's kernel, run chunk by chunk by the pipeline.
#include <cstring>
#include <span>
#include <utility>

#include "kernels/div/divrem.hpp"
#include "plugin/gpu/gpu_div.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/grouped_run.hpp"
#include "plugin/gpu/result_strides.hpp"

namespace zgpu::gpu {
namespace {

// Copies a chunk's packed rows into `all` from row `first` on (same stride).
void copy_rows(ConstBatchView chunk, BatchView all, std::size_t first)
{
    if (chunk.count == 0) return;  // an empty call: no storage to copy into
    std::memcpy(all.element(first), chunk.limbs, chunk.count * chunk.stride * sizeof(limb_t));
    std::memcpy(all.sizes + first, chunk.sizes, chunk.count * sizeof(std::int32_t));
}

}  // namespace


Backend host_divexact(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                      std::uint32_t quotient_stride, const HostResult& result, const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    const auto kernel = [broadcast](std::span<const ConstBatchView> x, BatchView q, Runtime& runtime) {
        divexact(runtime, x[0], x[1], q, broadcast, false, runtime.stream());
    };
    const auto group_stride = [](std::span<const Operand> x) {
        return gpu::quotient_stride(x[0].data->max_limbs, x[1].data->min_limbs);
    };
    const Operand operands[] = {{&a, count}, {&b, b_count}};
    return run_by_size(operands, count, quotient_stride, group_stride, kernel, result, finish_on_host);
}

Backend host_divrem(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count, bool floor,
                    std::uint32_t quotient_stride, std::uint32_t remainder_stride, const HostDivisionResult& result,
                    const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    const auto kernel = [broadcast, floor](std::span<const ConstBatchView> x, std::span<const BatchView> qr,
                                           Runtime& runtime) {
        kernels::divrem_warp(x[0], x[1], broadcast, floor, qr[0], qr[1], runtime.stream());
    };
    const Operand operands[] = {{&a, count}, {&b, b_count}};
    const std::uint32_t strides[] = {quotient_stride, remainder_stride};
    return run(operands, count, strides, kernel,
               [&](std::size_t first, std::span<const ConstBatchView> qr) { result(first, qr[0], qr[1]); }, finish_on_host);
}

Backend host_mod(const HostOperand& a, std::size_t count, const HostOperand& m, std::uint32_t remainder_stride,
                 const HostResult& result, const FinishOnHost& finish_on_host)
{
    // The floor remainder by a positive m; the kernel writes no quotient where q.limbs is null.
    const auto kernel = [](std::span<const ConstBatchView> x, BatchView r, Runtime& runtime) {
        kernels::divrem_warp(x[0], x[1], true, true, BatchView{}, r, runtime.stream());
    };
    const Operand operands[] = {{&a, count}, {&m, 1}};
    return run(operands, count, remainder_stride, kernel, result, finish_on_host);
}

CheckedDivision host_divexact_checked(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                                      std::uint32_t quotient_stride, const HostResult& result,
                                      const std::function<void()>& on_host)
{
    const bool broadcast = b_count == 1;
    // The kernels run chunk after chunk, in order: `checked` elements before this one's.
    std::size_t checked = 0, first_inexact = count;
    const auto kernel = [&](std::span<const ConstBatchView> x, BatchView q, Runtime& runtime) {
        // The check waits for its chunk, which costs the overlap of this chunk's kernel with
        // the next one's upload. Past an inexact element nothing is given: no need to divide.
        if (first_inexact == count)
            if (const std::size_t i = divexact(runtime, x[0], x[1], q, broadcast, true, runtime.stream()); i < x[0].count)
                first_inexact = checked + i;
        checked += x[0].count;
    };
    LimbBatch quotients(count, quotient_stride);
    const auto keep = [&](std::size_t first, ConstBatchView q) {
        if (first_inexact == count) copy_rows(q, quotients.view(), first);
    };
    bool host_computed = false;
    const auto finish_on_host = [&](std::size_t) {
        host_computed = true;
        on_host();
    };
    const Operand operands[] = {{&a, count}, {&b, b_count}};
    const Backend backend = run(operands, count, quotient_stride, kernel, keep, finish_on_host);
    if (host_computed) return {backend, count};
    if (first_inexact == count) result(0, std::as_const(quotients).view());
    return {backend, first_inexact};
}

}  // namespace zgpu::gpu
