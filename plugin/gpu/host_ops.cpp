// Sums and products of host data on the GPU: each one's kernel, run chunk by chunk by the
// pipeline (divisions: gpu_host_div.cpp).
#include <span>

#include "kernels/add_sub/add_sub.hpp"
#include "kernels/common/temporary.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/grouped_run.hpp"
#include "plugin/gpu/gpu_mul.hpp"
#include "plugin/gpu/result_strides.hpp"

namespace zgpu::gpu {

// Each operation runs by size groups where its elements' sizes differ much (grouped_run.hpp),
// with result strides from each group's operands by the rules of result_strides.hpp.

Backend host_add_sub(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract,
                     std::uint32_t result_stride, const HostResult& result, const FinishOnHost& finish_on_host)
{
    const auto kernel = [subtract](std::span<const ConstBatchView> x, BatchView r, Runtime& runtime) {
        kernels::add_sub(x[0], x[1], r, subtract, runtime.stream());
    };
    const auto group_stride = [](std::span<const Operand> x) { return sum_stride(x[0].data->max_limbs, x[1].data->max_limbs); };
    const Operand operands[] = {{&a, count}, {&b, count}};
    return run_by_size(operands, count, result_stride, group_stride, kernel, result, finish_on_host);
}

Backend host_mul(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                 std::uint32_t product_stride, const HostResult& result, const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    const auto kernel = [broadcast](std::span<const ConstBatchView> x, BatchView r, Runtime& runtime) {
        mul(runtime, x[0], x[1], r, broadcast, runtime.stream());
    };
    const auto group_stride = [](std::span<const Operand> x) {
        return gpu::product_stride(x[0].data->max_limbs, x[1].data->max_limbs);
    };
    const Operand operands[] = {{&a, count}, {&b, b_count}};
    return run_by_size(operands, count, product_stride, group_stride, kernel, result, finish_on_host);
}

Backend host_addmul(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                    std::size_t b_count, bool subtract, std::uint32_t sum_stride, const HostResult& result,
                    const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    // The products' stride from the views': theirs are the size classes of a's and b's largest
    // elements, in the whole call or in a size group.
    const auto kernel = [&](std::span<const ConstBatchView> x, BatchView sum, Runtime& runtime) {
        const kernels::TemporaryBatch product(x[1].count, product_stride(x[1].stride, x[2].stride), runtime.stream());
        mul(runtime, x[1], x[2], product.view(), broadcast, runtime.stream());
        kernels::add_sub(x[0], product.view(), sum, subtract, runtime.stream());
    };
    const auto group_stride = [](std::span<const Operand> x) {
        const std::uint32_t products = product_stride(x[1].data->max_limbs, x[2].data->max_limbs);
        return size_class(std::uint32_t(addmul_sum_limbs(x[0].data->max_limbs, products)));
    };
    const Operand operands[] = {{&r, count}, {&a, count}, {&b, b_count}};
    return run_by_size(operands, count, sum_stride, group_stride, kernel, result, finish_on_host);
}

}  // namespace zgpu::gpu
